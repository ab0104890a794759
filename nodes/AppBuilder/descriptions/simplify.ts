import type { INodeProperties } from 'n8n-workflow';

/**
 * Simplify, on the trigger and on Get Many: a flat item per inquiry (flatten.ts) or
 * the record as the API sent it.
 */
export const simplifyField: INodeProperties = {
	displayName: 'Simplify',
	name: 'simplify',
	type: 'boolean',
	default: true,
	description:
		'Whether to return each lead as simple fields (name, email, ...) rather than the record as App Builder sends it',
};
