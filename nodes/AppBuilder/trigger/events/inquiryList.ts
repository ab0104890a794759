import { AnswerLimitExceeded } from '../../../shared/http/answerLimits';
import type { ValueRedactor } from '../../../shared/text/redact';
import { MAX_RECORDS_PER_ANSWER, type RecordCollector } from '../../inquiries/readInquiryStream';
import { isUnreadableInquiry, rawRecordKey, readRecord } from '../../inquiries/unreadableInquiry';
import { inquiryEvent, type InquiryEvent, type EventMode } from './inquiryEvent';
import { LatestListings, NewestListings, replacesListing } from './latestListings';

/** Most bytes of records a poll keeps as the answer streams past; past it, the answer is read again (fetchInquiryList.ts). */
export const MAX_KEPT_RECORD_BYTES = 64 * 1024 * 1024;
/** What holding a record's bytes costs beyond them (the buffer, its summary, the map entry). */
const KEPT_RECORD_OVERHEAD_BYTES = 256;

/** The inquiries of one answer: what the cursor needs of each, and the full record of those it may emit. */
export interface InquiryList {
	/** One per inquiry in the answer, in its order. */
	readonly events: readonly InquiryEvent[];
	/** Whether every record the cursor may emit was kept; when not, recordOf has none of them. */
	readonly complete: boolean;
	/** A key's latest listing (an UnreadableInquiry if not JSON); throws if not kept, undefined if gone on a read again. */
	recordOf(key: string): unknown;
}

/** An answer that was parsed whole. */
export function listFromRecords(records: unknown[], mode: EventMode): InquiryList {
	const chosen = new LatestListings<unknown>();
	const events = records.map((record) => {
		const event = inquiryEvent(record, mode);
		chosen.offer(event, record);
		return event;
	});
	return { events, complete: true, recordOf: (key) => chosen.get(key) };
}

/** The records whose bytes a reader keeps: those the cursor could emit, or a first read's newest `count`. */
export type RecordsToKeep =
	| { kind: 'matching'; keeps: (event: InquiryEvent) => boolean }
	| { kind: 'newest'; count: number }
	/** The one latest listing (replacesListing): Fetch Test Event's. */
	| { kind: 'latest' };

/** What the cursor names, or, reading an answer again, the records a poll plans to emit, in its order. */
export type KeepRule = RecordsToKeep | { kind: 'planned'; keys: readonly string[] };

/** A record's bytes copied out of the answer, with the fields the scan read of it. */
interface KeptRecord {
	bytes: Buffer;
	summary: Record<string, unknown> | undefined;
}

/** The list built as the answer streams past: every record gives its event, only those `keep` names keep their bytes. */
export class InquiryListBuilder implements RecordCollector<InquiryList> {
	private readonly events: InquiryEvent[] = [];
	private readonly kept: KeptRecords;
	/** Reading an answer again: a planned record may be gone from it. */
	private readonly readAgain: boolean;

	constructor(
		private readonly mode: EventMode,
		keep: KeepRule,
		/** Takes the credential's secrets out of a record before it is handed on (never out of what identity reads). */
		private readonly redact: ValueRedactor,
		private readonly maxRecords: number = MAX_RECORDS_PER_ANSWER,
		maxKeptBytes: number = MAX_KEPT_RECORD_BYTES,
	) {
		if (keep.kind === 'matching')
			this.kept = new RankedRecords((event) => (keep.keeps(event) ? 0 : undefined), maxKeptBytes);
		else if (keep.kind === 'planned') {
			const rankOf = new Map(keep.keys.map((key, rank) => [key, rank]));
			this.kept = new RankedRecords((event) => rankOf.get(event.key), maxKeptBytes);
		} else if (keep.kind === 'latest') this.kept = new LatestRecord();
		else this.kept = new NewestRecords(keep.count);
		this.readAgain = keep.kind === 'planned';
	}

	/** Whether every record so far kept its bytes (then nothing of the answer was let go). */
	get keptAll(): boolean {
		return this.kept.keptAll;
	}

	/** Takes one record as the scan hands it over (see ElementHandler in jsonStreamScanner.ts). */
	add(summary: Record<string, unknown> | undefined, bytes: () => Buffer): void {
		if (this.events.length === this.maxRecords)
			throw new AnswerLimitExceeded('records', this.maxRecords);
		let event = summary === undefined ? undefined : inquiryEvent(summary, this.mode);
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
		const recordOf = (key: string) => {
			const record = kept.get(key);
			if (record !== undefined) return readRecord(record.bytes, record.summary, redact);
			// Read again, a planned record may be gone from the answer or past the bound: the poll emits up to it.
			if (this.readAgain) return undefined;
			// The cursor only emits what was kept; anything else is a broken promise, not a lead to drop silently.
			throw new Error(`The inquiry ${key} was not kept from the answer`);
		};
		return { events, complete: kept.complete, recordOf };
	}
}

/** The records whose bytes a builder holds; `copy` is called only for a record that is kept. */
interface KeptRecords {
	/** Whether no record offered so far was refused or let go. */
	readonly keptAll: boolean;
	/** Whether every record the caller asked to keep is held. */
	readonly complete: boolean;
	offer(event: InquiryEvent, copy: () => KeptRecord): void;
	get(key: string): KeptRecord | undefined;
}

/** Only the newest `count` dated records, by the cursor's order: at most `count` held at any time. */
class NewestRecords implements KeptRecords {
	private readonly newest: NewestListings<KeptRecord>;
	private offered = 0;
	/** At most `count` held, so never too many. */
	readonly complete = true;

	constructor(count: number) {
		this.newest = new NewestListings(count);
	}

	get keptAll(): boolean {
		// Each record kept counts once: fewer held than offered means one was refused or let go.
		return this.newest.size === this.offered;
	}

	offer(event: InquiryEvent, copy: () => KeptRecord): void {
		this.offered++;
		this.newest.offer(event.key, event.time, copy);
	}

	get(key: string): KeptRecord | undefined {
		return this.newest.get(key);
	}
}

/** The latest listing alone, as replacesListing picks it (a dated one before any undated). */
class LatestRecord implements KeptRecords {
	private latest: { key: string; time: number | undefined; record: KeptRecord } | undefined;
	private offered = 0;
	readonly complete = true;

	get keptAll(): boolean {
		return this.offered <= 1;
	}

	offer({ key, time }: InquiryEvent, copy: () => KeptRecord): void {
		this.offered++;
		if (this.latest === undefined || replacesListing(this.latest.time, time))
			this.latest = { key, time, record: copy() };
	}

	get(key: string): KeptRecord | undefined {
		return this.latest?.key === key ? this.latest.record : undefined;
	}
}

/**
 * The records `rankOf` ranks, one per key as LatestListings picks it, up to `maxBytes`: past it the last
 * rank goes, and none of it or after is held again. So a prefix of a plan is held, in its order; of the
 * records the cursor may emit (all of one rank), none, and the answer is read again.
 */
class RankedRecords implements KeptRecords {
	private readonly held = new Map<
		string,
		{ record: KeptRecord; time: number | undefined; size: number; rank: number }
	>();
	private bytes = 0;
	/** The best rank let go so far: nothing from there on is held any more. */
	private cutoff = Number.POSITIVE_INFINITY;
	keptAll = true;
	complete = true;

	constructor(
		private readonly rankOf: (event: InquiryEvent) => number | undefined,
		private readonly maxBytes: number,
	) {}

	offer(event: InquiryEvent, copy: () => KeptRecord): void {
		const rank = this.rankOf(event);
		if (rank === undefined || rank >= this.cutoff) {
			this.keptAll = false;
			return;
		}
		const current = this.held.get(event.key);
		if (current !== undefined && !replacesListing(current.time, event.time)) return;
		const record = copy();
		const size = record.bytes.length + KEPT_RECORD_OVERHEAD_BYTES;
		this.bytes += size - (current?.size ?? 0);
		this.held.set(event.key, { record, time: event.time, size, rank });
		if (this.bytes > this.maxBytes) this.letGoLast();
	}

	get(key: string): KeptRecord | undefined {
		return this.held.get(key)?.record;
	}

	/** Lets go of the last rank held, and as many ranks before it as the bound needs. */
	private letGoLast(): void {
		while (this.bytes > this.maxBytes) {
			let last = Number.NEGATIVE_INFINITY;
			for (const { rank } of this.held.values()) last = Math.max(last, rank);
			for (const [key, { size, rank }] of this.held)
				if (rank >= last) {
					this.held.delete(key);
					this.bytes -= size;
				}
			this.cutoff = Math.min(this.cutoff, last);
		}
		this.keptAll = false;
		this.complete = false;
	}
}

/** The event of a record read whole; one that is not JSON is known by a hash of its bytes, so emitted once. */
function eventOfWholeRecord(
	bytes: Buffer,
	summary: Record<string, unknown> | undefined,
	mode: EventMode,
): InquiryEvent {
	const record = readRecord(bytes, summary);
	if (!isUnreadableInquiry(record)) return inquiryEvent(record, mode);
	return { key: rawRecordKey(bytes), time: inquiryEvent(record, mode).time };
}
