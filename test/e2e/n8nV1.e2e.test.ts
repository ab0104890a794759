/* eslint-disable @n8n/community-nodes/no-restricted-imports -- n8n Cloud's limits are for nodes; this runs on Node itself (timers, process, built-in modules) */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { credentialDataFor, startEmulator } from '../emulator';
import { N8nInstance, packPackage } from './n8nInstance';
import { N8N_VERSIONS } from './n8nVersions';
import { checkUserLifecycle } from './scenarios';

type Emulator = Awaited<ReturnType<typeof startEmulator>>;

/** The same tarball on the last n8n 1.x line, which many self-hosted users still run. */
describe(`the package in n8n ${N8N_VERSIONS.oldest}`, () => {
	let emu: Emulator;
	let n8n: N8nInstance;
	let credential: { id: string; name: string };

	beforeAll(async () => {
		emu = await startEmulator();
		const tarball = packPackage(mkdtempSync(join(tmpdir(), 'appbuilder-pack-')));
		n8n = await N8nInstance.start({ version: N8N_VERSIONS.oldest, packageTarball: tarball });
		const id = await n8n.createCredential(
			'App Builder (emulator)',
			'appBuilderApi',
			credentialDataFor(emu),
		);
		credential = { id, name: 'App Builder (emulator)' };
	}, 900_000);

	afterAll(async () => {
		await n8n?.destroy();
		await emu?.close();
	}, 60_000);

	it("A: adds, updates and reads through n8n 1.x; a duplicate email ends in the node's clear error", async () => {
		await checkUserLifecycle(n8n, emu, credential);
	}, 180_000);
});
