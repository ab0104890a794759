import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { AppBuilder } from '../../nodes/AppBuilder/AppBuilder.node';
import { itemsSourceNode, runWorkflow } from '../harness';
import { APP_BUILDER_TYPE, workflowNode } from '../harness/workflowNode';
import { addUserParameters, appBuilderCredentials } from '../support/appBuilderRuns';
import { useEmulator } from '../support/useEmulator';
import { FIXTURE } from '../emulator';

/**
 * "On Error: Continue (using error output)" in n8n-core's WorkflowExecute: the
 * engine moves an item to the error output only when it is marked as an error
 * (its `error` property, or a json with nothing but error, message, details),
 * so the node must mark its error items for them not to run down the success
 * branch as if the user had been added.
 */
describe('App Builder node with its error output', () => {
	const emu = useEmulator();

	/** Add User with its error output, run once through the engine on the given items and credential. */
	async function addUsersWithErrorOutput(
		people: Array<{ email: string; phone: string }>,
		credentialOverrides: Record<string, string> = {},
	) {
		const source = workflowNode('Source', 'test.itemsSource', {
			parameters: { items: JSON.stringify(people) },
		});
		const addUser = workflowNode('Add User', APP_BUILDER_TYPE, {
			position: [200, 0],
			parameters: addUserParameters({
				email: '={{ $json.email }}',
				phone: '={{ $json.phone }}',
			}) as INodeParameters,
			credentials: { appBuilderApi: { id: '1', name: 'App Builder' } },
			onError: 'continueErrorOutput',
		});
		const { run } = await runWorkflow({
			nodeTypes: {
				'test.itemsSource': itemsSourceNode,
				'n8n-nodes-appbuilder.appBuilder': new AppBuilder(),
			},
			nodes: [source, addUser],
			connections: { Source: { main: [[{ node: 'Add User', type: 'main', index: 0 }]] } },
			credentialsHelper: appBuilderCredentials(emu(), credentialOverrides),
			startNodeName: 'Source',
		});
		expect(run.data.resultData.error).toBeUndefined();
		const [success, failed] = run.data.resultData.runData['Add User'][0].data?.main ?? [];
		return { success: success ?? [], failed: failed ?? [] };
	}

	it('sends the items that fail to the error output, with their message and what to do, and the rest to the success output', async () => {
		const { success, failed } = await addUsersWithErrorOutput([
			{ email: 'a@example.com', phone: '5550000001' },
			{ email: 'not-an-email', phone: '5550000002' },
			{ email: 'a@example.com', phone: '5550000003' },
			{ email: 'c@example.com', phone: '5550000004' },
		]);
		expect(success.map((item) => [item.pairedItem, item.json.email])).toEqual([
			[{ item: 0 }, 'a@example.com'],
			[{ item: 3 }, 'c@example.com'],
		]);
		expect(failed.map((item) => [item.pairedItem, item.json.error])).toEqual([
			[{ item: 1 }, expect.stringMatching(/not valid/)],
			[{ item: 2 }, expect.stringMatching(/already belongs to an app user/)],
		]);
		// What to do comes with it, where the next node can read it.
		expect(failed[1].json.details).toEqual({ description: expect.stringMatching(/Update User/) });
		expect(
			emu()
				.control.users()
				.map((user) => user.email),
		).toEqual(['a@example.com', 'c@example.com']);
	});

	it("gives each error item the failure's cause, so a workflow can route without reading words: the credential, an outage, none for the item's own values", async () => {
		const ann = { email: 'ann@example.com', phone: '5550000011' };
		const again = { ...ann, phone: '5550000012' };
		const taken = await addUsersWithErrorOutput([ann, again]);
		expect(taken.success.map((item) => item.json.email)).toEqual([ann.email]);
		// An email already registered is about the item: no cause, only its words.
		expect(taken.failed.map((item) => item.json)).toEqual([
			{
				error: expect.stringMatching(/already belongs to an app user/),
				details: { description: expect.any(String) },
				// n8n adds the fields of the item the node received.
				...again,
			},
		]);

		// An access token the API no longer accepts (revoked), and an API key of no account.
		const wrongCredentials: Array<Record<string, string>> = [
			{ accessToken: 'revoked-access-token' },
			{ apiKey: 'unknown-api-key' },
		];
		for (const overrides of wrongCredentials) {
			const refused = await addUsersWithErrorOutput(
				[{ email: 'ben@example.com', phone: '5550000013' }],
				overrides,
			);
			expect(refused.success).toEqual([]);
			expect(refused.failed.map((item) => (item.json.details as IDataObject).cause)).toEqual([
				'credential-invalid',
			]);
		}

		// App Builder down for every attempt.
		emu().control.injectFault({ endpoint: 'addUser', kind: 'status', status: 500, times: 10 });
		const outage = await addUsersWithErrorOutput([
			{ email: 'cleo@example.com', phone: '5550000014' },
		]);
		expect(outage.failed.map((item) => (item.json.details as IDataObject).cause)).toEqual([
			'temporarily-unavailable',
		]);
		expect(JSON.stringify([taken, outage])).not.toContain(FIXTURE.accessToken);
	});
});
