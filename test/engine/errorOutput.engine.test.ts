import type { INodeParameters } from 'n8n-workflow';

import { AppBuilder } from '../../nodes/AppBuilder/AppBuilder.node';
import { itemsSourceNode, runWorkflow } from '../harness';
import { APP_BUILDER_TYPE, workflowNode } from '../harness/workflowNode';
import { addUserParameters, appBuilderCredentials } from '../support/appBuilderRuns';
import { useEmulator } from '../support/useEmulator';

/**
 * "On Error: Continue (using error output)" in n8n-core's WorkflowExecute: the
 * engine moves an item to the error output only when it is marked as an error
 * (its `error` property, or a json with nothing but error, message, details),
 * so the node must mark its error items for them not to run down the success
 * branch as if the user had been added.
 */
describe('App Builder node with its error output', () => {
	const emu = useEmulator();

	it('sends the items that fail to the error output, with their message and the node error, and the rest to the success output', async () => {
		const source = workflowNode('Source', 'test.itemsSource', {
			parameters: {
				items: JSON.stringify([
					{ email: 'a@example.com', phone: '5550000001' },
					{ email: 'not-an-email', phone: '5550000002' },
					{ email: 'a@example.com', phone: '5550000003' },
					{ email: 'c@example.com', phone: '5550000004' },
				]),
			},
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
			credentialsHelper: appBuilderCredentials(emu()),
			startNodeName: 'Source',
		});

		expect(run.data.resultData.error).toBeUndefined();
		const [success, failed] = run.data.resultData.runData['Add User'][0].data?.main ?? [];
		expect(success?.map((item) => [item.pairedItem, item.json.email])).toEqual([
			[{ item: 0 }, 'a@example.com'],
			[{ item: 3 }, 'c@example.com'],
		]);
		expect(failed?.map((item) => [item.pairedItem, item.json.error])).toEqual([
			[{ item: 1 }, expect.stringMatching(/not valid/)],
			[{ item: 2 }, expect.stringMatching(/already belongs to an app user/)],
		]);
		expect(failed?.[1].error?.description).toMatch(/Update User/);
		expect(
			emu()
				.control.users()
				.map((user) => user.email),
		).toEqual(['a@example.com', 'c@example.com']);
	});
});
