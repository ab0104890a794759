import type { AnswerLimit } from '../../shared/http/answerLimits';
import type { NetworkFailure } from '../../shared/http/networkFailure';
import type { RedirectFailure } from '../../shared/http/redirectTarget';
import type { WebServiceFailure } from './interpretResponse';

// Why one web-service call failed, as the transport found it, told apart by `kind`: failureClass.ts
// says what it means, and webServiceError.ts words it as that says.

/** An answer that went past its deadline, its size or its number of records. */
export interface LimitFailure {
	ok: false;
	kind: 'limit';
	limit: AnswerLimit;
	/** Seconds for 'time', bytes for 'bytes', a count for 'records'. */
	bound: number;
}

/** Anything else that was thrown: its own message is the best description there is. */
export interface OtherFailure {
	ok: false;
	kind: 'other';
	message: string;
}

/** A compressed answer whose data could not be decoded. */
export interface DecodingFailure {
	ok: false;
	kind: 'undecodable';
}

export type CallFailure =
	| WebServiceFailure
	| NetworkFailure
	| RedirectFailure
	| LimitFailure
	| DecodingFailure
	| OtherFailure;
