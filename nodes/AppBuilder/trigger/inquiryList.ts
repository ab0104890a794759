import { AnswerLimitExceeded } from '../../shared/http/answerLimits';
import type { ValueRedactor } from '../../shared/text/redact';
import { MAX_RECORDS_PER_ANSWER, type RecordCollector } from '../inquiries/readInquiryStream';
import { isUnreadableInquiry, rawRecordKey, readRecord } from '../inquiries/unreadableInquiry';
import { toCursorEvent, type CursorEvent, type EventMode, type RecordsToKeep } from './cursor';
import { NewestListings } from './newestListings';

/** The inquiries of one answer: what the cursor needs of each, and the full record of those it may emit. */
export interface InquiryList {
	/** One per inquiry in the answer, in its order. */
	readonly events: readonly CursorEvent[];
	/**
	 * The record to emit for a key: of its listings, the one with the latest
	 * time (the last of equals), as the cursor reads a key listed twice. A
	 * record whose text is not JSON comes back as an UnreadableInquiry.
	 */
	recordOf(key: string): unknown;
}

/** An answer that was parsed whole. */
export function listFromRecords(records: unknown[], mode: EventMode): InquiryList {
	const chosen = new ChosenListings<unknown>();
	const events = records.map((record) => {
		const event = toCursorEvent(record, mode);
		chosen.offer(event, record);
		return event;
	});
	return { events, recordOf: (key) => chosen.get(key) };
}

/** A record's bytes copied out of the answer, with the fields the scan read of it. */
interface KeptRecord {
	bytes: Buffer;
	summary: Record<string, unknown> | undefined;
}

/**
 * Builds the trigger's list from a scanned answer, record by record as the
 * bytes arrive (see nodes/shared/jsonStream/README.md): every record gives its event; only
 * the records `keep` names keep their bytes, copied out of the answer so
 * the rest of it can be freed: those its predicate accepts, or the newest
 * few (an Emit the Latest first poll), let go as newer ones arrive. A
 * record is parsed only when it is emitted.
 */
export class InquiryListBuilder implements RecordCollector<InquiryList> {
	private readonly events: CursorEvent[] = [];
	private readonly kept: KeptRecords;

	constructor(
		private readonly mode: EventMode,
		keep: RecordsToKeep,
		/** Takes the credential's secrets out of a record before it is handed on (never out of what identity reads). */
		private readonly redact: ValueRedactor,
		private readonly maxRecords: number = MAX_RECORDS_PER_ANSWER,
	) {
		this.kept = typeof keep === 'function' ? new AcceptedRecords(keep) : new NewestRecords(keep.newest);
	}

	/** Whether every record so far kept its bytes (then nothing of the answer was let go). */
	get keptAll(): boolean {
		return this.kept.keptAll;
	}

	/** Takes one record as the scan hands it over (see ElementHandler in jsonStreamScanner.ts). */
	add(summary: Record<string, unknown> | undefined, bytes: () => Buffer): void {
		if (this.events.length === this.maxRecords) throw new AnswerLimitExceeded('records', this.maxRecords);
		let event = summary === undefined ? undefined : toCursorEvent(summary, this.mode);
		let recordBytes: Buffer | undefined;
		// Without an _id or requestId the identity is a hash of the submission: read it from the whole record.
		if (event === undefined || event.key.startsWith('h:')) {
			recordBytes = bytes();
			event = eventOfWholeRecord(recordBytes, summary, this.mode);
		}
		this.events.push(event);
		this.kept.offer(event, () => ({ bytes: Buffer.from(recordBytes ?? bytes()), summary }));
	}

	build(): InquiryList {
		const { events, kept, redact } = this;
		return {
			events,
			recordOf: (key) => {
				const record = kept.get(key);
				// The cursor only emits what was kept; anything else is a broken promise, not a lead to drop silently.
				if (record === undefined) throw new Error(`The inquiry ${key} was not kept from the answer`);
				return readRecord(record.bytes, record.summary, redact);
			},
		};
	}
}

/** The records whose bytes a builder holds; `copy` is called only for a record that is kept. */
interface KeptRecords {
	/** Whether no record offered so far was refused or let go. */
	readonly keptAll: boolean;
	offer(event: CursorEvent, copy: () => KeptRecord): void;
	get(key: string): KeptRecord | undefined;
}

/** Every record a predicate accepts, one per key as ChosenListings picks it. */
class AcceptedRecords implements KeptRecords {
	private readonly chosen = new ChosenListings<KeptRecord>();
	keptAll = true;

	constructor(private readonly accepts: (event: CursorEvent) => boolean) {}

	offer(event: CursorEvent, copy: () => KeptRecord): void {
		if (this.accepts(event)) this.chosen.offer(event, copy());
		else this.keptAll = false;
	}

	get(key: string): KeptRecord | undefined {
		return this.chosen.get(key);
	}
}

/** Only the newest `count` dated records, by the cursor's order: at most `count` held at any time. */
class NewestRecords implements KeptRecords {
	private readonly newest: NewestListings<KeptRecord>;
	private offered = 0;

	constructor(count: number) {
		this.newest = new NewestListings(count);
	}

	get keptAll(): boolean {
		// Each record kept counts once: fewer held than offered means one was refused or let go.
		return this.newest.size === this.offered;
	}

	offer(event: CursorEvent, copy: () => KeptRecord): void {
		this.offered++;
		this.newest.offer(event.key, event.time, copy);
	}

	get(key: string): KeptRecord | undefined {
		return this.newest.get(key);
	}
}

/**
 * The event of a record read whole. One whose text is not JSON keeps the
 * times the scan could read; its identity is then a hash of its bytes, the
 * same on every poll, so it is emitted once.
 */
function eventOfWholeRecord(bytes: Buffer, summary: Record<string, unknown> | undefined, mode: EventMode): CursorEvent {
	const record = readRecord(bytes, summary);
	if (!isUnreadableInquiry(record)) return toCursorEvent(record, mode);
	return { key: rawRecordKey(bytes), time: toCursorEvent(record, mode).time };
}

/** Per key, the listing with the latest time; undated ones count as older than any time. */
class ChosenListings<T> {
	private readonly byKey = new Map<string, { time: number | undefined; value: T }>();

	offer(event: CursorEvent, value: T): void {
		const current = this.byKey.get(event.key);
		const older = current !== undefined && current.time !== undefined && (event.time === undefined || event.time < current.time);
		if (!older) this.byKey.set(event.key, { time: event.time, value });
	}

	get(key: string): T | undefined {
		return this.byKey.get(key)?.value;
	}
}
