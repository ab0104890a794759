import { toCursorEvent, type CursorEvent, type EventMode } from '../inquiries/cursor';
import type { ScannedRecord } from './inquiryBodyScan';

/** The inquiries of one answer: what the cursor needs of each, and the full record on demand. */
export interface InquiryList {
	readonly size: number;
	event(index: number, mode: EventMode): CursorEvent;
	record(index: number): unknown;
}

/** An answer that was parsed whole. */
export function listFromRecords(records: unknown[]): InquiryList {
	return {
		size: records.length,
		event: (index, mode) => toCursorEvent(records[index], mode),
		record: (index) => records[index],
	};
}

/**
 * An answer read by the scan: records stay bytes in the answer until asked
 * for. The summary gives the identity and times; a record without an _id or
 * requestId is identified by a hash of its content, so it is parsed for that.
 */
export class ScannedInquiryList implements InquiryList {
	constructor(
		private readonly body: Buffer,
		private readonly records: ScannedRecord[],
	) {}

	get size(): number {
		return this.records.length;
	}

	event(index: number, mode: EventMode): CursorEvent {
		const summary = this.records[index].summary;
		if (summary !== undefined) {
			const event = toCursorEvent(summary, mode);
			if (!event.key.startsWith('h:')) return event;
		}
		return toCursorEvent(this.record(index), mode);
	}

	record(index: number): unknown {
		const { start, end } = this.records[index];
		return JSON.parse(this.body.toString('utf8', start, end)) as unknown;
	}
}
