import { cursorFrom } from '../../../../../nodes/AppBuilder/trigger/cursor/cursor';
import type { FormRecord } from '../../../../../nodes/AppBuilder/trigger/forms/formRecord';
import {
	boundedRecords,
	FORGET_AWAY_FORM_AFTER_MS,
	FORGET_AWAY_FORM_AFTER_POLLS,
	MAX_SMALL_CURSORS,
	MAX_WHOLE_CURSORS,
	SHRINK_AWAY_FORM_AFTER_MS,
	SHRINK_AWAY_FORM_AFTER_POLLS,
} from '../../../../../nodes/AppBuilder/trigger/plan/formsBound';
import { DAY } from '../../../../support/durations';

const T0 = Date.parse('2026-06-01T00:00:00Z');
const whole = (floor = T0): FormRecord => ({
	cursor: { floor: { time: floor, key: '' }, seen: { a: floor + 1, b: floor + 2 }, undated: 'x' },
});
const awayFor = (since: number, polls: number, floor = T0): FormRecord => ({
	...whole(floor),
	away: { since, polls },
});
const bound = (records: Record<string, FormRecord>, nowMs: number, others?: FormRecord) =>
	boundedRecords(new Map(Object.entries(records)), others, nowMs);

describe("the state's bound over forms", () => {
	it('keeps a form away whole until it is away both long and often enough, then a small cursor, then one that follows the clock', () => {
		const now = T0 + SHRINK_AWAY_FORM_AFTER_MS;
		const kept = bound(
			{
				recent: awayFor(T0 + 1, SHRINK_AWAY_FORM_AFTER_POLLS),
				few: awayFor(T0, SHRINK_AWAY_FORM_AFTER_POLLS - 1),
				both: awayFor(T0, SHRINK_AWAY_FORM_AFTER_POLLS),
			},
			now,
		).forms;
		expect(kept.get('recent')).toEqual(awayFor(T0 + 1, SHRINK_AWAY_FORM_AFTER_POLLS));
		expect(kept.get('few')).toEqual(awayFor(T0, SHRINK_AWAY_FORM_AFTER_POLLS - 1));
		expect(kept.get('both')?.undatedUnknown).toBe(true);
		expect(kept.get('both')?.cursor.undated).toBe('');

		const year = T0 + FORGET_AWAY_FORM_AFTER_MS;
		const forgotten = bound({ gone: awayFor(T0, FORGET_AWAY_FORM_AFTER_POLLS) }, year).forms.get(
			'gone',
		);
		expect(forgotten?.cursor.floor).toEqual({ time: year, key: '' });
	});

	it('a form listed past the forms read, or failing, is never made small for that alone', () => {
		const records: Record<string, FormRecord> = {};
		for (let index = 0; index < 1000; index++) records[`read${index}`] = whole();
		records.past = awayFor(T0, 1);
		const kept = bound(records, T0 + DAY).forms;
		expect(kept.get('past')).toEqual(awayFor(T0, 1));
	});

	it(`past ${MAX_WHOLE_CURSORS} records the longest away keep a small cursor, and past ${MAX_SMALL_CURSORS} more are dropped, lifting the others' floor`, () => {
		const records: Record<string, FormRecord> = {};
		const total = MAX_WHOLE_CURSORS + MAX_SMALL_CURSORS + 2;
		// The higher the index, the longer away; the longest away have the highest floors here, to see them lift.
		for (let index = 0; index < total; index++)
			records[`f${String(index).padStart(5, '0')}`] = awayFor(T0 - index, 1, T0 + index);
		const { forms, others } = bound(records, T0 + DAY, { cursor: cursorFrom(T0) });
		expect(forms.size).toBe(MAX_WHOLE_CURSORS + MAX_SMALL_CURSORS);
		const ranked = [...forms.keys()].sort();
		expect(forms.get(ranked[MAX_WHOLE_CURSORS - 1])?.cursor.undated).toBe('x');
		expect(forms.get(ranked[MAX_WHOLE_CURSORS])?.undatedUnknown).toBe(true);
		expect(forms.has(`f${String(total - 1).padStart(5, '0')}`)).toBe(false);
		expect(others?.cursor.floor).toEqual({ time: T0 + total - 1, key: '' });
	});
});
