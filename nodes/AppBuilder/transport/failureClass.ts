import type { Failure } from 'n8n-workflow';

import { isTransient } from '../../shared/http/networkFailure';
import type { CallFailure } from './callFailure';
import {
	API_ERROR_CATALOG,
	meaningOf,
	type ApiErrorMeaning,
	type ApiErrorSubject,
} from './errorCatalog';
import { isUnreadableBody, type WebServiceFailure } from './interpretResponse';

// What a failed call is, decided here once for every failure the transport meets: whether the call
// sends the request again, whether it waits out a rate limit, the cause n8n is told and the words
// that describe it. request.ts, webServiceError.ts and failureCause.ts ask and decide nothing.
//
// An answer of the API is judged by its code: the API's own when the answer names one, else the
// HTTP status (interpretResponse.ts), so a 503 whose body says 2039 is an email in use, not an
// outage. Only a 429 status is a rate limit whatever the body says: it is what a gateway in front
// of the API answers, and the request was not handled.

export interface FailureClass {
	/**
	 * Whether the request is sent again: a rate limit is waited out (counted
	 * apart, retryPolicy.ts), a passing failure tried again, anything else not.
	 */
	retry: 'wait-out' | 'again' | 'stop';
	/** Why it failed in n8n's terms; none for one item's own values or a failure of no known kind. */
	cause: Failure | undefined;
	/**
	 * The words for an answer of the API (webServiceError.ts); other failures are told by their kind.
	 */
	words?: ApiFailureWords;
}

/** An answer of the API is told by its code's meaning, or as not the JSON the API promises. */
export type ApiFailureWords =
	| { kind: 'meaning'; meaning: ApiErrorMeaning }
	| { kind: 'not-json'; bodyKind: WebServiceFailure['bodyKind'] };

/** An answer of the API's class, which always has its words. */
export type ApiFailureClass = FailureClass & { words: ApiFailureWords };

export function classifyFailure(failure: WebServiceFailure): ApiFailureClass;
export function classifyFailure(failure: CallFailure): FailureClass;
export function classifyFailure(failure: CallFailure): FailureClass {
	switch (failure.kind) {
		case 'api':
			return apiFailureClass(failure);
		case 'network':
			// A host that is not found stays so for a while; a dropped connection may not.
			return { retry: isTransient(failure) ? 'again' : 'stop', cause: temporary() };
		case 'limit':
			// Past the time bound the API was slow, and would be slow again; past the size bounds it
			// is not the App Builder API answering.
			return { retry: 'stop', cause: failure.limit === 'time' ? temporary() : configuration() };
		case 'undecodable':
			return { retry: 'stop', cause: temporary() };
		case 'redirect':
			return { retry: 'stop', cause: configuration() };
		case 'other':
			return { retry: 'stop', cause: undefined };
	}
}

function apiFailureClass(failure: WebServiceFailure): ApiFailureClass {
	if (failure.code === 429 || failure.httpStatus === 429) {
		const { retryAfterMs } = failure;
		return {
			retry: 'wait-out',
			cause:
				retryAfterMs !== undefined && retryAfterMs > 0
					? { cause: 'rate-limited', retryAfterMs }
					: { cause: 'rate-limited' },
			words: { kind: 'meaning', meaning: API_ERROR_CATALOG[429] },
		};
	}
	// A 2xx that is not the JSON promised: a body cut short (the connection most likely broke) is
	// worth another attempt; a proxy's or a login page would only come again.
	if (isUnreadableBody(failure)) {
		const cutShort = failure.bodyKind === 'malformed-json' || failure.bodyKind === 'empty';
		return {
			retry: cutShort ? 'again' : 'stop',
			cause: temporary(),
			words: { kind: 'not-json', bodyKind: failure.bodyKind },
		};
	}
	const meaning = meaningOf(failure.code);
	const cause = CAUSE_OF_SUBJECT[meaning.about];
	return {
		retry: meaning.about === 'transient' ? 'again' : 'stop',
		cause: cause === undefined ? undefined : { cause },
		words: { kind: 'meaning', meaning },
	};
}

const CAUSE_OF_SUBJECT: Record<ApiErrorSubject, Failure['cause'] | undefined> = {
	credential: 'credential-invalid',
	configuration: 'configuration-invalid',
	transient: 'temporarily-unavailable',
	'rate-limit': 'rate-limited',
	item: undefined,
};

// Each error gets a cause of its own: n8n may keep or change what it is handed.
function temporary(): Failure {
	return { cause: 'temporarily-unavailable' };
}

function configuration(): Failure {
	return { cause: 'configuration-invalid' };
}
