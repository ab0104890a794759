import {
	cursorFrom,
	firstRead,
	type CursorOptions,
} from '../../../../../nodes/AppBuilder/trigger/cursor/cursor';
import {
	InquiryListBuilder,
	type InquiryList,
} from '../../../../../nodes/AppBuilder/trigger/events/inquiryList';
import {
	readInquiryStream,
	type RecordCollector,
} from '../../../../../nodes/AppBuilder/inquiries/readInquiryStream';
import type { ValueRedactor } from '../../../../../nodes/shared/text/redact';

/** These records hold no secret: nothing to take out. */
const keepAsIs: ValueRedactor = (value) => value;

const T0 = Date.parse('2026-05-01T08:00:00Z');
const LATEST = 3;
const OPTIONS: CursorOptions = {
	mode: 'new',
	maxItems: 500,
	nowMs: T0 + 30 * 24 * 60 * 60 * 1000,
};

/** An answer of `count` records one second apart, oldest first (the worst order for a bounded set), one chunk per record. */
async function* answerOf(count: number): AsyncGenerator<Buffer> {
	yield Buffer.from('{"status":200,"data":[');
	for (let i = 0; i < count; i++) {
		yield Buffer.from(
			`${i > 0 ? ',' : ''}${JSON.stringify({ _id: `lead-${String(i).padStart(3, '0')}`, addedon: (T0 + i * 1000) / 1000, name: `Lead ${i}` })}`,
		);
	}
	yield Buffer.from(']}');
}

describe('the trigger list on a first poll set to Send the Latest Leads', () => {
	it('holds the bytes of only the newest N as the answer streams, while every event stays for the cursor', async () => {
		const builder = new InquiryListBuilder('new', { kind: 'newest', count: LATEST }, keepAsIs);
		// Whether the builder still held every record, after each one.
		const keptAllAfter: boolean[] = [];
		const watched: RecordCollector<InquiryList> = {
			add: (summary, bytes) => {
				builder.add(summary, bytes);
				keptAllAfter.push(builder.keptAll);
			},
			get keptAll() {
				return builder.keptAll;
			},
			build: () => builder.build(),
		};
		const reading = await readInquiryStream(answerOf(100), watched);
		if (reading.kind !== 'read' || !reading.list) throw new Error(`not read: ${reading.kind}`);
		const list = reading.list;

		// The first N records are all kept; from the next one on, one is let go, so the answer's chunks can go too.
		expect(keptAllAfter.slice(0, 3)).toEqual([true, true, true]);
		expect(keptAllAfter.slice(3).every((keptAll) => !keptAll)).toBe(true);
		expect(list.events).toHaveLength(100);
		expect(list.events[0]).toEqual({ key: 'lead-000', time: T0 });

		const plan = firstRead(cursorFrom(OPTIONS.nowMs), list.events, OPTIONS, LATEST);
		expect(plan.toEmit.map((event) => event.key)).toEqual(['lead-097', 'lead-098', 'lead-099']);
		expect(plan.toEmit.map((event) => (list.recordOf(event.key) as { name: string }).name)).toEqual(
			['Lead 97', 'Lead 98', 'Lead 99'],
		);
		expect(() => list.recordOf('lead-096')).toThrow('was not kept');
		expect(() => list.recordOf('lead-000')).toThrow('was not kept');
	});
});
