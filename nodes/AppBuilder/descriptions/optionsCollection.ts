import type { INodeProperties } from 'n8n-workflow';

export const OPTIONS = 'options';

/** The "Options" collection both nodes end their properties with, holding their own options. */
export function optionsCollection(options: INodeProperties[]): INodeProperties {
	return {
		displayName: 'Options',
		name: OPTIONS,
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		options,
	};
}
