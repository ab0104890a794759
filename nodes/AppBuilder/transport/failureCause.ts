import type { Failure, NodeApiError } from 'n8n-workflow';
import { TIMED_CAUSES } from 'n8n-workflow';

import { meaningOf } from './errorCatalog';
import { isUnreadableBody, type WebServiceFailure } from './interpretResponse';
import type { CallFailure } from './callFailure';

/**
 * Why a call failed, in the words n8n-workflow 2.37 and later give errors
 * (`failure`): whether waiting helps (rate-limited, temporarily-unavailable)
 * or someone has to act (credential-invalid, configuration-invalid). n8n's
 * poll scheduling reads it to back off. Older n8n-workflow releases (the
 * peer dependency is `*`) have no such field: there the error stays as it is.
 */
const N8N_KNOWS_FAILURE_CAUSES = Array.isArray(TIMED_CAUSES);

/** API codes that mean the access token or the API key is wrong (see errorCatalog.ts). */
const CREDENTIAL_CODES = new Set([401, 403, 2032, 2036, 2038]);
/** Codes that mean the node points at the wrong place, or asks what the API does not offer. */
const CONFIGURATION_CODES = new Set([400, 404, 405, 406, 410]);

export function failureCauseOf(failure: CallFailure): Failure | undefined {
	switch (failure.kind) {
		case 'redirect':
			return { cause: 'configuration-invalid' };
		case 'limit':
			// Past the time bound the API was slow; past the size bounds it is not the App Builder API answering.
			return failure.limit === 'time'
				? { cause: 'temporarily-unavailable' }
				: { cause: 'configuration-invalid' };
		case 'undecodable':
		case 'network':
			return { cause: 'temporarily-unavailable' };
		case 'other':
			return undefined;
		case 'api':
			return apiFailureCause(failure);
	}
}

function apiFailureCause(failure: WebServiceFailure): Failure | undefined {
	if (failure.code === 429 || failure.httpStatus === 429) {
		return failure.retryAfterMs !== undefined && failure.retryAfterMs > 0
			? { cause: 'rate-limited', retryAfterMs: failure.retryAfterMs }
			: { cause: 'rate-limited' };
	}
	// A 200 whose body is a proxy's page or cut short: the API did not really answer.
	if (isUnreadableBody(failure)) return { cause: 'temporarily-unavailable' };
	if (CREDENTIAL_CODES.has(failure.code)) return { cause: 'credential-invalid' };
	if (CONFIGURATION_CODES.has(failure.code)) return { cause: 'configuration-invalid' };
	if (meaningOf(failure.code).retryable) return { cause: 'temporarily-unavailable' };
	// The rest (an email that already exists, a phone in use) is about one item's values, not the call.
	return undefined;
}

/** Whether an error of this transport says the access token or the API key is wrong. */
export function isCredentialError(error: unknown): boolean {
	const code = (error as { httpCode?: unknown } | undefined)?.httpCode;
	return typeof code === 'string' && CREDENTIAL_CODES.has(Number(code));
}

/** Sets the error's `failure` where the installed n8n knows the field. */
export function withFailureCause(error: NodeApiError, failure: CallFailure): NodeApiError {
	const cause = N8N_KNOWS_FAILURE_CAUSES ? failureCauseOf(failure) : undefined;
	if (cause !== undefined) error.failure = cause;
	return error;
}
