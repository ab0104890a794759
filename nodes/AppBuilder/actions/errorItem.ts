import type { INode, INodeExecutionData } from 'n8n-workflow';

import { asNodeError } from '../transport/asNodeError';

/**
 * An error as an output item (Continue On Fail); n8n 2 keeps only `error`
 * of its json, n8n 1 the fix too.
 */
export function errorItem(node: INode, error: unknown, itemIndex: number): INodeExecutionData {
	const nodeError = asNodeError(node, error, itemIndex);
	const description = (error as { description?: unknown }).description;
	return {
		json: {
			error: error instanceof Error ? error.message : String(error),
			...(typeof description === 'string' ? { errorDescription: description } : {}),
		},
		// Marks the item as failed: with "Continue (using error output)" n8n routes it by this, since
		// the json holds more than n8n's own error keys.
		error: nodeError,
		pairedItem: { item: itemIndex },
	};
}
