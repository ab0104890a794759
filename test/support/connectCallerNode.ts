import type { INodeExecutionData } from 'n8n-workflow';

import { testNodeType } from '../harness/testNodeType';

/**
 * Stands in for n8n's HTTP Request node with "Predefined Credential Type":
 * it sends one authenticated request per item to the URL it is given, through
 * the same helper (httpRequestWithAuthentication) that node uses, so the
 * credential's preAuthentication, authenticate and refresh-on-401 all run.
 * With "parallel" it sends all items' requests at once, as the HTTP Request
 * node does with batching off.
 */
export const connectCallerNode = testNodeType({
	displayName: 'Connect Caller',
	description: 'Calls a URL with the App Builder API credential',
	credentials: ['appBuilderApi'],
	properties: [
		{ displayName: 'URL', name: 'url', type: 'string', default: '' },
		{ displayName: 'Method', name: 'method', type: 'string', default: 'GET' },
		{ displayName: 'Parallel', name: 'parallel', type: 'boolean', default: false },
	],
	async execute() {
		const items = this.getInputData();
		const call = async (itemIndex: number): Promise<INodeExecutionData> => {
			const body = (await this.helpers.httpRequestWithAuthentication.call(this, 'appBuilderApi', {
				method: this.getNodeParameter('method', itemIndex) as 'GET' | 'POST',
				url: this.getNodeParameter('url', itemIndex) as string,
				json: true,
			})) as object;
			return { json: { ...body }, pairedItem: { item: itemIndex } };
		};
		if (this.getNodeParameter('parallel', 0, false) as boolean) {
			return [await Promise.all(items.map(async (_item, itemIndex) => await call(itemIndex)))];
		}
		const out: INodeExecutionData[] = [];
		for (let itemIndex = 0; itemIndex < items.length; itemIndex++) out.push(await call(itemIndex));
		return [out];
	},
});
