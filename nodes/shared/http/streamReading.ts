import type { IDataObject } from 'n8n-workflow';

import type { ValueRedactor } from '../text/redact';

// The contract between an HTTP call that reads its answer as it arrives
// (the web-service transport) and the reader a caller gives it (an
// inquiries answer's reader): what the reader made of the answer, and how
// it stops the call with an error of its own. Neither side knows the other.

/**
 * An answer read whole is held whole and parsed, at about three times its size: 64 MB keeps that
 * well under the 500 MB one call may add to memory.
 */
export const MAX_WHOLE_ANSWER_BYTES = 64 * 1024 * 1024;

/** What a stream reader made of a successful answer (see readStream in request.ts). */
export type StreamReading<List = unknown> =
	/** Read: the answer's fields, its list among them when it had one (also given as `list`). */
	| { kind: 'read'; body: IDataObject; list?: List }
	/** Not read as it came, but every byte is here: read it whole. */
	| { kind: 'whole'; bytes: Buffer }
	/** The answer stopped in the middle, after parts of it were already let go. */
	| { kind: 'cut-short' }
	/**
	 * An answer the reader does not take, after parts of it were already let go: ask
	 * for it again and read it whole.
	 */
	| { kind: 'ask-again' };

/**
 * Reads a successful answer as it arrives. `redact` takes the credential's
 * secrets out of a value: the reader applies it to every record it hands
 * on (the transport redacts the answer's other fields).
 */
export type StreamReader = (
	chunks: AsyncIterable<Buffer>,
	redact: ValueRedactor,
) => Promise<StreamReading>;

/**
 * Thrown by a stream reader to end the call with an error of its own, such
 * as a bound the caller sets on what it keeps: the call fails with `reason`
 * as it is, and is not tried again.
 */
export class ReadingStopped extends Error {
	constructor(readonly reason: Error) {
		super(reason.message);
		this.name = 'ReadingStopped';
	}
}

/**
 * How a caller reads an answer whose records it collects: as it arrives
 * (`read`), or, when the answer had to be read whole, from its records
 * (`fromRecords`). The call that uses it knows nothing of the records.
 */
export interface ListAnswerReader<List> {
	read(chunks: AsyncIterable<Buffer>, redact: ValueRedactor): Promise<StreamReading<List>>;
	fromRecords(records: unknown[]): List;
}
