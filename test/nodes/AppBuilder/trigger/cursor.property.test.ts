import fc from 'fast-check';

import {
	commitPoll,
	parseCursorState,
	planPoll,
	recordsToKeepGiven,
	type CursorEvent,
	type CursorOptions,
	type CursorState,
	type EventMode,
} from '../../../../nodes/AppBuilder/trigger/cursor';

/**
 * A model of a form and a trigger: random interleavings of submissions (in
 * order, tied, or late), updates, deletions and polls with small maxItems,
 * partial commits (the caller emits a prefix), failed polls (nothing is
 * committed) and restarts (the state goes through JSON; with "legacy"
 * persistence, as on n8n before 2.40, a restart also loses every state not
 * saved by a poll that emitted something).
 *
 * Every event planned is one the trigger kept the record of (recordsToKeepGiven).
 *
 * Exactly once: every inquiry (mode new) or every version of one (mode
 * newOrUpdated) that appears after the first poll, and is still there, is
 * emitted exactly once; nothing else is emitted; nothing twice.
 *
 * Late arrivals are generated where the documented contract promises
 * delivery (cursor.ts): within the lookback, at a time no other inquiry has,
 * and with at most maxTracked inquiries at or after it. A second property
 * lets late arrivals break that contract and checks that only those are
 * missed, and none is emitted twice.
 */
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const T0 = Date.parse('2026-06-01T00:00:00Z');
const SCOPE = 'app/form';

type Op =
	| { kind: 'submit'; advance: number; late: number; undated: boolean }
	| { kind: 'update'; pick: number; advance: number }
	| { kind: 'delete'; pick: number }
	| { kind: 'poll'; maxItems: number; commitShare: number; fail: boolean; restart: boolean };

interface Settings {
	mode: EventMode;
	maxTracked: number;
	lookbackMs: number;
	firstPollCount: number;
	legacyPersistence: boolean;
	/** 'contract': late arrivals only where delivery is promised; 'any': anywhere up to twice the lookback. */
	lateArrivals: 'contract' | 'any';
}

interface Version {
	time: number | undefined;
	createdAt: number;
	promised: boolean;
}

interface Inquiry {
	added: number | undefined;
	updated: number | undefined;
	versions: Version[];
	deleted: boolean;
}

const advanceArb = fc.oneof(
	{ weight: 3, arbitrary: fc.constant(0) },
	{ weight: 2, arbitrary: fc.integer({ min: 1, max: 10 * MINUTE }) },
	{ weight: 1, arbitrary: fc.integer({ min: 1, max: 3 * HOUR }) },
);
const opArb: fc.Arbitrary<Op> = fc.oneof(
	{
		weight: 6,
		arbitrary: fc.record({
			kind: fc.constant('submit' as const),
			advance: advanceArb,
			// A share of the lookback; fc.double would crowd near 0 and make every late arrival 1 ms late.
			late: fc.oneof(
				{ weight: 6, arbitrary: fc.constant(0) },
				{ weight: 3, arbitrary: fc.integer({ min: 1, max: 1000 }).map((n) => n / 1000) },
				{ weight: 1, arbitrary: fc.constant(1) }, // exactly the lookback: the edge of the contract
			),
			// About one submission in twelve has no usable time.
			undated: fc.integer({ min: 0, max: 11 }).map((n) => n === 0),
		}),
	},
	{ weight: 1, arbitrary: fc.record({ kind: fc.constant('update' as const), pick: fc.nat(), advance: fc.integer({ min: 1, max: 30 * MINUTE }) }) },
	{ weight: 1, arbitrary: fc.record({ kind: fc.constant('delete' as const), pick: fc.nat() }) },
	{
		weight: 3,
		arbitrary: fc.record({
			kind: fc.constant('poll' as const),
			maxItems: fc.integer({ min: 1, max: 6 }),
			commitShare: fc.constantFrom(0, 0.25, 0.5, 0.75, 1, 1, 1),
			fail: fc.boolean(),
			restart: fc.boolean(),
		}),
	},
);

const settingsArb = (mode: EventMode, lateArrivals: Settings['lateArrivals']): fc.Arbitrary<Settings> =>
	fc.record({
		mode: fc.constant(mode),
		// Mostly a small bound, so pruning by count happens in most runs.
		maxTracked: fc.oneof({ weight: 4, arbitrary: fc.integer({ min: 3, max: 20 }) }, { weight: 1, arbitrary: fc.constant(1000) }),
		lookbackMs: fc.constantFrom(10 * MINUTE, 2 * HOUR, 1000 * HOUR),
		firstPollCount: fc.oneof({ weight: 3, arbitrary: fc.constant(0) }, { weight: 1, arbitrary: fc.integer({ min: 1, max: 5 }) }),
		legacyPersistence: fc.boolean(),
		lateArrivals: fc.constant(lateArrivals),
	});

function deepFreeze<T>(value: T): T {
	if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
		Object.freeze(value);
		for (const child of Object.values(value)) deepFreeze(child);
	}
	return value;
}

/** A plain check: jest's expect costs too much inside loops that run millions of times. */
function check(condition: boolean, message: string, detail?: unknown): void {
	if (!condition) throw new Error(`${message}${detail === undefined ? '' : `: ${JSON.stringify(detail)}`}`);
}

const byTimeThenKey = (a: CursorEvent, b: CursorEvent) =>
	(a.time as number) - (b.time as number) || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0);

function runScenario(settings: Settings, ops: Op[]): void {
	const { mode, maxTracked, lookbackMs } = settings;
	let clock = T0;
	let seq = 0;
	const inquiries = new Map<string, Inquiry>();
	const usedTimes = new Set<number>();

	let state: CursorState | undefined;
	let persisted: string | undefined;
	let previousFloor = -Infinity;
	let baselineMark = -1;
	let chosenOnFirstPoll = new Set<string>();
	const emissions = new Map<string, Array<number | undefined>>();

	const timeOf = (inquiry: Inquiry): number | undefined => {
		if (mode === 'new') return inquiry.added;
		if (inquiry.added === undefined) return inquiry.updated;
		return inquiry.updated === undefined ? inquiry.added : Math.max(inquiry.added, inquiry.updated);
	};
	const alive = () => [...inquiries].filter(([, inquiry]) => !inquiry.deleted);
	const addVersion = (inquiry: Inquiry, at: number, promised: boolean) => {
		const time = timeOf(inquiry);
		if (inquiry.versions.length > 0 && inquiry.versions[inquiry.versions.length - 1].time === time) return;
		inquiry.versions.push({ time, createdAt: at, promised });
		if (time !== undefined) usedTimes.add(time);
	};

	/** Delivery promised for a late arrival at `time` (cursor.ts, "Late arrivals"). */
	const lateIsPromised = (time: number): boolean => {
		if (time < clock - lookbackMs || usedTimes.has(time)) return false;
		let newer = 0;
		for (const inquiry of inquiries.values()) {
			const current = timeOf(inquiry);
			if (current !== undefined && current > time) newer++;
		}
		return newer <= maxTracked;
	};
	/** The earliest time a late arrival may take and still be promised; none when every candidate is taken. */
	const promisedLateTime = (requested: number): number | undefined => {
		const newestFirst = [...inquiries.values()]
			.map(timeOf)
			.filter((time): time is number => time !== undefined)
			.sort((a, b) => b - a);
		let time = Math.max(requested, clock - lookbackMs, newestFirst[maxTracked] ?? -Infinity);
		while (usedTimes.has(time)) time++;
		return time < clock ? time : undefined;
	};

	const presentEvents = (): CursorEvent[] => alive().map(([key, inquiry]) => ({ key, time: timeOf(inquiry) }));
	const options = (maxItems: number): CursorOptions => ({
		mode,
		maxItems,
		lookbackMs,
		maxTracked,
		nowMs: clock,
		firstPoll: settings.firstPollCount > 0 ? { kind: 'latest', count: settings.firstPollCount } : { kind: 'none' },
	});

	const checkInvariants = (next: CursorState) => {
		check(next.floor >= previousFloor, 'the floor went down', [previousFloor, next.floor]);
		previousFloor = next.floor;
		for (const [key, times] of emissions) {
			for (const time of times) {
				const tracked = time === undefined || time < next.floor || next.seen[key] >= time;
				check(tracked, 'an emitted key at or above the floor is not in seen', { key, time, floor: next.floor });
			}
		}
		const seenTimes = Object.values(next.seen);
		const newest = Math.max(...seenTimes);
		const newestGroup = seenTimes.filter((time) => time === newest).length;
		check(seenTimes.length <= Math.max(maxTracked, newestGroup), 'seen holds more than the bound', seenTimes.length);
		check(seenTimes.every((time) => time >= next.floor), 'seen holds a time below the floor');
	};

	/** Returns how many events the poll planned. */
	const doPoll = (opIndex: number, maxItems: number, commitShare: number): number => {
		const events = presentEvents();
		const plan = planPoll(deepFreeze(state), deepFreeze(events), options(maxItems), SCOPE);
		// The trigger keeps only the records recordsToKeepGiven names: each one emitted must be among them.
		const keep = recordsToKeepGiven(state, options(maxItems), SCOPE);
		const keptEvents =
			typeof keep === 'function'
				? events.filter(keep)
				: events.filter((event) => event.time !== undefined).sort(byTimeThenKey).slice(-keep.newest);
		for (const event of plan.toEmit) {
			const kept = keptEvents.some((listed) => listed.key === event.key && listed.time === event.time);
			check(kept, 'planned an event whose record was let go', event);
		}
		if (plan.isFirstPoll) {
			const newest = events.filter((event) => event.time !== undefined).sort(byTimeThenKey).slice(-settings.firstPollCount);
			const wanted = settings.firstPollCount > 0 ? newest : [];
			check(JSON.stringify(plan.toEmit) === JSON.stringify(wanted.slice(0, maxItems)), 'a first poll emits the newest count', plan.toEmit);
			baselineMark = opIndex;
			chosenOnFirstPoll = new Set(wanted.map((event) => `${event.key}@${event.time}`));
			previousFloor = -Infinity;
		}
		const emitted = plan.toEmit.slice(0, Math.ceil(plan.toEmit.length * commitShare));
		for (const event of emitted) {
			const inquiry = inquiries.get(event.key) as Inquiry;
			check(!inquiry.deleted && event.time === timeOf(inquiry), 'emitted what is not there', event);
			emissions.set(event.key, [...(emissions.get(event.key) ?? []), event.time]);
		}
		const next = commitPoll(deepFreeze(plan.baseline), deepFreeze(emitted), options(maxItems), SCOPE);
		checkInvariants(next);
		const json = JSON.stringify(next);
		state = parseCursorState(JSON.parse(json));
		check(state !== undefined && JSON.stringify(state) === json, 'the state does not survive JSON');
		if (!settings.legacyPersistence || emitted.length > 0) persisted = json;
		return plan.toEmit.length;
	};

	ops.forEach((op, opIndex) => {
		if (op.kind === 'submit') {
			clock += op.advance;
			const key = `k${seq++}`;
			let added: number | undefined = clock;
			let promised = true;
			if (op.undated) {
				added = undefined;
			} else if (op.late > 0 && settings.lateArrivals === 'contract') {
				added = promisedLateTime(clock - Math.max(1, Math.round(op.late * lookbackMs))) ?? clock;
			} else if (op.late > 0) {
				added = clock - Math.max(1, Math.round(op.late * 2 * lookbackMs));
				promised = lateIsPromised(added);
				// A tie with an earlier inquiry may cost that one its promise (ties sort by key).
				for (const other of inquiries.values()) {
					for (const version of other.versions) if (version.time === added) version.promised = false;
				}
			}
			const inquiry: Inquiry = { added, updated: added, versions: [], deleted: false };
			inquiries.set(key, inquiry);
			addVersion(inquiry, opIndex, promised);
		} else if (op.kind === 'update') {
			const living = alive();
			if (living.length === 0) return;
			clock += op.advance;
			const [, inquiry] = living[op.pick % living.length];
			inquiry.updated = clock;
			addVersion(inquiry, opIndex, true);
		} else if (op.kind === 'delete') {
			const living = alive();
			if (living.length > 0) living[op.pick % living.length][1].deleted = true;
		} else if (!op.fail) {
			doPoll(opIndex, op.maxItems, op.commitShare);
			if (op.restart) {
				state = persisted === undefined ? undefined : parseCursorState(JSON.parse(persisted));
				previousFloor = -Infinity;
			}
		}
	});
	// Drain: healthy polls until nothing is left to emit.
	for (let i = 0; i < 300; i++) if (doPoll(ops.length + i, 6, 1) === 0 && state !== undefined) break;

	const eligible = (key: string, version: Version) =>
		version.createdAt > baselineMark || chosenOnFirstPoll.has(`${key}@${version.time}`);
	for (const [key, times] of emissions) {
		const inquiry = inquiries.get(key) as Inquiry;
		// Nothing twice, in order, and only versions that appeared after the first poll.
		check(new Set(times).size === times.length, 'emitted twice', { key, times });
		check(mode !== 'new' || times.length === 1, 'emitted twice in mode new', { key, times });
		for (const time of times) {
			const version = inquiry.versions.find((candidate) => candidate.time === time) as Version;
			check(version !== undefined && eligible(key, version), 'emitted what was there before the first poll', { key, time });
		}
		const dated = times.filter((time): time is number => time !== undefined);
		check(dated.every((time, index) => index === 0 || time > dated[index - 1]), 'versions emitted out of order', { key, times });
	}
	for (const [key, inquiry] of inquiries) {
		if (inquiry.deleted) continue;
		const current = inquiry.versions[inquiry.versions.length - 1];
		if (!eligible(key, current) || !current.promised) continue;
		const times = emissions.get(key) ?? [];
		check(times.filter((time) => time === current.time).length === 1, 'not emitted exactly once', { key, version: current, times });
	}
}

const scenario = (settings: fc.Arbitrary<Settings>) =>
	fc.property(
		settings,
		// size 'max': fast-check's default size keeps arrays near 10 ops, too few for pruning by count to bite.
		fc.array(opArb, { minLength: 1, maxLength: 80, size: 'max' }),
		(chosen, ops) => runScenario(chosen, ops),
	);

describe('inquiry cursor, property-based', () => {
	it('mode new: every inquiry that arrives after the first poll is emitted exactly once (2,000 runs)', () => {
		fc.assert(scenario(settingsArb('new', 'contract')), { numRuns: 2000 });
	});

	it('mode newOrUpdated: every new or changed version is emitted exactly once (2,000 runs)', () => {
		fc.assert(scenario(settingsArb('newOrUpdated', 'contract')), { numRuns: 2000 });
	});

	it('late arrivals outside the contract are the only ones missed, and nothing is emitted twice (1,000 runs per mode)', () => {
		fc.assert(scenario(settingsArb('new', 'any')), { numRuns: 1000 });
		fc.assert(scenario(settingsArb('newOrUpdated', 'any')), { numRuns: 1000 });
	});
});
