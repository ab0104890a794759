import { FIXTURE } from '../emulator';
import { useRealN8n } from './useRealN8n';
import { N8N_VERSIONS } from './n8nVersions';
import { callWebhook, checkUserLifecycle, executionsOnce } from './scenarios';

/** The same tarball on the last n8n 1.x line, which many self-hosted users still run. */
describe(`the package in n8n ${N8N_VERSIONS.oldest}`, () => {
	const real = useRealN8n({
		version: N8N_VERSIONS.oldest,
		credential: { name: 'App Builder (emulator)' },
	});

	it("A: adds, updates and reads through n8n 1.x; a duplicate email ends in the node's clear error", async () => {
		const { emu, n8n, credential } = real();
		await checkUserLifecycle(n8n, emu, credential);
	});

	it('B: with On Error "Continue (using error output)", a refused sign-up leaves by the error output with its message, an added one by the success output', async () => {
		const { emu, n8n, credential } = real();
		const noOp = (name: string, y: number) => ({
			id: name,
			name,
			type: 'n8n-nodes-base.noOp',
			typeVersion: 1,
			position: [500, y],
			parameters: {},
		});
		const workflowId = await n8n.createWorkflow({
			name: 'E2E B: error output',
			nodes: [
				{
					id: 'webhook',
					name: 'Webhook',
					type: 'n8n-nodes-base.webhook',
					typeVersion: 2,
					position: [0, 0],
					webhookId: 'e2e-error-output',
					parameters: {
						httpMethod: 'POST',
						path: 'error-output',
						// Answers once the run has ended, so its execution is stored when the test reads it.
						responseMode: 'lastNode',
						responseData: 'allEntries',
						options: {},
					},
				},
				{
					id: 'add-user',
					name: 'Add User',
					type: 'n8n-nodes-appbuilder.appBuilder',
					typeVersion: 1,
					position: [250, 0],
					onError: 'continueErrorOutput',
					parameters: {
						resource: 'user',
						operation: 'add',
						email: '={{ $json.body.email }}',
						name: '={{ $json.body.name }}',
						password: 'Pa55word!',
						passwordFormat: 'hashInN8n',
						phone: '={{ $json.body.phone }}',
						additionalFields: {},
					},
					credentials: { appBuilderApi: credential },
				},
				noOp('Added', -100),
				noOp('Refused', 100),
			],
			connections: {
				Webhook: { main: [[{ node: 'Add User', type: 'main', index: 0 }]] },
				'Add User': {
					main: [
						[{ node: 'Added', type: 'main', index: 0 }],
						[{ node: 'Refused', type: 'main', index: 0 }],
					],
				},
			},
		});
		await n8n.activate(workflowId);
		const person = { email: 'ben@example.com', name: 'Ben Okafor', phone: '4155550199' };
		for (const phone of [person.phone, '4155550198']) {
			expect((await callWebhook(n8n, 'error-output', { ...person, phone })).status).toBe(200);
		}
		const executions = await executionsOnce(n8n, workflowId, 'both sign-ups ended', (all) =>
			all.length === 2 && all.every((execution) => execution.finished || execution.status !== 'running'),
		);
		expect(executions.map((execution) => execution.status)).toEqual(['success', 'success']);
		const reached = executions.map((execution) =>
			['Added', 'Refused'].filter((node) => node in execution.data.resultData.runData),
		);
		expect(reached).toEqual([['Added'], ['Refused']]);
		const refused = executions[1].data.resultData.runData.Refused[0].data.main[0][0].json;
		expect(refused.error).toMatch(/already belongs to an app user/);
		expect(emu.control.users().filter((user) => user.email === person.email)).toHaveLength(1);
		expect(JSON.stringify(executions)).not.toContain(FIXTURE.accessToken);
	});
});
