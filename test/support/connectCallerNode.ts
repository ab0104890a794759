import type { IExecuteFunctions, INodeExecutionData, INodeType, INodeTypeDescription } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

/**
 * Stands in for n8n's HTTP Request node with "Predefined Credential Type":
 * it sends one authenticated request per item to the URL it is given, through
 * the same helper (httpRequestWithAuthentication) that node uses, so the
 * credential's preAuthentication, authenticate and refresh-on-401 all run.
 */
export class ConnectCallerNode implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Connect Caller',
		name: 'connectCaller',
		group: ['transform'],
		version: 1,
		description: 'Calls a URL with the App Builder API credential',
		defaults: { name: 'Connect Caller' },
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'appBuilderApi', required: true }],
		properties: [
			{ displayName: 'URL', name: 'url', type: 'string', default: '' },
			{ displayName: 'Method', name: 'method', type: 'string', default: 'GET' },
		],
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const items = this.getInputData();
		const out: INodeExecutionData[] = [];
		for (let itemIndex = 0; itemIndex < items.length; itemIndex++) {
			const body = (await this.helpers.httpRequestWithAuthentication.call(this, 'appBuilderApi', {
				method: this.getNodeParameter('method', itemIndex) as 'GET' | 'POST',
				url: this.getNodeParameter('url', itemIndex) as string,
				json: true,
			})) as object;
			out.push({ json: { ...body }, pairedItem: { item: itemIndex } });
		}
		return [out];
	}
}
