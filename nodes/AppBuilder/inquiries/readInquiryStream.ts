import type { IDataObject } from 'n8n-workflow';

import {
	JsonStreamScanner,
	type ElementHandler,
	type JsonStreamShape,
} from '../../shared/jsonStream/jsonStreamScanner';
import {
	MAX_WHOLE_ANSWER_BYTES,
	type ListAnswerReader,
	type StreamReading,
} from '../../shared/http/streamReading';
import type { ValueRedactor } from '../../shared/text/redact';

/** An inquiries answer: the records under `data`; of each, the fields that decide identity and time (identity.ts, cursor.ts). */
const INQUIRIES_ANSWER: JsonStreamShape = {
	listKey: 'data',
	summaryKeys: ['_id', 'requestId', 'addedon', 'updatedon'],
};

/** The scanner set to read an inquiries answer. */
export class InquiryStreamScanner extends JsonStreamScanner {
	constructor(onElement: ElementHandler) {
		super(INQUIRIES_ANSWER, onElement);
	}
}

/** Most inquiries one answer may list: each costs about 100 bytes of bookkeeping while the answer is read. */
export const MAX_RECORDS_PER_ANSWER = 1_000_000;

/** Takes the records of `data` as the scan hands them over, and makes the list of them at the end. */
export interface RecordCollector<List> {
	/**
	 * One record (see ElementHandler). May throw to stop reading the answer
	 * (AnswerLimitExceeded): the error leaves readInquiryStream as it is.
	 */
	add: ElementHandler;
	/** Whether every record so far was kept (then nothing of the answer was let go). */
	readonly keptAll: boolean;
	build(): List;
}

/**
 * Reads an answer chunk by chunk. Until the first record is let go, every
 * chunk is kept too (up to an answer read whole's bound), so an answer the
 * scan gives up on early (an HTML page, `data: null`) is still read whole;
 * after that only the records the collector keeps are held, and an answer
 * the scan gives up on is asked for again.
 */
export async function readInquiryStream<List>(
	chunks: AsyncIterable<Buffer | string>,
	collector: RecordCollector<List>,
): Promise<StreamReading<List>> {
	const scanner = new InquiryStreamScanner((summary, bytes) => collector.add(summary, bytes));
	let retained: Buffer[] | undefined = [];
	let retainedBytes = 0;
	for await (const piece of chunks) {
		const chunk = typeof piece === 'string' ? Buffer.from(piece, 'utf8') : piece;
		retainedBytes += chunk.length;
		retained?.push(chunk);
		scanner.push(chunk);
		// Past the bound of an answer read whole the chunks are not needed: it could not be read whole anyway.
		if (!collector.keptAll || retainedBytes > MAX_WHOLE_ANSWER_BYTES) retained = undefined;
	}
	const outcome = scanner.finish();
	if (outcome.kind === 'complete') {
		if (!outcome.hasData) return { kind: 'read', body: outcome.fields as IDataObject };
		const list = collector.build();
		return {
			kind: 'read',
			body: { ...(outcome.fields as IDataObject), data: list as unknown as IDataObject },
			list,
		};
	}
	if (retained) return { kind: 'whole', bytes: Buffer.concat(retained) };
	return outcome.kind === 'cut-short' ? { kind: 'cut-short' } : { kind: 'ask-again' };
}

/**
 * The reader of an inquiries answer for the transport's inquiries call
 * (transport/formInquiries.ts): each answer read as it arrives into a fresh
 * collector, which hands on each record it keeps through `redact`.
 */
export function inquiryAnswerReader<List>(
	collector: (redact: ValueRedactor) => RecordCollector<List>,
	fromRecords: (records: unknown[]) => List,
): ListAnswerReader<List> {
	return {
		read: async (chunks, redact) => await readInquiryStream(chunks, collector(redact)),
		fromRecords,
	};
}
