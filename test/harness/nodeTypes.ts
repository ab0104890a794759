import type {
	IDataObject,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
	INodeTypes,
	IExecuteFunctions,
	IVersionedNodeType,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

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
// eslint-disable-next-line @n8n/community-nodes/node-usable-as-tool -- a test's source of items, never offered to an agent
export class ItemsSourceNode implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Items Source',
		name: 'itemsSource',
		group: ['input'],
		version: 1,
		description: 'Emits fixed items',
		defaults: { name: 'Items Source' },
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		properties: [{ displayName: 'Items', name: 'items', type: 'json', default: '[]' }],
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const raw = this.getNodeParameter('items', 0) as string | IDataObject[];
		const items = (typeof raw === 'string' ? JSON.parse(raw) : raw) as IDataObject[];
		return [items.map((json, index) => ({ json, pairedItem: { item: index } }))];
	}
}
