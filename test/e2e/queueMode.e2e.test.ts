/* eslint-disable @n8n/community-nodes/no-restricted-imports -- n8n Cloud's limits are for nodes; this runs on Node itself (timers, process, built-in modules) */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { credentialDataFor, startEmulator, FIXTURE } from '../emulator';
import { N8nInstance, packPackage } from './n8nInstance';
import { startQueueServices } from './queueServices';
import { emittedIds, waitForPolls } from './scenarios';
import { newInquiryWorkflow } from './workflows';

type Emulator = Awaited<ReturnType<typeof startEmulator>>;

/**
 * n8n's queue mode, its way to scale past one machine: the main instance
 * polls, a worker runs the executions, with PostgreSQL and Redis between
 * them. Every inquiry is processed exactly once, by the worker.
 */
describe('the trigger in n8n queue mode (main + worker, PostgreSQL, Redis)', () => {
	let emu: Emulator;
	let services: Awaited<ReturnType<typeof startQueueServices>>;
	let n8n: N8nInstance;
	let worker: Awaited<ReturnType<N8nInstance['startWorker']>>;

	beforeAll(async () => {
		emu = await startEmulator();
		services = await startQueueServices();
		const tarball = packPackage(mkdtempSync(join(tmpdir(), 'appbuilder-pack-')));
		n8n = await N8nInstance.start({ packageTarball: tarball, env: services.env });
		worker = await n8n.startWorker();
	}, 600_000);

	afterAll(async () => {
		await worker?.stop();
		await n8n?.destroy();
		await services?.stop();
		await emu?.close();
	}, 120_000);

	it('processes each new inquiry exactly once, on the worker', async () => {
		const form = { appId: FIXTURE.appId, pageId: FIXTURE.formPageId };
		const id = await n8n.createCredential(
			'App Builder (emulator)',
			'appBuilderApi',
			credentialDataFor(emu),
		);
		emu.control.addInquiry({ ...form, addedon: Date.now() - 60_000 });
		const workflowId = await n8n.createWorkflow(
			newInquiryWorkflow({ id, name: 'App Builder (emulator)' }, form),
		);
		await n8n.activate(workflowId);
		await waitForPolls(emu, 1);

		const tie = Date.now();
		const batch = [
			emu.control.addInquiry({ ...form, addedon: tie }),
			emu.control.addInquiry({ ...form, addedon: tie }),
			emu.control.addInquiry({ ...form, addedon: tie + 1 }),
		];
		await waitForPolls(emu, 2);

		const executions = await n8n.executions(workflowId);
		expect(emittedIds(executions)).toEqual(batch.map((r) => r._id).sort());
		expect(executions.every((execution) => execution.status === 'success')).toBe(true);
		for (const execution of executions) {
			expect(worker.logs()).toContain(`execution ${execution.id}`);
		}
	}, 600_000);
});
