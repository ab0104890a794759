import type { INodeProperties } from 'n8n-workflow';

/** Simplify, on the trigger and on Get Many: a flat item per inquiry (flatten.ts) or the record as the API sent it. */
export const simplifyField: INodeProperties = {
	displayName: 'Simplify',
	name: 'simplify',
	type: 'boolean',
	default: true,
	description:
		'Whether to return a flat item with one field per form field instead of the raw inquiry record',
};
