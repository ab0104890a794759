import {
	commitPoll,
	DEFAULT_LOOKBACK_MS,
	DEFAULT_MAX_TRACKED,
	cursorStateProblem,
	cursorFrom,
	firstRead,
	stepCursor,
	recordsToKeep,
	type CursorOptions,
	type CursorState,
} from '../../../../../nodes/AppBuilder/trigger/cursor/cursor';
import {
	inquiryEvent,
	type InquiryEvent,
} from '../../../../../nodes/AppBuilder/trigger/events/inquiryEvent';
import {
	DEFAULT_CELLS_PER_SUBTABLE,
	SUBTABLES,
} from '../../../../../nodes/AppBuilder/trigger/cursor/keySetTable';
import { deepFreeze } from '../../../../support/deepFreeze';
import { storedCursor } from '../../../../support/storedCursor';
import { HOUR } from '../../../../support/durations';

const T0 = Date.parse('2026-06-01T00:00:00Z');

const options = (overrides: Partial<CursorOptions> = {}): CursorOptions => ({
	mode: 'new',
	maxItems: 1000,
	nowMs: T0 + 1000 * HOUR,
	...overrides,
});

const ev = (key: string, time: number | undefined): InquiryEvent => ({ key, time });
const keys = (events: InquiryEvent[]) => events.map((event) => event.key);

/** Static data is JSON between polls; the trigger reads it back through parseCursorState. */
const stored = (state: CursorState): CursorState =>
	storedCursor(JSON.parse(JSON.stringify(state))) as CursorState;

/** A watch begun before every event of these tests: the floor a first read starts from. */
const WATCH_BEGAN = cursorFrom(0);

/**
 * One full poll on frozen inputs: plan (a first read, emitting the newest
 * `latest`, when there is no state yet), emit everything planned, commit onto
 * the plan's baseline, store.
 */
function poll(
	state: CursorState | undefined,
	events: InquiryEvent[],
	opts: CursorOptions = options(),
	latest = 0,
) {
	const plan =
		state === undefined
			? firstRead(WATCH_BEGAN, deepFreeze([...events]), opts, latest)
			: stepCursor(deepFreeze(state), deepFreeze([...events]), opts);
	const next = commitPoll(deepFreeze(plan), plan.toEmit, opts);
	return { emitted: keys(plan.toEmit), state: stored(next), plan };
}

/** A state that has taken `events` as handled on a first poll. */
const baselineOf = (events: InquiryEvent[], opts: CursorOptions = options()) =>
	poll(undefined, events, opts).state;

describe('first poll', () => {
	it('takes what exists as handled, then emits new events oldest first from unsorted input', () => {
		const first = poll(undefined, [ev('a', T0), ev('b', T0 + 1)]);
		expect(first.emitted).toEqual([]);
		const second = poll(first.state, [
			ev('c', T0 + 20),
			ev('a', T0),
			ev('e', T0 + 10),
			ev('b', T0 + 1),
			ev('d', T0 + 10),
		]);
		expect(second.emitted).toEqual(['d', 'e', 'c']);
		expect(
			poll(second.state, [ev('c', T0 + 20), ev('d', T0 + 10), ev('e', T0 + 10)]).emitted,
		).toEqual([]);
	});

	it('emits the newest `count` when asked, oldest first, and never again', () => {
		const events = [5, 9, 1, 7, 3, 8, 0, 2, 6, 4].map((i) => ev(`k${i}`, T0 + i));
		const first = poll(undefined, events, options(), 3);
		expect(first.emitted).toEqual(['k7', 'k8', 'k9']);
		expect(poll(first.state, events).emitted).toEqual([]);
	});

	it('spreads the newest `count` over polls when maxItems is smaller', () => {
		const events = Array.from({ length: 80 }, (_, i) =>
			ev(`k${String(i).padStart(2, '0')}`, T0 + i),
		);
		const opts = options({ maxItems: 2 });
		const first = poll(undefined, events, opts, 5);
		expect(first.emitted).toEqual(['k75', 'k76']);
		const second = poll(first.state, events, opts);
		const third = poll(second.state, events, opts);
		expect([...second.emitted, ...third.emitted]).toEqual(['k77', 'k78', 'k79']);
		expect(poll(third.state, events, opts).emitted).toEqual([]);
	});

	it('rejects a saved cursor it does not understand', () => {
		const state = baselineOf([ev('a', T0)]);
		expect(cursorStateProblem(state)).toBeUndefined();
		for (const junk of [
			'junk',
			null,
			{ ...state, floor: null },
			{ ...state, floor: T0 },
			{ ...state, floor: { time: T0 } },
			{ ...state, floor: { time: 'soon', key: '' } },
			{ ...state, seen: [] },
			{ ...state, seen: { a: 'soon' } },
			{ ...state, undated: [1] },
			{ ...state, undated: ['u1'] },
			{ ...state, undated: 'not base64!' },
			{ ...state, undated: 'AAAA' },
		]) {
			expect(storedCursor(junk)).toBeUndefined();
		}
	});
});

describe('ties', () => {
	it('emits every event of a timestamp tie once, even when the tie spans polls', () => {
		let state = baselineOf([ev('seed', T0)]);
		const emitted: string[] = [];
		const present = [ev('seed', T0)];
		for (let round = 0; round < 5; round++) {
			for (let i = 0; i < 3; i++) present.push(ev(`t${round}${i}`, T0 + 5));
			const next = poll(state, present, options({ maxTracked: 2 }));
			emitted.push(...next.emitted);
			state = next.state;
		}
		expect(emitted.sort()).toEqual(
			present
				.slice(1)
				.map((e) => e.key)
				.sort(),
		);
	});

	it('prunes by count to exactly maxTracked, with the floor at the newest event dropped', () => {
		const opts = options({ maxTracked: 3 });
		let state = baselineOf([], opts);
		state = poll(
			state,
			[ev('a', T0 + 10), ev('b', T0 + 20), ev('c', T0 + 30), ev('d', T0 + 30), ev('e', T0 + 40)],
			opts,
		).state;
		// a and b do not fit beside c, d, e; the floor is b's position: b and all before it are handled.
		expect(state.floor).toEqual({ time: T0 + 20, key: 'b' });
		expect(Object.keys(state.seen).sort()).toEqual(['c', 'd', 'e']);
		// A late arrival after b (by time, then key) has at most 3 emitted after it, and is emitted.
		expect(poll(state, [ev('late', T0 + 25)], opts).emitted).toEqual(['late']);
		expect(poll(state, [ev('bb-late', T0 + 20)], opts).emitted).toEqual(['bb-late']);
		expect(poll(state, [ev('a-too-late', T0 + 20)], opts).emitted).toEqual([]);
	});

	it('cuts inside a group that shares one time, so even a crowd at one time stays within maxTracked', () => {
		const opts = options({ maxTracked: 3 });
		const crowd = Array.from({ length: 7 }, (_, i) => ev(`crowd${i}`, T0 + 50));
		const { state } = poll(baselineOf([], opts), [ev('older', T0 + 40), ...crowd], opts);
		expect(Object.keys(state.seen).sort()).toEqual(['crowd4', 'crowd5', 'crowd6']);
		expect(state.floor).toEqual({ time: T0 + 50, key: 'crowd3' });
		expect(poll(state, [...crowd, ev('crowd7', T0 + 50)], opts).emitted).toEqual(['crowd7']);
		// A first poll over 5,000 inquiries of one second keeps 1,000.
		const imported = Array.from({ length: 5000 }, (_, i) =>
			ev(`imported${String(i).padStart(4, '0')}`, T0),
		);
		const first = baselineOf(imported);
		expect(Object.keys(first.seen)).toHaveLength(DEFAULT_MAX_TRACKED);
		expect(poll(first, imported).emitted).toEqual([]);
	});
});

describe('late arrivals', () => {
	it('emits a late arrival inside the lookback and, as documented, not one outside it', () => {
		let state = baselineOf([ev('seed', T0)]);
		state = poll(state, [ev('new', T0 + 30 * HOUR)]).state;
		expect(poll(state, [ev('late', T0 + 30 * HOUR - 23 * HOUR)]).emitted).toEqual(['late']);
		expect(poll(state, [ev('edge', T0 + 30 * HOUR - DEFAULT_LOOKBACK_MS)]).emitted).toEqual([
			'edge',
		]);
		expect(poll(state, [ev('too-late', T0 + 30 * HOUR - DEFAULT_LOOKBACK_MS - 1)]).emitted).toEqual(
			[],
		);
	});

	it('as documented, misses a late arrival within the lookback when more than maxTracked newer ones were emitted', () => {
		const opts = options({ maxTracked: 3 });
		const newer = [1, 2, 3].map((i) => ev(`n${i}`, T0 + 10 * i));
		const withThree = poll(baselineOf([], opts), newer, opts).state;
		expect(poll(withThree, [...newer, ev('late', T0 + 5)], opts).emitted).toEqual(['late']);

		const withFour = poll(withThree, [...newer, ev('n4', T0 + 40)], opts).state;
		expect(poll(withFour, [...newer, ev('n4', T0 + 40), ev('late', T0 + 5)], opts).emitted).toEqual(
			[],
		);
		// In order is always caught, whatever the bound.
		expect(poll(withFour, [ev('next', T0 + 40)], opts).emitted).toEqual(['next']);
	});

	it('does not let one record dated far in the future hide the next leads', () => {
		let state = baselineOf([ev('seed', T0)], options({ nowMs: T0 }));
		state = poll(state, [ev('future', T0 + 5000 * HOUR)], options({ nowMs: T0 + HOUR })).state;
		expect(
			poll(state, [ev('normal', T0 + 2 * HOUR)], options({ nowMs: T0 + 2 * HOUR })).emitted,
		).toEqual(['normal']);
	});
});

describe('one response', () => {
	it('reads a key listed twice by its newest time, and as dated when only one listing has a time', () => {
		const state = baselineOf([]);
		const plan = stepCursor(
			state,
			[
				ev('a', T0 + 5),
				ev('a', T0 + 9),
				ev('a', T0 + 1),
				ev('b', undefined),
				ev('b', T0 + 3),
				ev('b', undefined),
			],
			options(),
		);
		expect(plan.toEmit).toEqual([ev('b', T0 + 3), ev('a', T0 + 9)]);
	});

	it('puts undated inquiries after the dated ones, and maxItems counts them too', () => {
		const state = baselineOf([]);
		const events = [
			ev('u2', undefined),
			ev('late', T0 + 9),
			ev('u1', undefined),
			ev('early', T0 + 1),
		];
		expect(keys(stepCursor(state, events, options()).toEmit)).toEqual([
			'early',
			'late',
			'u1',
			'u2',
		]);
		expect(keys(stepCursor(state, events, options({ maxItems: 3 })).toEmit)).toEqual([
			'early',
			'late',
			'u1',
		]);
	});
});

describe('deletions, backlog and partial commits', () => {
	it('is not thrown by deletions between polls', () => {
		let state = baselineOf([ev('a', T0), ev('b', T0 + 1)]);
		const second = poll(state, [ev('b', T0 + 1), ev('c', T0 + 2), ev('d', T0 + 3)]);
		expect(second.emitted).toEqual(['c', 'd']);
		state = second.state;
		// a and c deleted, e new: nothing comes back, nothing is skipped.
		const third = poll(state, [ev('b', T0 + 1), ev('d', T0 + 3), ev('e', T0 + 3)]);
		expect(third.emitted).toEqual(['e']);
		expect(poll(third.state, [ev('d', T0 + 3), ev('e', T0 + 3), ev('c', T0 + 2)]).emitted).toEqual(
			[],
		);
	});

	it('spreads a backlog over polls oldest first and loses nothing, even with partial commits and failed polls', () => {
		let state = baselineOf([]);
		const events = [3, 9, 0, 7, 1, 8, 2, 6, 4, 5].map((i) => ev(`k${i}`, T0 + i));
		const opts = options({ maxItems: 4, maxTracked: 2 });
		const plan = stepCursor(state, events, opts);
		expect(keys(plan.toEmit)).toEqual(['k0', 'k1', 'k2', 'k3']);
		// The caller ran out of time after two; the next poll fails and saves nothing.
		state = stored(commitPoll(plan, plan.toEmit.slice(0, 2), opts));
		const rest: string[] = [];
		for (let i = 0; i < 3; i++) {
			const next = poll(state, events, opts);
			rest.push(...next.emitted);
			state = next.state;
		}
		expect(rest).toEqual(['k2', 'k3', 'k4', 'k5', 'k6', 'k7', 'k8', 'k9']);
	});
});

describe('newOrUpdated', () => {
	const opts = options({ mode: 'newOrUpdated' });

	it('re-emits when an inquiry changes, once per change; mode new does not', () => {
		let state = baselineOf([ev('a', T0)], opts);
		const updated = poll(state, [ev('a', T0 + 50)], opts);
		expect(updated.emitted).toEqual(['a']);
		state = updated.state;
		expect(poll(state, [ev('a', T0 + 50)], opts).emitted).toEqual([]);
		expect(poll(state, [ev('a', T0 + 60)], opts).emitted).toEqual(['a']);
		expect(poll(state, [ev('a', T0 + 40)], opts).emitted).toEqual([]);

		const newOnly = baselineOf([ev('a', T0)]);
		expect(poll(newOnly, [ev('a', T0 + 50)]).emitted).toEqual([]);
	});

	it('derives events from records: addedon for new, the later of addedon and updatedon for newOrUpdated', () => {
		const s = T0 / 1000; // seconds, as the API may send them
		expect(
			inquiryEvent({ _id: 'x', addedon: s + 100, updatedon: s + 200 }, 'newOrUpdated'),
		).toEqual({ key: 'x', time: T0 + 200_000 });
		expect(
			inquiryEvent({ _id: 'x', addedon: s + 300, updatedon: s + 200 }, 'newOrUpdated'),
		).toEqual({ key: 'x', time: T0 + 300_000 });
		expect(inquiryEvent({ _id: 'x', updatedon: String(s + 200) }, 'newOrUpdated')).toEqual({
			key: 'x',
			time: T0 + 200_000,
		});
		expect(inquiryEvent({ _id: 'x', addedon: s + 100, updatedon: s + 200 }, 'new')).toEqual({
			key: 'x',
			time: T0 + 100_000,
		});
		expect(inquiryEvent({ _id: 'x', updatedon: s + 200 }, 'new')).toEqual({
			key: 'x',
			time: undefined,
		});
		expect(inquiryEvent({ requestId: 'R', addedon: 'soon' }, 'new')).toEqual({
			key: 'r:R',
			time: undefined,
		});
		expect(inquiryEvent(null, 'new').time).toBeUndefined();
	});

	it('treats an addedon beyond the range of a Date as undated, not as far in the future', () => {
		expect(inquiryEvent({ _id: 'x', addedon: 1e20 }, 'new')).toEqual({
			key: 'x',
			time: undefined,
		});
		expect(inquiryEvent({ _id: 'x', addedon: 1e20, updatedon: T0 / 1000 }, 'newOrUpdated')).toEqual(
			{ key: 'x', time: T0 },
		);
		// Undated, it is emitted once like any undated lead and holds back no later lead.
		const state = baselineOf([ev('seed', T0)]);
		const first = poll(state, [
			ev('seed', T0),
			inquiryEvent({ _id: 'huge', addedon: 1e20 }, 'new'),
			ev('later', T0 + 1000),
		]);
		expect(first.emitted.sort()).toEqual(['huge', 'later']);
		const second = poll(first.state, [
			ev('seed', T0),
			inquiryEvent({ _id: 'huge', addedon: 1e20 }, 'new'),
			ev('later', T0 + 1000),
			ev('latest', T0 + 2000),
		]);
		expect(second.emitted).toEqual(['latest']);
	});

	it('reads an ISO 8601 addedon as the instant it names, like flattenInquiry does', () => {
		expect(inquiryEvent({ _id: 'x', addedon: '2026-06-01T00:00:05Z' }, 'new')).toEqual({
			key: 'x',
			time: T0 + 5000,
		});
		expect(inquiryEvent({ _id: 'x', addedon: '2026-06-01 02:00:05+02:00' }, 'new')).toEqual({
			key: 'x',
			time: T0 + 5000,
		});
		expect(
			inquiryEvent(
				{ _id: 'x', addedon: '2026-06-01 00:00:05', updatedon: '2026-06-01T00:00:09.250Z' },
				'newOrUpdated',
			),
		).toEqual({
			key: 'x',
			time: T0 + 9250,
		});
	});
});

describe('undated inquiries', () => {
	it('emits each once, across restarts', () => {
		let state = baselineOf([ev('dated', T0), ev('old-undated', undefined)]);
		const first = poll(state, [
			ev('dated', T0),
			ev('old-undated', undefined),
			ev('nodate', undefined),
		]);
		expect(first.emitted).toEqual(['nodate']);
		state = first.state;
		expect(poll(state, [ev('nodate', undefined), ev('old-undated', undefined)]).emitted).toEqual(
			[],
		);
	});

	it('tells apart 150 changes between two polls in a form of 10,000 undated inquiries: the new ones once, a deleted one releases nothing', () => {
		const form = Array.from({ length: 10_000 }, (_, i) =>
			ev(`u${String(i).padStart(5, '0')}`, undefined),
		);
		let state = baselineOf(form);
		// 100 deleted, 50 new, at once.
		const fresh = Array.from({ length: 50 }, (_, i) =>
			ev(`new${String(i).padStart(2, '0')}`, undefined),
		);
		const present = [...form.slice(100), ...fresh];
		const next = poll(state, present);
		expect(next.plan.unresolvedUndated).toBe(0);
		expect(next.emitted).toEqual(fresh.map((event) => event.key));
		state = next.state;
		expect(poll(state, present).emitted).toEqual([]);
		// The deleted ones come back (restored from a backup): handled before, and forgotten, so they are new again.
		expect(poll(state, [...present, form[0]]).emitted).toEqual([form[0].key]);
	});

	it('past what its table tells apart, emits what it can, repeats nothing, and reports the rest until it is told apart', () => {
		// 5 parts of 3 cells: a table that tells apart about 10 changes.
		const opts = options({ undatedCells: 3 });
		const form = Array.from({ length: 40 }, (_, i) =>
			ev(`u${String(i).padStart(2, '0')}`, undefined),
		);
		let state = baselineOf(form, opts);
		const fresh = Array.from({ length: 30 }, (_, i) =>
			ev(`new${String(i).padStart(2, '0')}`, undefined),
		);
		const first = poll(state, [...form, ...fresh], opts);
		expect(first.plan.unresolvedUndated).toBeGreaterThan(0);
		expect(first.emitted.length).toBeLessThan(30);
		state = first.state;
		// Deleting the ones that came in brings the difference back within bounds: nothing waits unreported, nothing twice.
		const emitted = [...first.emitted];
		let last = first;
		for (let round = 0; round < 5; round++) {
			last = poll(state, [...form, ...fresh.slice(0, 8)], opts);
			emitted.push(...last.emitted);
			state = last.state;
		}
		expect(last.plan.unresolvedUndated).toBe(0);
		expect(new Set(emitted).size).toBe(emitted.length);
		expect(emitted.every((key) => key.startsWith('new'))).toBe(true);
		expect(fresh.slice(0, 8).every((event) => emitted.includes(event.key))).toBe(true);
	});

	it('does not emit again an undated inquiry that gains a time (mode new), nor a dated one that loses it', () => {
		let state = baselineOf([ev('seed', T0)]);
		state = poll(state, [ev('u', undefined), ev('d', T0 + 1)]).state;
		const swapped = [ev('u', T0 + 2), ev('d', undefined)];
		for (let round = 0; round < 3; round++) {
			const next = poll(state, swapped);
			expect(next.emitted).toEqual([]);
			state = next.state;
		}
		expect(poll(state, [...swapped, ev('fresh', T0 + 3)]).emitted).toEqual(['fresh']);
	});

	it('emits an undated inquiry that gains a time once more in mode newOrUpdated: that is a change', () => {
		const opts = options({ mode: 'newOrUpdated' });
		let state = baselineOf([], opts);
		const first = poll(state, [ev('u', undefined)], opts);
		expect(first.emitted).toEqual(['u']);
		state = first.state;
		const changed = poll(state, [ev('u', T0 + 2)], opts);
		expect(changed.emitted).toEqual(['u']);
		expect(poll(changed.state, [ev('u', T0 + 2)], opts).emitted).toEqual([]);
	});
});

describe('records to keep while an answer streams in', () => {
	const kept = (state: CursorState, events: InquiryEvent[], opts: CursorOptions = options()) => {
		const keep = recordsToKeep(state, opts);
		if (keep.kind !== 'matching') throw new Error('expected a predicate');
		return keys(events.filter(keep.keeps));
	};

	it('keeps on an everyday poll only the records the plan may emit, not every one the cursor tracks', () => {
		const tracked = Array.from({ length: 1000 }, (_, i) => ev(`old${i}`, T0 + i * 1000));
		const state = baselineOf(tracked);
		const fresh = [ev('new1', T0 + 2_000_000), ev('new2', T0 + 2_000_001)];
		const events = [...tracked, ...fresh, ev('undated', undefined)];
		expect(kept(state, events)).toEqual(['new1', 'new2', 'undated']);
		expect(keys(stepCursor(state, events, options()).toEmit)).toEqual(['new1', 'new2', 'undated']);
	});

	it('keeps a tracked record listed again with a later time in mode newOrUpdated only, and the later listing alone', () => {
		const state = baselineOf([ev('a', T0), ev('b', T0 + 1)], options({ mode: 'newOrUpdated' }));
		const events = [ev('a', T0), ev('a', T0 + 50), ev('b', T0 + 1)];
		const keep = recordsToKeep(state, options({ mode: 'newOrUpdated' }));
		expect(keep.kind === 'matching' && events.filter(keep.keeps)).toEqual([ev('a', T0 + 50)]);
		const stateNew = baselineOf([ev('a', T0), ev('b', T0 + 1)]);
		expect(kept(stateNew, events)).toEqual([]);
	});

	it('reads tracked keys such as __proto__ as keys, not as properties of an object', () => {
		const state = baselineOf([ev('__proto__', T0), ev('constructor', T0 + 1)]);
		expect(
			kept(state, [ev('__proto__', T0), ev('constructor', T0 + 1), ev('toString', T0 + 2)]),
		).toEqual(['toString']);
	});
});

describe('purity, storage and size', () => {
	it('never mutates its inputs, on a first poll or later, and survives keys such as __proto__', () => {
		const events = deepFreeze([
			ev('b', T0 + 1),
			ev('__proto__', T0 + 2),
			ev('constructor', T0 + 3),
			ev('a', T0),
			ev('x', undefined),
		]);
		const firstPlan = firstRead(deepFreeze(WATCH_BEGAN), events, options(), 2);
		const state = stored(
			commitPoll(deepFreeze(firstPlan), deepFreeze(firstPlan.toEmit), options()),
		);
		expect(keys(firstPlan.toEmit)).toEqual(['__proto__', 'constructor']);
		expect(Object.keys(state.seen).sort()).toEqual(['__proto__', 'a', 'b', 'constructor']);
		const frozen = deepFreeze(state);
		const plan = stepCursor(frozen, events, options());
		expect(plan.toEmit).toEqual([]);
		expect(() => commitPoll(deepFreeze(plan), events, options())).not.toThrow();
		expect(({} as Record<string, unknown>).polluted).toBeUndefined();
	});

	it('exports the documented defaults', () => {
		expect([
			DEFAULT_LOOKBACK_MS,
			DEFAULT_MAX_TRACKED,
			SUBTABLES * DEFAULT_CELLS_PER_SUBTABLE,
		]).toEqual([24 * HOUR, 1000, 300]);
	});

	const id = (i: number) => `65f1c0ffee${String(i).padStart(14, '0')}`; // 24 characters, like the API's ids
	/** The stored table of undated inquiries with most cells in use: a 3-byte header and 300 cells of 16 bytes, in base64. */
	const UNDATED_TABLE_CHARS = 6404;

	it('keeps the state under 64 KB for a form of 100,000 inquiries, on the first poll and after many polls', () => {
		// One inquiry a second: 86,400 of them inside the lookback, so pruning by count does the work.
		const events = Array.from({ length: 100_000 }, (_, i) => ev(id(i), T0 + i * 1000));
		for (let i = 0; i < 1_000; i++) events.push(ev(id(200_000 + i), undefined));
		let state = baselineOf(events, options({ nowMs: T0 + 100_000_000 }));
		expect(JSON.stringify(state).length).toBeLessThan(64 * 1024);
		expect(state.undated).toHaveLength(UNDATED_TABLE_CHARS);
		let emitted = 0;
		for (let round = 0; round < 30; round++) {
			for (let j = 0; j < 100; j++)
				events.push(ev(id(300_000 + round * 100 + j), T0 + 100_000_000 + round * 60_000 + j));
			const next = poll(
				state,
				events,
				options({ nowMs: T0 + 100_000_000 + round * 60_000 + 1000 }),
			);
			emitted += next.emitted.length;
			state = next.state;
			expect(Object.keys(state.seen).length).toBeLessThanOrEqual(DEFAULT_MAX_TRACKED);
		}
		expect(emitted).toBe(3000);
		const bytes = JSON.stringify(state).length;
		expect(bytes).toBeLessThan(64 * 1024);
		expect(state.undated).toHaveLength(UNDATED_TABLE_CHARS);
		expect(bytes).toBeLessThanOrEqual(DEFAULT_MAX_TRACKED * (24 + 20) + UNDATED_TABLE_CHARS + 200);
	});

	it('takes a first poll over 300,000 inquiries in its stride', () => {
		const events = Array.from({ length: 300_000 }, (_, i) => ev(id(i), T0 + i));
		// No stack overflow from spreading 300,000 values; its speed is the benchmark's job, not a timed test's.
		const plan = firstRead(WATCH_BEGAN, events, options(), 50);
		expect(plan.toEmit).toHaveLength(50);
		expect(Object.keys(plan.baseline.seen).length).toBeLessThanOrEqual(DEFAULT_MAX_TRACKED);
	});
});
