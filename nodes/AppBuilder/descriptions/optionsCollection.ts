import type { INodeProperties } from 'n8n-workflow';

/** The "Options" collection both nodes end their properties with, holding their own options. */
export function optionsCollection(options: INodeProperties[]): INodeProperties {
	return {
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		options,
	};
}
