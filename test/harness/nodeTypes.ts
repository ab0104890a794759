import type { IDataObject, INodeType, INodeTypes, IVersionedNodeType } from 'n8n-workflow';

import { testNodeType } from './testNodeType';

/** The node types a test workflow may use, by type name. */
export class TestNodeTypes implements INodeTypes {
	constructor(private readonly types: Record<string, INodeType | IVersionedNodeType>) {}

	getByName(nodeType: string): INodeType | IVersionedNodeType {
		const type = this.types[nodeType];
		if (!type) throw new Error(`Unknown node type ${nodeType}`);
		return type;
	}

	getByNameAndVersion(nodeType: string): INodeType {
		return this.getByName(nodeType) as INodeType;
	}

	getKnownTypes() {
		return {};
	}
}

/** Starts a test workflow: emits the items given in its `items` parameter, like a trigger would. */
export const itemsSourceNode = testNodeType({
	displayName: 'Items Source',
	description: 'Emits fixed items',
	properties: [{ displayName: 'Items', name: 'items', type: 'json', default: '[]' }],
	async execute() {
		const raw = this.getNodeParameter('items', 0) as string | IDataObject[];
		const items = (typeof raw === 'string' ? JSON.parse(raw) : raw) as IDataObject[];
		return [items.map((json, index) => ({ json, pairedItem: { item: index } }))];
	},
});
