// Bounds on what one answer of the API may cost: a server that never stops sending, or sends one
// byte at a time, must not keep a poll running or memory growing for ever. Reading stops with
// AnswerLimitExceeded, which the transport turns into a clear error that is not retried.

export type AnswerLimit = 'time' | 'bytes' | 'records';

export class AnswerLimitExceeded extends Error {
	constructor(
		readonly limit: AnswerLimit,
		/** Seconds for 'time', bytes for 'bytes', a count for 'records'. */
		readonly bound: number,
	) {
		super(`the answer went past its ${limit} limit (${bound})`);
		this.name = 'AnswerLimitExceeded';
	}
}
