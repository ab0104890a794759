/* eslint-disable @n8n/community-nodes/no-restricted-imports -- n8n Cloud's limits are for nodes; this runs on Node itself (built-in modules) */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { credentialDataFor, startEmulator } from '../emulator';
import type { Emulator } from '../support/useEmulator';
import { N8nInstance, packPackage } from './n8nInstance';

export interface RealN8n {
	emu: Emulator;
	n8n: N8nInstance;
	/** The App Builder credential n8n holds, pointing at the emulator. */
	credential: { id: string; name: string };
}

export interface RealN8nOptions {
	/** The n8n version (n8nVersions.js); the newest when absent. */
	version?: string;
	/** Environment for n8n, decided once the emulator runs (queue mode's services, say). */
	env?: () => Record<string, string>;
	emulator?: Parameters<typeof startEmulator>[0];
	/** The credential's name in n8n, and whether it holds the Connect API's fields too. */
	credential?: { name?: string; connect?: boolean };
	/** Run after n8n is up, before the tests (services to start, workflows to create); undone by `teardown`. */
	setUp?: (real: RealN8n) => Promise<void>;
	teardown?: () => Promise<void>;
}

let packed: string | undefined;

/** The package built and packed as it would be published: once per test file. */
export function packedTarball(): string {
	packed ??= packPackage(mkdtempSync(join(tmpdir(), 'appbuilder-pack-')));
	return packed;
}

/**
 * For a test file: an emulator, a real n8n with the packed package installed
 * the way n8n installs community packages, and an App Builder credential in
 * it pointing at the emulator; started before the file's tests and torn down
 * after them. Returns a getter, since they exist only once beforeAll has run.
 */
export function useRealN8n(options: RealN8nOptions = {}): () => RealN8n {
	let real: RealN8n | undefined;
	let emu: Emulator | undefined;
	let n8n: N8nInstance | undefined;
	beforeAll(async () => {
		emu = await startEmulator(options.emulator);
		n8n = await N8nInstance.start({
			version: options.version,
			packageTarball: packedTarball(),
			env: options.env?.(),
		});
		const name = options.credential?.name ?? 'App Builder account';
		const data = credentialDataFor(emu, { connect: options.credential?.connect ?? false });
		const id = await n8n.createCredential(name, 'appBuilderApi', data);
		real = { emu, n8n, credential: { id, name } };
		await options.setUp?.(real);
	}, 900_000);
	afterAll(async () => {
		await options.teardown?.();
		await n8n?.destroy();
		await emu?.close();
	});
	return () => {
		if (!real) throw new Error('the real n8n starts in beforeAll');
		return real;
	};
}
