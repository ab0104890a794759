import type {
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
	INodeType,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

/** What sets one test node apart: what it is called, its parameters and what it does with them. */
export interface TestNodeSpec {
	/** Its name in the editor, e.g. "Items Source"; the type name is its camelCase ("itemsSource"). */
	displayName: string;
	description: string;
	properties: INodeProperties[];
	/** Credential types it takes (each required). */
	credentials?: string[];
	execute: (this: IExecuteFunctions) => Promise<INodeExecutionData[][]>;
}

/** A node type for a test workflow: one input, one output, version 1, never offered to an agent. */
export function testNodeType(spec: TestNodeSpec): INodeType {
	const name = spec.displayName
		.split(' ')
		.map((word, index) => (index === 0 ? word.toLowerCase() : word))
		.join('');
	return {
		description: {
			displayName: spec.displayName,
			name,
			group: ['transform'],
			version: 1,
			description: spec.description,
			defaults: { name: spec.displayName },
			inputs: [NodeConnectionTypes.Main],
			outputs: [NodeConnectionTypes.Main],
			credentials: (spec.credentials ?? []).map((credential) => ({
				name: credential,
				required: true,
			})),
			properties: spec.properties,
		},
		execute: spec.execute,
	};
}
