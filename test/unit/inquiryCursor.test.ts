import fc from 'fast-check';

import {
	commitPoll,
	parseCursorState,
	planPoll,
	toCursorEvent,
	type CursorEvent,
	type CursorOptions,
	type CursorState,
	type EventMode,
} from '../../nodes/AppBuilder/inquiries/cursor';

const SCOPE = 'app/form/new';
const HOUR = 3_600_000;
const T0 = Date.parse('2026-06-01T00:00:00Z');

const options = (overrides: Partial<CursorOptions> = {}): CursorOptions => ({
	mode: 'new',
	firstPoll: { kind: 'none' },
	maxItems: 1000,
	nowMs: T0 + 1000 * HOUR,
	...overrides,
});

const ev = (key: string, time: number | undefined): CursorEvent => ({ key, time });

/** One full poll: plan, emit everything planned, commit, and store as JSON. */
function poll(state: CursorState | undefined, events: CursorEvent[], opts: CursorOptions = options()) {
	const plan = planPoll(state, events, opts, SCOPE);
	const next = commitPoll(plan.baseline ?? state, plan.toEmit, opts, SCOPE);
	return { emitted: plan.toEmit.map((e) => e.key), state: JSON.parse(JSON.stringify(next)) as CursorState, plan };
}

function deepFreeze<T>(value: T): T {
	if (value && typeof value === 'object') {
		Object.freeze(value);
		for (const child of Object.values(value)) deepFreeze(child);
	}
	return value;
}

describe('inquiry cursor', () => {
	it('takes what exists on the first poll as handled, then emits new events oldest first', () => {
		const first = poll(undefined, [ev('a', T0), ev('b', T0 + 1)]);
		expect(first.emitted).toEqual([]);
		expect(first.plan.isFirstPoll).toBe(true);
		const second = poll(first.state, [ev('c', T0 + 20), ev('a', T0), ev('d', T0 + 10), ev('b', T0 + 1)]);
		expect(second.emitted).toEqual(['d', 'c']);
		expect(poll(second.state, [ev('c', T0 + 20), ev('d', T0 + 10)]).emitted).toEqual([]);
	});

	it('emits the latest N on the first poll when asked', () => {
		const events = Array.from({ length: 10 }, (_, i) => ev(`k${i}`, T0 + i));
		const first = poll(undefined, events, options({ firstPoll: { kind: 'latest', count: 3 } }));
		expect(first.emitted).toEqual(['k7', 'k8', 'k9']);
		expect(poll(first.state, events).emitted).toEqual([]);
	});

	it('emits every event of a timestamp tie once, even when the tie spans polls', () => {
		let { state } = poll(undefined, [ev('seed', T0)]);
		const first = poll(state, [ev('seed', T0), ev('t1', T0 + 5), ev('t2', T0 + 5)]);
		state = first.state;
		const second = poll(state, [ev('seed', T0), ev('t1', T0 + 5), ev('t2', T0 + 5), ev('t3', T0 + 5)]);
		expect(first.emitted).toEqual(['t1', 't2']);
		expect(second.emitted).toEqual(['t3']);
	});

	it('keeps a whole timestamp group when pruning by count, so a tie arriving later is still new', () => {
		const opts = options({ maxTracked: 2 });
		let { state } = poll(undefined, [], opts);
		state = poll(state, [ev('a', T0 + 1), ev('b', T0 + 2), ev('c', T0 + 2)], opts).state;
		expect(state.floor).toBe(T0 + 2);
		expect(Object.keys(state.seen).sort()).toEqual(['b', 'c']);
		expect(poll(state, [ev('a', T0 + 1), ev('b', T0 + 2), ev('c', T0 + 2), ev('d', T0 + 2)], opts).emitted).toEqual(['d']);
	});

	it('catches a late arrival inside the lookback and documents the one outside it', () => {
		let { state } = poll(undefined, [ev('seed', T0)]);
		state = poll(state, [ev('new', T0 + 10 * HOUR)]).state;
		expect(poll(state, [ev('late', T0 + 9 * HOUR)]).emitted).toEqual(['late']);
		expect(poll(state, [ev('too-late', T0 + 10 * HOUR - 25 * HOUR)]).emitted).toEqual([]);
	});

	it('spreads a backlog over polls with maxItems and loses nothing, even with partial commits', () => {
		let { state } = poll(undefined, []);
		const events = Array.from({ length: 10 }, (_, i) => ev(`k${i}`, T0 + i));
		const opts = options({ maxItems: 4 });
		const plan = planPoll(state, events, opts, SCOPE);
		expect(plan.toEmit.map((e) => e.key)).toEqual(['k0', 'k1', 'k2', 'k3']);
		// The caller ran out of time after two.
		state = commitPoll(state, plan.toEmit.slice(0, 2), opts, SCOPE);
		const rest: string[] = [];
		for (let i = 0; i < 3; i++) {
			const next = poll(state, events, opts);
			rest.push(...next.emitted);
			state = next.state;
		}
		expect(rest).toEqual(['k2', 'k3', 'k4', 'k5', 'k6', 'k7', 'k8', 'k9']);
	});

	it('re-emits on update only in newOrUpdated mode', () => {
		const opts = options({ mode: 'newOrUpdated' });
		let { state } = poll(undefined, [ev('a', T0)], opts);
		const updated = poll(state, [ev('a', T0 + 50)], opts);
		expect(updated.emitted).toEqual(['a']);
		state = updated.state;
		expect(poll(state, [ev('a', T0 + 50)], opts).emitted).toEqual([]);
		expect(toCursorEvent({ _id: 'x', addedon: 100, updatedon: 200 }, 'newOrUpdated')).toEqual({ key: 'x', time: 200_000 });
		expect(toCursorEvent({ _id: 'x', addedon: 100, updatedon: 200 }, 'new')).toEqual({ key: 'x', time: 100_000 });
	});

	it('starts over on another scope, and rejects state it does not understand', () => {
		const { state } = poll(undefined, [ev('a', T0)]);
		const other = planPoll(state, [ev('b', T0 + 1)], options(), 'app/other-form/new');
		expect(other.isFirstPoll).toBe(true);
		expect(other.toEmit).toEqual([]);
		expect(parseCursorState({ v: 2 })).toBeUndefined();
		expect(parseCursorState('junk')).toBeUndefined();
		expect(parseCursorState(state)).toEqual(state);
	});

	it('emits undated events once', () => {
		let { state } = poll(undefined, [ev('dated', T0)]);
		const first = poll(state, [ev('dated', T0), ev('nodate', undefined)]);
		expect(first.emitted).toEqual(['nodate']);
		state = first.state;
		expect(poll(state, [ev('nodate', undefined)]).emitted).toEqual([]);
	});

	it('does not let one record dated far in the future hide the next leads', () => {
		let { state } = poll(undefined, [ev('seed', T0)], options({ nowMs: T0 }));
		state = poll(state, [ev('future', T0 + 5000 * HOUR)], options({ nowMs: T0 + HOUR })).state;
		expect(poll(state, [ev('normal', T0 + 2 * HOUR)], options({ nowMs: T0 + 2 * HOUR })).emitted).toEqual(['normal']);
	});

	it('never mutates its inputs', () => {
		const { state } = poll(undefined, [ev('a', T0)]);
		const frozenState = deepFreeze(JSON.parse(JSON.stringify(state)) as CursorState);
		const events = deepFreeze([ev('b', T0 + 1), ev('a', T0)]);
		const plan = planPoll(frozenState, events, options(), SCOPE);
		expect(() => commitPoll(frozenState, plan.toEmit, options(), SCOPE)).not.toThrow();
	});

	it('takes a first poll over 300,000 inquiries in its stride', () => {
		const events = Array.from({ length: 300_000 }, (_, i) => ev(`k${i}`, T0 + i));
		const { state } = poll(undefined, events);
		expect(Object.keys(state.seen).length).toBeLessThanOrEqual(1000);
	});

	it('keeps the state under 64 KB for a form of 100,000 inquiries, first poll and after many polls', () => {
		const events = Array.from({ length: 100_000 }, (_, i) => ev(`65f1c0ffee${String(i).padStart(14, '0')}`, T0 + i * 1000));
		let { state } = poll(undefined, events);
		expect(JSON.stringify(state).length).toBeLessThan(64 * 1024);
		for (let round = 0; round < 20; round++) {
			for (let j = 0; j < 100; j++) events.push(ev(`new${round}-${j}`, T0 + 100_000_000 + round * 1000 + j));
			const next = poll(state, events);
			expect(next.emitted).toHaveLength(100);
			state = next.state;
		}
		expect(JSON.stringify(state).length).toBeLessThan(64 * 1024);
		expect(Object.keys(state.seen).length).toBeLessThanOrEqual(1000);
	});
});

/**
 * Random interleavings of submissions (in order, tied, or late), updates,
 * deletions, polls with small maxItems and partial commits, failed polls and
 * restarts (state through JSON). Every inquiry the contract promises is
 * emitted exactly once; nothing is ever emitted twice.
 */
describe('inquiry cursor, property-based', () => {
	type Op =
		| { kind: 'submit'; advance: number; late: number }
		| { kind: 'update'; pick: number; advance: number }
		| { kind: 'delete'; pick: number }
		| { kind: 'poll'; maxItems: number; commitShare: number; fail: boolean; restart: boolean };

	const opArb: fc.Arbitrary<Op> = fc.oneof(
		{ weight: 5, arbitrary: fc.record({ kind: fc.constant('submit' as const), advance: fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 5000 })), late: fc.oneof({ weight: 4, arbitrary: fc.constant(0) }, { weight: 1, arbitrary: fc.integer({ min: 1, max: 6 * HOUR }) }) }) },
		{ weight: 1, arbitrary: fc.record({ kind: fc.constant('update' as const), pick: fc.nat(), advance: fc.integer({ min: 1, max: 5000 }) }) },
		{ weight: 1, arbitrary: fc.record({ kind: fc.constant('delete' as const), pick: fc.nat() }) },
		{ weight: 3, arbitrary: fc.record({ kind: fc.constant('poll' as const), maxItems: fc.integer({ min: 1, max: 6 }), commitShare: fc.double({ min: 0, max: 1, noNaN: true }), fail: fc.boolean(), restart: fc.boolean() }) },
	);

	/** Mostly simultaneous submissions: ties at every pruning boundary. */
	const tieHeavyOpArb: fc.Arbitrary<Op> = fc.oneof(
		{ weight: 6, arbitrary: fc.record({ kind: fc.constant('submit' as const), advance: fc.constantFrom(0, 0, 0, 1000), late: fc.constant(0) }) },
		{ weight: 2, arbitrary: fc.record({ kind: fc.constant('poll' as const), maxItems: fc.integer({ min: 1, max: 4 }), commitShare: fc.double({ min: 0, max: 1, noNaN: true }), fail: fc.boolean(), restart: fc.boolean() }) },
	);

	const scenario = (mode: EventMode, maxTracked: number, ops: fc.Arbitrary<Op> = opArb) =>
		fc.property(fc.array(ops, { minLength: 1, maxLength: 80 }), (ops) => {
			let clock = T0;
			let newestSubmitted = T0;
			let seq = 0;
			const records = new Map<string, { added: number; updated: number; deleted: boolean; late: boolean; afterBaseline: boolean; changedAfterBaseline: boolean }>();
			let state: CursorState | undefined;
			let baselineTaken = false;
			const emittedVersions = new Map<string, number[]>();
			const opts = (maxItems: number): CursorOptions => ({ mode, firstPoll: { kind: 'none' }, maxItems, nowMs: clock, maxTracked, lookbackMs: 24 * HOUR });

			const doPoll = (maxItems: number, commitShare: number) => {
				const events = [...records.entries()]
					.filter(([, r]) => !r.deleted)
					.map(([key, r]) => ev(key, mode === 'new' ? r.added : Math.max(r.added, r.updated)));
				const plan = planPoll(state, events, opts(maxItems), SCOPE);
				const emitted = plan.toEmit.slice(0, Math.ceil(plan.toEmit.length * commitShare));
				for (const event of emitted) {
					emittedVersions.set(event.key, [...(emittedVersions.get(event.key) ?? []), event.time as number]);
				}
				state = commitPoll(plan.baseline ?? state, emitted, opts(maxItems), SCOPE);
				baselineTaken = true;
			};

			for (const op of ops) {
				if (op.kind === 'submit') {
					clock += op.advance;
					const added = op.late > 0 ? clock - op.late : clock;
					newestSubmitted = Math.max(newestSubmitted, added);
					records.set(`k${seq++}`, { added, updated: added, deleted: false, late: added < newestSubmitted, afterBaseline: baselineTaken, changedAfterBaseline: baselineTaken });
				} else if (op.kind === 'update' && records.size > 0) {
					clock += op.advance;
					const key = [...records.keys()][op.pick % records.size];
					const record = records.get(key)!;
					record.updated = clock;
					if (baselineTaken) record.changedAfterBaseline = true;
				} else if (op.kind === 'delete' && records.size > 0) {
					const key = [...records.keys()][op.pick % records.size];
					records.get(key)!.deleted = true;
				} else if (op.kind === 'poll') {
					if (op.fail) continue;
					doPoll(op.maxItems, op.commitShare);
					if (op.restart) state = JSON.parse(JSON.stringify(state)) as CursorState;
				}
			}
			// Drain: healthy polls until nothing is left.
			for (let i = 0; i < 200; i++) doPoll(6, 1);

			for (const [key, versions] of emittedVersions) {
				// Never the same version twice; in "new" mode, never twice at all.
				expect(new Set(versions).size).toBe(versions.length);
				if (mode === 'new') expect(versions).toHaveLength(1);
				const record = records.get(key)!;
				if (mode === 'new') expect(record.afterBaseline).toBe(true);
			}
			for (const [key, record] of records) {
				if (record.deleted) continue;
				// The bound trades late arrivals for size: with pruning by count, only in-order arrivals are promised.
				const promised = maxTracked >= 1000 || !record.late;
				if (mode === 'new' && record.afterBaseline && promised) {
					expect(emittedVersions.get(key)).toHaveLength(1);
				}
				if (mode === 'newOrUpdated' && record.changedAfterBaseline && promised && record.updated === record.added) {
					expect(emittedVersions.get(key)?.length ?? 0).toBeGreaterThanOrEqual(1);
				}
				if (mode === 'newOrUpdated' && record.changedAfterBaseline && record.updated > record.added && maxTracked >= 1000) {
					expect(emittedVersions.get(key)).toContain(Math.max(record.added, record.updated));
				}
			}
		});

	it('mode new, no pruning by count: every new inquiry exactly once (1,000 runs)', () => {
		fc.assert(scenario('new', 1000), { numRuns: 1000 });
	});

	it('mode new, tiny bound that forces pruning by count: in-order inquiries exactly once, nothing twice (500 runs)', () => {
		fc.assert(scenario('new', 3), { numRuns: 500 });
	});

	it('mode new, many ties and a tiny bound: every new inquiry exactly once (500 runs)', () => {
		fc.assert(scenario('new', 3, tieHeavyOpArb), { numRuns: 500 });
	});

	it('mode newOrUpdated: every new or changed version once, none twice (500 runs)', () => {
		fc.assert(scenario('newOrUpdated', 1000), { numRuns: 500 });
	});
});
