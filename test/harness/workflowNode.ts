import type { INode } from 'n8n-workflow';

export const APP_BUILDER_TYPE = 'n8n-nodes-appbuilder.appBuilder';

/** A node of a test workflow named `name`, of `type`; its ID is its name in kebab case unless `rest` gives one. */
export function workflowNode(name: string, type: string, rest: Partial<INode> = {}): INode {
	return {
		id: name.toLowerCase().replace(/ /g, '-'),
		name,
		type,
		typeVersion: 1,
		position: [0, 0],
		parameters: {},
		...rest,
	};
}

/** The App Builder node as its errors name it, with the parameters given. */
export const appBuilderNode = (parameters: INode['parameters'] = {}): INode =>
	workflowNode('App Builder', APP_BUILDER_TYPE, { parameters });
