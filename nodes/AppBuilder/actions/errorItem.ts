import type { IDataObject, INode, INodeExecutionData } from 'n8n-workflow';
import { TIMED_CAUSES } from 'n8n-workflow';

import { asNodeError } from '../transport/asNodeError';
import { causeOfError } from '../transport/failureCause';

// An error as an output item (Continue On Fail), shaped so that n8n sends it to the error output
// and keeps what a workflow routes by. n8n replaces the json of an item marked by its `error`
// property with the message alone (workflow-execute's normalizeNodeErrors), so a field beside it
// never reaches the next node. n8n 2.36 and later also route by the json alone when every key is
// error, message or details (n8n-io/n8n#35939), and keep that json: there the item carries its
// description and its cause in `details`. TIMED_CAUSES came with n8n-workflow 2.37, which ships
// with n8n-core 2.37, so its presence says the running n8n routes that way; older n8n get the
// marked item, as before.

const N8N_ROUTES_BY_DETAILS = Array.isArray(TIMED_CAUSES);

/**
 * The failed item: `error` (the message) and, where n8n keeps it, `details`
 * with the fix (`description`) and the cause when the App Builder API's
 * answer gives one (`credential-invalid`, `configuration-invalid`,
 * `rate-limited`, `temporarily-unavailable`; none for an item's own values,
 * such as an email already registered), so a workflow routes by what failed
 * rather than by the message's words.
 */
export function errorItem(node: INode, error: unknown, itemIndex: number): INodeExecutionData {
	const message = error instanceof Error ? error.message : String(error);
	const description = (error as { description?: unknown }).description;
	const fix = typeof description === 'string' ? { description } : {};
	const pairedItem = { item: itemIndex };
	if (N8N_ROUTES_BY_DETAILS) {
		const cause = causeOfError(error)?.cause;
		const details: IDataObject = { ...fix, ...(cause !== undefined ? { cause } : {}) };
		return { json: { error: message, details }, pairedItem };
	}
	return {
		json: {
			error: message,
			...(fix.description !== undefined ? { errorDescription: fix.description } : {}),
		},
		// Marks the item as failed: n8n before 2.36 routes it by this, since the json holds more than
		// n8n's own error keys.
		error: asNodeError(node, error, itemIndex),
		pairedItem,
	};
}
