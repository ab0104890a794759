import type { IDataObject } from 'n8n-workflow';

import { AnswerLimitExceeded } from '../../shared/http/answerLimits';
import type { ValueRedactor } from '../../shared/text/redact';
import { JsonStreamScanner, type ElementHandler, type JsonStreamShape } from '../../shared/jsonStream/jsonStreamScanner';
import type { StreamReading } from '../transport/streamedOutcome';
import { readRecord } from './unreadableInquiry';

/** An inquiries answer: the records under `data`; of each, the fields that decide identity and time (identity.ts, cursor.ts). */
const INQUIRIES_ANSWER: JsonStreamShape = { listKey: 'data', summaryKeys: ['_id', 'requestId', 'addedon', 'updatedon'] };

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
 * chunk is kept too, so an answer the scan gives up on early (an HTML page,
 * `data: null`) is still read whole; after that only the records
 * the collector keeps are held.
 */
export async function readInquiryStream<List>(
	chunks: AsyncIterable<Buffer | string>,
	collector: RecordCollector<List>,
): Promise<StreamReading<List>> {
	const scanner = new InquiryStreamScanner((summary, bytes) => collector.add(summary, bytes));
	let retained: Buffer[] | undefined = [];
	for await (const piece of chunks) {
		const chunk = typeof piece === 'string' ? Buffer.from(piece, 'utf8') : piece;
		retained?.push(chunk);
		scanner.push(chunk);
		if (!collector.keptAll) retained = undefined;
	}
	const outcome = scanner.finish();
	if (outcome.kind === 'complete') {
		if (!outcome.hasData) return { kind: 'read', body: outcome.fields as IDataObject };
		const list = collector.build();
		return { kind: 'read', body: { ...(outcome.fields as IDataObject), data: list as unknown as IDataObject }, list };
	}
	if (retained) return { kind: 'whole', bytes: Buffer.concat(retained) };
	return outcome.kind === 'cut-short' ? { kind: 'cut-short' } : { kind: 'ask-again' };
}

/**
 * Every record of an answer, in its order, parsed as it arrives: for Get
 * Many and Fetch Test Event, which use them all. A record whose text is not
 * JSON is an UnreadableInquiry in its place.
 */
export class InquiryArrayBuilder implements RecordCollector<unknown[]> {
	private readonly records: unknown[] = [];
	readonly keptAll = true;

	constructor(
		private readonly redact: ValueRedactor,
		private readonly maxRecords: number = MAX_RECORDS_PER_ANSWER,
	) {}

	add(summary: Record<string, unknown> | undefined, bytes: () => Buffer): void {
		if (this.records.length === this.maxRecords) throw new AnswerLimitExceeded('records', this.maxRecords);
		this.records.push(readRecord(bytes(), summary, this.redact));
	}

	build(): unknown[] {
		return this.records;
	}
}
