import {
	cursorFrom,
	type CursorState,
} from '../../../../../nodes/AppBuilder/trigger/cursor/cursor';
import {
	applyEvent,
	applyEvents,
	SMALL_CURSOR_KEYS,
	type FormEvent,
} from '../../../../../nodes/AppBuilder/trigger/forms/formEvents';
import {
	formRecordProblem,
	MAX_OUT_STRETCHES,
	type FormRecord,
} from '../../../../../nodes/AppBuilder/trigger/forms/formRecord';
import { nextRhythm } from '../../../../../nodes/AppBuilder/trigger/quiet/formRhythm';
import { deepFreeze } from '../../../../support/deepFreeze';
import { DAY, HOUR } from '../../../../support/durations';

// The table of what changes a form's record (docs/trigger-internals.md, "A form's record"), event by event.

const T0 = Date.parse('2026-06-01T00:00:00Z');
const cursor = (floor: number, seen: Record<string, number> = {}): CursorState => ({
	floor: { time: floor, key: '' },
	seen,
	undated: '',
});
const RHYTHM = nextRhythm(undefined, { arrivals: 0, times: [T0 - HOUR] }, T0, {
	timeZone: 'UTC',
	unwatched: [],
});
/** A record with something in every field. */
const FULL: FormRecord = deepFreeze({
	cursor: cursor(T0, { a: T0 + 1 }),
	out: [[T0 - 2 * HOUR, T0 - HOUR]],
	away: { since: T0 - HOUR, polls: 3 },
	undatedUnknown: true,
	quiet: RHYTHM,
});
/** The record without one of its fields. */
const without = (record: FormRecord, field: keyof FormRecord): FormRecord =>
	Object.fromEntries(Object.entries(record).filter(([name]) => name !== field)) as FormRecord;
const apply = (record: FormRecord, event: FormEvent) => {
	const after = applyEvent(deepFreeze(record), deepFreeze(event));
	expect(formRecordProblem(JSON.parse(JSON.stringify(after)))).toBeUndefined();
	return after;
};

describe("a form's record, event by event", () => {
	it('watchBegins: a record from that moment on, nothing handled after it', () => {
		expect(applyEvent(undefined, { kind: 'watchBegins', at: T0 })).toEqual({
			cursor: cursorFrom(T0),
		});
	});

	it('readSucceeded: the committed cursor and rhythm; no longer away, its undated inquiries known; stretches the floor passed go', () => {
		const read = cursor(T0 - HOUR + 1, { b: T0 + 2 });
		expect(apply(FULL, { kind: 'readSucceeded', cursor: read, quiet: RHYTHM })).toEqual({
			cursor: read,
			quiet: RHYTHM,
		});
		// A stretch ending after the floor stays: leads dated in it are never emitted.
		const early = cursor(T0 - 2 * HOUR);
		expect(apply(FULL, { kind: 'readSucceeded', cursor: early, quiet: undefined })).toEqual({
			cursor: early,
			out: FULL.out,
		});
	});

	it('readFailed and notReached: waits with everything kept, no longer counted away (it is among the forms read)', () => {
		const kept = without(FULL, 'away');
		expect(apply(FULL, { kind: 'readFailed' })).toEqual(kept);
		expect(apply(FULL, { kind: 'notReached' })).toEqual(kept);
	});

	it('leftList, pastReadLimit and outOfSettings: the whole record kept, one more poll away since the first', () => {
		for (const kind of ['leftList', 'pastReadLimit', 'outOfSettings'] as const) {
			expect(apply(FULL, { kind, at: T0 })).toEqual({
				...FULL,
				away: { since: T0 - HOUR, polls: 4 },
			});
			expect(apply(without(FULL, 'away'), { kind, at: T0 }).away).toEqual({ since: T0, polls: 1 });
		}
	});

	it('leftSettings opens a stretch out, once; cameBack ends it, and a record never out comes back unchanged', () => {
		const left = apply(FULL, { kind: 'leftSettings', at: T0 });
		expect(left).toEqual({ ...FULL, outSince: T0 });
		expect(apply(left, { kind: 'leftSettings', at: T0 + HOUR })).toEqual(left);
		const back = without({ ...left, out: [...(FULL.out ?? []), [T0, T0 + HOUR]] }, 'outSince');
		expect(apply(left, { kind: 'cameBack', at: T0 + HOUR })).toEqual(back);
		expect(apply(FULL, { kind: 'cameBack', at: T0 })).toEqual(FULL);
		// A clock set back: an empty stretch, never one that ends before it starts.
		expect(apply(left, { kind: 'cameBack', at: T0 - HOUR }).out?.at(-1)).toEqual([T0, T0]);
	});

	it(`keeps at most ${MAX_OUT_STRETCHES} stretches: past them the two oldest join`, () => {
		let record: FormRecord = { cursor: cursorFrom(0) };
		for (let index = 0; index <= MAX_OUT_STRETCHES; index++) {
			record = apply(record, { kind: 'leftSettings', at: index * 10 });
			record = apply(record, { kind: 'cameBack', at: index * 10 + 5 });
		}
		expect(record.out).toHaveLength(MAX_OUT_STRETCHES);
		expect(record.out?.[0]).toEqual([0, 15]);
		expect(record.out?.at(-1)).toEqual([MAX_OUT_STRETCHES * 10, MAX_OUT_STRETCHES * 10 + 5]);
	});

	it(`shrunk: its newest ${SMALL_CURSOR_KEYS} keys, the floor no later than when it left, its undated inquiries unknown`, () => {
		const seen = Object.fromEntries(
			Array.from({ length: 30 }, (_, index) => [`k${index}`, T0 + index * 1000]),
		);
		const away = { since: T0 + 5 * DAY, polls: 2000 };
		const small = apply({ cursor: cursor(T0 - 1, seen), away }, { kind: 'shrunk' });
		expect(Object.keys(small.cursor.seen)).toEqual(
			Array.from({ length: 10 }, (_, index) => `k${index + 20}`),
		);
		expect(small.undatedUnknown).toBe(true);
		// Left before its newest lead's lookback: the floor stays below that lead.
		const early = apply(
			{ cursor: cursor(T0 - 1, { a: T0 + DAY }), away: { since: T0, polls: 1 } },
			{ kind: 'shrunk' },
		);
		expect(early.cursor.floor.time).toBeLessThanOrEqual(T0);
		expect(early.cursor.seen).toEqual({ a: T0 + DAY });
	});

	it('forgotten: a floor that follows the clock, and the keys dated ahead it emitted', () => {
		const forgotten = apply(
			{
				cursor: cursor(T0, { old: T0 + 1, ahead: T0 + 400 * DAY }),
				away: { since: T0, polls: 10_000 },
			},
			{ kind: 'forgotten', at: T0 + 366 * DAY },
		);
		expect(forgotten.cursor.floor).toEqual({ time: T0 + 366 * DAY, key: '' });
		expect(forgotten.cursor.seen).toEqual({ ahead: T0 + 400 * DAY });
	});

	it('quietReported: the rhythm that records the reported spell', () => {
		expect(apply(FULL, { kind: 'quietReported', quiet: RHYTHM })).toEqual(FULL);
	});

	it("formDropped: the others' record's floor rises to the dropped form's, never down", () => {
		const others = { cursor: cursorFrom(T0) };
		expect(
			apply(others, { kind: 'formDropped', floor: { time: T0 + DAY, key: '' } }).cursor.floor,
		).toEqual({
			time: T0 + DAY,
			key: '',
		});
		expect(apply(others, { kind: 'formDropped', floor: { time: T0 - DAY, key: '' } })).toEqual(
			others,
		);
	});

	it('applies events in order, changing no record it is given', () => {
		const after = applyEvents(FULL, [
			{ kind: 'leftSettings', at: T0 },
			{ kind: 'outOfSettings', at: T0 },
			{ kind: 'cameBack', at: T0 + HOUR },
		]);
		expect(after?.out).toEqual([...(FULL.out ?? []), [T0, T0 + HOUR]]);
		expect(after?.away).toEqual({ since: T0 - HOUR, polls: 4 });
		expect(applyEvents(undefined, [])).toBeUndefined();
	});
});
