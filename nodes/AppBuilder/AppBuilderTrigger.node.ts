import type {
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
	IPollFunctions,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { appBuilderIcon } from './descriptions/nodeIdentity';
import { appBuilderMethods } from './methods/nodeMethods';
import { triggerPoll } from './trigger/triggerPoll';
import { triggerProperties } from './trigger/triggerSettings';

export class AppBuilderTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'App Builder Trigger',
		name: 'appBuilderTrigger',
		icon: appBuilderIcon,
		group: ['trigger'],
		version: 1,
		subtitle: '={{$parameter["event"] === "newOrUpdated" ? "New or Updated Lead" : "New Lead"}}',
		description: 'Starts the workflow for each new lead (form inquiry) of your App Builder app',
		defaults: { name: 'App Builder Trigger' },
		polling: true,
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: [
			{ name: 'appBuilderApi', required: true, testedBy: 'appBuilderApiCredentialTest' },
		],
		properties: triggerProperties,
	};

	methods = appBuilderMethods;

	async poll(this: IPollFunctions): Promise<INodeExecutionData[][] | null> {
		return await triggerPoll.call(this);
	}
}
