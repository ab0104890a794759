import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import type { WebServiceEndpoint } from '../../nodes/shared/appBuilderApi';
import { callWebService } from '../../nodes/AppBuilder/transport/request';

/**
 * Makes one web-service call per run through the package's own transport
 * (callWebService, n8n's HTTP helper, real HTTP), with a retry policy given
 * as a parameter: for tests of the retry loop that would take minutes with
 * the default numbers. The defaults themselves are asserted apart
 * (test/nodes/shared/http/retryPolicy.test.ts).
 */
// eslint-disable-next-line @n8n/community-nodes/node-usable-as-tool -- a test double, never offered to an agent
export class WebServiceCallerNode implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Web Service Caller',
		name: 'webServiceCaller',
		group: ['transform'],
		version: 1,
		description: 'Calls an App Builder web service with a given retry policy',
		defaults: { name: 'Web Service Caller' },
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'appBuilderApi', required: true }],
		properties: [
			{ displayName: 'Endpoint', name: 'endpoint', type: 'string', default: 'addUser' },
			{ displayName: 'Parameters', name: 'params', type: 'json', default: '{}' },
			{ displayName: 'Retry Policy', name: 'retry', type: 'json', default: '{}' },
		],
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const json = (name: string) =>
			JSON.parse(this.getNodeParameter(name, 0) as string) as IDataObject;
		const body = await callWebService(
			this,
			this.getNodeParameter('endpoint', 0) as WebServiceEndpoint,
			json('params'),
			{
				retry: json('retry'),
			},
		);
		return [[{ json: body, pairedItem: { item: 0 } }]];
	}
}
