import type { IDataObject } from 'n8n-workflow';

import type { WebServiceEndpoint } from '../../nodes/shared/appBuilderApi';
import { callWebService } from '../../nodes/AppBuilder/transport/request';
import { testNodeType } from '../harness/testNodeType';

/**
 * Makes one web-service call per run through the package's own transport
 * (callWebService, n8n's HTTP helper, real HTTP), with a retry policy given
 * as a parameter: for tests of the retry loop that would take minutes with
 * the default numbers. The defaults themselves are asserted apart
 * (test/nodes/shared/http/retryPolicy.test.ts).
 */
export const webServiceCallerNode = testNodeType({
	displayName: 'Web Service Caller',
	description: 'Calls an App Builder web service with a given retry policy',
	credentials: ['appBuilderApi'],
	properties: [
		{ displayName: 'Endpoint', name: 'endpoint', type: 'string', default: 'addUser' },
		{ displayName: 'Parameters', name: 'params', type: 'json', default: '{}' },
		{ displayName: 'Retry Policy', name: 'retry', type: 'json', default: '{}' },
	],
	async execute() {
		const json = (name: string) =>
			JSON.parse(this.getNodeParameter(name, 0) as string) as IDataObject;
		const endpoint = this.getNodeParameter('endpoint', 0) as WebServiceEndpoint;
		const body = await callWebService(this, endpoint, json('params'), { retry: json('retry') });
		return [[{ json: body, pairedItem: { item: 0 } }]];
	},
});
