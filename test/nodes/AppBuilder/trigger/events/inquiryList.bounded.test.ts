import {
	InquiryListBuilder,
	type InquiryList,
	type KeepRule,
} from '../../../../../nodes/AppBuilder/trigger/events/inquiryList';
import { readInquiryStream } from '../../../../../nodes/AppBuilder/inquiries/readInquiryStream';
import type { ValueRedactor } from '../../../../../nodes/shared/text/redact';

/** These records hold no secret: nothing to take out. */
const keepAsIs: ValueRedactor = (value) => value;

const T0 = 1_700_000_000;
/** About 300 bytes a record, so a bound of a few KB holds a handful. */
const record = (id: string, addedon: number) =>
	JSON.stringify({ _id: id, addedon, note: 'x'.repeat(240) });

async function listOf(
	records: string[],
	keep: KeepRule,
	maxKeptBytes: number,
): Promise<InquiryList> {
	async function* chunks() {
		yield Buffer.from(`{"data":[${records.join(',')}]}`);
	}
	const reading = await readInquiryStream(
		chunks(),
		new InquiryListBuilder('new', keep, keepAsIs, undefined, maxKeptBytes),
	);
	if (reading.kind !== 'read' || reading.list === undefined)
		throw new Error(`not read: ${reading.kind}`);
	return reading.list;
}

const ids = (count: number) => Array.from({ length: count }, (_, i) => `r${i}`);
const answer = (count: number) => ids(count).map((id, i) => record(id, T0 + i));

describe('the records a poll keeps as the answer streams past', () => {
	it('are all held while they fit the bound: the list is complete', async () => {
		const list = await listOf(answer(5), { kind: 'matching', keeps: () => true }, 10_000);
		expect(list.complete).toBe(true);
		expect(list.events).toHaveLength(5);
		expect(list.recordOf('r4')).toMatchObject({ _id: 'r4' });
	});

	it('are let go, all of them, once they pass the bound: every event stays, and the list says it is not complete', async () => {
		const list = await listOf(answer(50), { kind: 'matching', keeps: () => true }, 10_000);
		expect(list.complete).toBe(false);
		expect(list.events.map((event) => event.key)).toEqual(ids(50));
		for (const key of ids(50)) expect(() => list.recordOf(key)).toThrow('was not kept');
	});

	it('count a key listed again once, at its latest listing', async () => {
		const again = [T0 + 1, T0 + 3, T0 + 2].map((addedon) => record('r1', addedon));
		// Three records' bytes fit; the four listings would not.
		const list = await listOf(
			[...again, record('r2', T0)],
			{ kind: 'matching', keeps: () => true },
			1800,
		);
		expect(list.complete).toBe(true);
		expect(list.recordOf('r1')).toMatchObject({ addedon: T0 + 3 });
		expect(list.recordOf('r2')).toMatchObject({ _id: 'r2' });
	});

	it('count only those the cursor may emit against the bound', async () => {
		const list = await listOf(
			answer(50),
			{ kind: 'matching', keeps: (event) => event.key === 'r7' || event.key === 'r8' },
			10_000,
		);
		expect(list.complete).toBe(true);
		expect(list.recordOf('r8')).toMatchObject({ _id: 'r8' });
	});
});

describe('the records of a plan, read again', () => {
	it("are the planned ones, in the plan's order, up to the bound: a prefix of the plan", async () => {
		const planned = [
			'r30',
			'r2',
			'r40',
			'r9',
			'r11',
			'r12',
			'r13',
			'r14',
			'r15',
			'r16',
			'r17',
			'r18',
			'r19',
			'r20',
			'r21',
			'r22',
			'r23',
			'r24',
			'r25',
			'r26',
			'r27',
		];
		const list = await listOf(answer(50), { kind: 'planned', keys: planned }, 3000);
		const held = planned.filter((key) => list.recordOf(key) !== undefined);
		expect(held.length).toBeGreaterThan(2);
		expect(held.length).toBeLessThan(planned.length);
		expect(held).toEqual(planned.slice(0, held.length));
		expect(list.recordOf('r0')).toBeUndefined();
	});

	it("say undefined for a planned inquiry the answer no longer lists, and keep a key's latest listing", async () => {
		const records = [
			record('r1', T0 + 1),
			record('r2', T0 + 5),
			record('r2', T0 + 9),
			record('r2', T0 + 7),
		];
		const list = await listOf(records, { kind: 'planned', keys: ['r2', 'gone', 'r1'] }, 1_000_000);
		expect(list.recordOf('gone')).toBeUndefined();
		expect(list.recordOf('r2')).toMatchObject({ addedon: T0 + 9 });
		expect(list.recordOf('r1')).toMatchObject({ _id: 'r1' });
	});
});
