import type { Failure, NodeApiError } from 'n8n-workflow';
import { TIMED_CAUSES } from 'n8n-workflow';

import type { FailureClass } from './failureClass';

// Why a call failed, on the error that reaches n8n: the cause the failure's class gives
// (failureClass.ts), set in the words n8n-workflow 2.37 and later give errors (`failure`): whether
// waiting helps (rate-limited, temporarily-unavailable) or someone has to act (credential-invalid,
// configuration-invalid). n8n's poll scheduling reads it to back off. Older n8n-workflow releases
// (the peer dependency is `*`) have no such field: there the error stays as it is, and the cause is
// still known to this package (causeOfError).

const N8N_KNOWS_FAILURE_CAUSES = Array.isArray(TIMED_CAUSES);

/** The cause each error of the transport was made with, whichever n8n runs it. */
const causeOfErrors = new WeakMap<object, Failure>();

/** Sets the error's `failure` where the installed n8n knows the field. */
export function withFailureCause(error: NodeApiError, failureClass: FailureClass): NodeApiError {
	const { cause } = failureClass;
	if (cause === undefined) return error;
	causeOfErrors.set(error, cause);
	if (N8N_KNOWS_FAILURE_CAUSES) error.failure = cause;
	return error;
}

/**
 * The cause of an error this transport made; undefined for any other error, or
 * one about an item's own values.
 */
export function causeOfError(error: unknown): Failure | undefined {
	return typeof error === 'object' && error !== null ? causeOfErrors.get(error) : undefined;
}

/** Whether an error of this transport says the access token or the API key is wrong. */
export function isCredentialError(error: unknown): boolean {
	return causeOfError(error)?.cause === 'credential-invalid';
}
