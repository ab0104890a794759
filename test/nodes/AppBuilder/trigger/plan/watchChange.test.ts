import { cursorFrom } from '../../../../../nodes/AppBuilder/trigger/cursor/cursor';
import type { FormRecord } from '../../../../../nodes/AppBuilder/trigger/forms/formRecord';
import {
	watchChange,
	type FirstPoll,
} from '../../../../../nodes/AppBuilder/trigger/plan/watchChange';
import type {
	TriggerPosition,
	Watched,
} from '../../../../../nodes/AppBuilder/trigger/saved/position';
import { deepFreeze } from '../../../../support/deepFreeze';

// A change of Watch or Form as events on the records (the rule atop docs/trigger.md).

const T0 = Date.parse('2026-06-01T00:00:00Z');
/** A poll half a second into a second: the API dates to the second. */
const NOW = T0 + 3_600_500;
const ALL: Watched = { kind: 'all' };
const one = (pageId: string): Watched => ({ kind: 'one', pageId });
const NONE = { kind: 'none' } as FirstPoll;
const record = (floor: number, extra: Partial<FormRecord> = {}): FormRecord => ({
	cursor: cursorFrom(floor),
	...extra,
});
const position = (
	watch: Watched,
	forms: Record<string, FormRecord>,
	others?: FormRecord,
): TriggerPosition =>
	deepFreeze({ scope: 'app/new', watch, forms, ...(others ? { others } : {}), leftOver: [] });
const change = (saved: TriggerPosition | undefined, watch: Watched, firstPoll: FirstPoll = NONE) =>
	watchChange({ saved, watch, firstPoll, nowMs: NOW });

describe('a change of Watch or Form', () => {
	it("the trigger's first poll begins the watch at the start of its second: every form under All Forms, the one form under One Form", () => {
		const all = change(undefined, ALL);
		expect([all.begun, all.changes]).toEqual([false, true]);
		expect(all.others).toEqual(record(T0 + 3_600_000));
		expect(all.records.size).toBe(0);
		expect(all.startOf('any')).toEqual({ kind: 'latest', count: 0 });

		const single = change(undefined, one('a'), { kind: 'latest', count: 3 });
		expect(single.records.get('a')).toEqual(record(T0 + 3_600_000));
		expect(single.others).toBeUndefined();
		expect(single.startOf('a')).toEqual({ kind: 'latest', count: 3 });
	});

	it('Send Leads Since a Date begins the watch at Since, on the first poll only', () => {
		const since = change(undefined, ALL, { kind: 'since', sinceMs: T0 });
		expect(since.others).toEqual(record(T0));
		expect(since.startOf('a')).toEqual({ kind: 'since' });
		const later = change(position(one('a'), { a: record(T0) }), one('b'), {
			kind: 'since',
			sinceMs: T0,
		});
		expect(later.records.get('b')).toEqual(record(T0 + 3_600_000));
		expect(later.startOf('b')).toEqual({ kind: 'latest', count: 0 });
	});

	it('nothing changes while the settings ask what the position watches', () => {
		for (const [watch, saved] of [
			[ALL, position(ALL, { a: record(T0) }, record(T0))],
			[one('a'), position(one('a'), { a: record(T0) })],
		] as const) {
			const same = change(saved, watch);
			expect([same.begun, same.changes]).toEqual([true, false]);
			expect(Object.fromEntries(same.records)).toEqual(saved.forms);
			expect(same.others).toEqual(saved.others);
			expect(same.startOf('a')).toBeUndefined();
		}
	});

	it("All Forms -> One Form: the one form keeps its record, or takes the others'; every other form and the others are set aside from the next second", () => {
		const saved = position(ALL, { a: record(T0), b: record(T0) }, record(T0));
		const toA = change(saved, one('a'));
		expect([toA.begun, toA.changes]).toEqual([true, true]);
		expect(toA.records.get('a')).toEqual(record(T0));
		expect(toA.records.get('b')).toEqual(record(T0, { outSince: T0 + 3_601_000 }));
		expect(toA.others).toEqual(record(T0, { outSince: T0 + 3_601_000 }));

		const toNew = change(saved, one('c'));
		expect(toNew.records.get('c')).toEqual(record(T0));
		expect(toNew.startOf('c')).toBeUndefined();
	});

	it('One Form -> All Forms: forms set aside come back, the stretch out ended at the start of the second; never watched, the others begin now', () => {
		const out = T0 + 1000;
		const back = change(
			position(
				one('a'),
				{ a: record(T0), b: record(T0, { outSince: out }) },
				record(T0, { outSince: out }),
			),
			ALL,
		);
		expect([back.begun, back.changes]).toEqual([false, true]);
		expect(back.records.get('a')).toEqual(record(T0));
		expect(back.records.get('b')).toEqual(record(T0, { out: [[out, T0 + 3_600_000]] }));
		expect(back.others).toEqual(record(T0, { out: [[out, T0 + 3_600_000]] }));
		expect(back.startOf('c')).toBeUndefined();

		const fresh = change(position(one('a'), { a: record(T0) }), ALL);
		expect(fresh.others).toEqual(record(T0 + 3_600_000));
		expect(fresh.startOf('c')).toEqual({ kind: 'latest', count: 0 });
		expect(fresh.startOf('a')).toBeUndefined();
	});

	it("One Form -> another: the first is set aside; the other comes back, takes the others' record back, or begins", () => {
		const out = T0 + 1000;
		const saved = position(
			one('a'),
			{ a: record(T0), b: record(T0, { outSince: out }) },
			record(T0, { outSince: out }),
		);
		const toB = change(saved, one('b'));
		expect([toB.begun, toB.changes]).toEqual([false, true]);
		expect(toB.records.get('a')).toEqual(record(T0, { outSince: T0 + 3_601_000 }));
		expect(toB.records.get('b')).toEqual(record(T0, { out: [[out, T0 + 3_600_000]] }));
		expect(change(saved, one('c')).records.get('c')).toEqual(
			record(T0, { out: [[out, T0 + 3_600_000]] }),
		);

		const never = change(position(one('a'), { a: record(T0) }), one('c'));
		expect(never.records.get('c')).toEqual(record(T0 + 3_600_000));
		expect(never.startOf('c')).toEqual({ kind: 'latest', count: 0 });
	});
});
