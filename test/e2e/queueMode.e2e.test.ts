import { FIXTURE } from '../emulator';
import type { N8nInstance } from './n8nInstance';
import { useRealN8n } from './useRealN8n';
import { startQueueServices } from './queueServices';
import { carrying, emittedIds, executionsOnce, waitForPolls } from './scenarios';
import { newInquiryWorkflow } from './workflows';

/**
 * n8n's queue mode, its way to scale past one machine: the main instance
 * polls, a worker runs the executions, with PostgreSQL and Redis between
 * them. Every inquiry is processed exactly once, by the worker.
 */
describe('the trigger in n8n queue mode (main + worker, PostgreSQL, Redis)', () => {
	let services: Awaited<ReturnType<typeof startQueueServices>>;
	let worker: Awaited<ReturnType<N8nInstance['startWorker']>>;

	beforeAll(async () => {
		services = await startQueueServices();
	});

	const real = useRealN8n({
		credential: { name: 'App Builder (emulator)' },
		env: () => services.env,
		async setUp({ n8n }) {
			worker = await n8n.startWorker();
		},
		async teardown() {
			await worker?.stop();
		},
	});

	// After n8n has stopped (hooks run in the order declared).
	afterAll(async () => {
		await services?.stop();
	});

	it('processes each new inquiry exactly once, on the worker', async () => {
		const { emu, n8n, credential } = real();
		const form = { appId: FIXTURE.appId, pageId: FIXTURE.formPageId };
		emu.control.addInquiry({ ...form, addedon: Date.now() - 60_000 });
		const workflowId = await n8n.createWorkflow(newInquiryWorkflow(credential, form));
		await n8n.activate(workflowId);
		await waitForPolls(emu, 1);

		const tie = Date.now();
		const batch = [
			emu.control.addInquiry({ ...form, addedon: tie }),
			emu.control.addInquiry({ ...form, addedon: tie }),
			emu.control.addInquiry({ ...form, addedon: tie + 1 }),
		];
		await waitForPolls(emu, 2);

		const executions = await executionsOnce(
			n8n,
			workflowId,
			'the batch',
			carrying(batch.map((r) => r._id)),
		);
		expect(emittedIds(executions)).toEqual(batch.map((r) => r._id).sort());
		expect(executions.every((execution) => execution.status === 'success')).toBe(true);
		for (const execution of executions) {
			expect(worker.logs()).toContain(`execution ${execution.id}`);
		}
	}, 600_000);
});
