import type { IDataObject } from 'n8n-workflow';

import { InquiryStreamScanner, type ElementHandler } from './inquiryStreamScan';

/** What reading a successful inquiries answer as it arrives gave. */
export type StreamReading<List = unknown> =
	/** Read: the answer's fields, with `data` the list when the answer had one (also given as `list`). */
	| { kind: 'read'; body: IDataObject; list?: List }
	/** Not read by the scan, but every byte is here: read it whole. */
	| { kind: 'whole'; bytes: Buffer }
	/** The answer stopped in the middle, after records were already let go. */
	| { kind: 'cut-short' }
	/** An answer the scan does not read, after records were already let go: ask for it again and read it whole. */
	| { kind: 'ask-again' };

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
