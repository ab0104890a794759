import type {
	IExecuteFunctions,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { operationProperty, resourceProperty } from './actions/resource';
import { concurrencyOption, RESOURCES, route } from './actions/router';
import { timeoutOption } from './descriptions/timeoutOption';
import { appBuilderIcon } from './descriptions/nodeIdentity';
import { optionsCollection } from './descriptions/optionsCollection';
import { appBuilderMethods } from './methods/nodeMethods';

export class AppBuilder implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'App Builder',
		name: 'appBuilder',
		icon: appBuilderIcon,
		group: ['transform'],
		version: 1,
		subtitle: '={{$parameter["operation"] + ": " + $parameter["resource"]}}',
		description: 'Register and update app users and read form inquiries with the App Builder API',
		defaults: { name: 'App Builder' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [
			{ name: 'appBuilderApi', required: true, testedBy: 'appBuilderApiCredentialTest' },
		],
		properties: [
			resourceProperty(RESOURCES, 'user'),
			...RESOURCES.map(operationProperty),
			...RESOURCES.flatMap((resource) =>
				resource.operations.flatMap((operation) => operation.module.description),
			),
			optionsCollection([concurrencyOption, timeoutOption]),
		],
	};

	methods = appBuilderMethods;

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await route.call(this);
	}
}
