import { inquiryKey } from '../inquiries/identity';
import type { RawInquiry } from '../inquiries/inquiry.types';
import { toEpochMillis } from '../inquiries/timestamps';
import { raiseFloor } from './cursorFloor';
import { planUndated } from './cursorUndated';
import { byTimeThenKey, NewestListings } from './newestListings';

/**
 * What is new since the last poll. FormBuilderApi returns every inquiry of a
 * form, unsorted, with no "since" filter, so the trigger keeps a small state:
 * a floor time and the keys emitted at or after it. planPoll says what to
 * emit; the caller emits a prefix of it and, only after a successful poll,
 * stores commitPoll's result. Both are pure and never change their inputs.
 * The rules, the invariants the tests hold them to, late arrivals and the
 * size bound: see ARCHITECTURE.md, "The cursor".
 */
export type EventMode = 'new' | 'newOrUpdated';

export interface CursorEvent {
	key: string;
	/** Whole epoch ms of the submission (mode new) or of the last change (newOrUpdated); undefined when unknown. */
	time: number | undefined;
}

/**
 * The format of CursorState, stored in it as `v`. Raise it whenever the
 * stored shape or meaning changes, and add the step from the previous format
 * to the migrations in cursorStateVersions.ts, so that a position saved by an
 * older release is carried forward, not dropped.
 */
export const CURSOR_STATE_VERSION = 1;

export interface CursorState {
	v: typeof CURSOR_STATE_VERSION;
	/** What the state belongs to (app, form, event); another scope means a fresh start. */
	scope: string;
	floor: number;
	/** Key -> time it was last emitted (or taken as handled). */
	seen: Record<string, number>;
	/** Keys of undated inquiries emitted or handled, oldest first. */
	undated: string[];
}

export type FirstPoll = { kind: 'none' } | { kind: 'latest'; count: number };

export interface CursorOptions {
	mode: EventMode;
	firstPoll: FirstPoll;
	/** At most this many events per poll; the rest follow on later polls, oldest first. */
	maxItems: number;
	/** The current time; caps the floor so one record dated in the future cannot hide new ones. */
	nowMs?: number;
	lookbackMs?: number;
	maxTracked?: number;
	maxUndated?: number;
}

export const DEFAULT_LOOKBACK_MS = 24 * 60 * 60 * 1000;
export const DEFAULT_MAX_TRACKED = 1000;
export const DEFAULT_MAX_UNDATED = 200;
export const MAX_FIRST_POLL_COUNT = 50;

export interface PollPlan {
	isFirstPoll: boolean;
	/** Oldest first (by time, then key); undated events last. */
	toEmit: CursorEvent[];
	/**
	 * The state to commit the emitted events onto. On a first poll it records
	 * everything present as handled; on later polls it is the given state with
	 * the undated list tidied (see cursorUndated.ts).
	 */
	baseline: CursorState;
}

export function toCursorEvent(record: unknown, mode: EventMode): CursorEvent {
	const raw = (typeof record === 'object' && record !== null ? record : {}) as RawInquiry;
	const added = toEpochMillis(raw.addedon);
	if (mode === 'new') return { key: inquiryKey(record), time: added };
	const updated = toEpochMillis(raw.updatedon);
	const time = added === undefined ? updated : updated === undefined ? added : Math.max(added, updated);
	return { key: inquiryKey(record), time };
}

/** A stored value, if it is a cursor state of the current version. */
export function parseCursorState(value: unknown): CursorState | undefined {
	return cursorStateProblem(value) === undefined ? (value as CursorState) : undefined;
}

/** What keeps a value from being a cursor state of the current version, in words for an error; undefined if nothing. */
export function cursorStateProblem(value: unknown): string | undefined {
	if (typeof value !== 'object' || value === null || Array.isArray(value)) return 'it is not an object';
	const state = value as Record<keyof CursorState, unknown>;
	if (state.v !== CURSOR_STATE_VERSION) return `its format is not v${CURSOR_STATE_VERSION}`;
	if (typeof state.scope !== 'string') return '"scope" is not text';
	if (!isTime(state.floor)) return '"floor" is not a number';
	if (typeof state.seen !== 'object' || state.seen === null || Array.isArray(state.seen)) return '"seen" is not an object';
	if (!Object.values(state.seen).every(isTime)) return '"seen" holds a time that is not a number';
	if (!Array.isArray(state.undated)) return '"undated" is not a list';
	if (!state.undated.every((key) => typeof key === 'string')) return '"undated" holds a key that is not text';
	return undefined;
}

/** What to emit now, given the stored state (undefined before the first poll) and every inquiry present. */
export function planPoll(
	state: CursorState | undefined,
	events: readonly CursorEvent[],
	options: CursorOptions,
	scope: string,
): PollPlan {
	const limits = limitsOf(options);
	const { dated, undated } = latestPerKey(events);
	if (state === undefined || !isUsable(state, scope)) return planFirstPoll(dated, undated, options, scope);

	const seen = toMap(state.seen);
	const listed = new Set(state.undated);
	const candidates: Array<{ key: string; time: number }> = [];
	const nowDated = new Map<string, number>();
	for (const [key, time] of dated) {
		if (listed.has(key)) {
			// Emitted while it had no time. It leaves the undated list; in mode
			// "new" it is handled, now by its time; in "newOrUpdated" gaining a
			// time is a change, judged like any other below.
			nowDated.set(key, time);
			if (options.mode === 'new') continue;
		}
		if (time < state.floor) continue;
		const previous = seen.get(key);
		if (previous === undefined || (options.mode === 'newOrUpdated' && time > previous)) {
			candidates.push({ key, time });
		}
	}
	candidates.sort(byTimeThenKey);

	const undatedPlan = planUndated(
		state.undated.filter((key) => !nowDated.has(key)),
		undated,
		(key) => seen.has(key),
		limits.maxUndated,
	);
	let seenChanged = false;
	if (options.mode === 'new') {
		for (const [key, time] of nowDated) {
			if (time >= state.floor && !seen.has(key)) {
				seen.set(key, time);
				seenChanged = true;
			}
		}
	}

	const toEmit = [...candidates, ...undatedPlan.toEmit.map((key) => ({ key, time: undefined }))];
	return {
		isFirstPoll: false,
		toEmit: toEmit.slice(0, limits.maxItems),
		// Unchanged, the stored record is the baseline as it is (commitPoll reads it, never writes it): rebuilding it costs a sort per poll.
		baseline: { v: 1, scope, floor: state.floor, seen: seenChanged ? toRecord(seen) : state.seen, undated: undatedPlan.list },
	};
}

/**
 * Which records a caller reading a large answer keeps the bytes of, so it
 * can let the rest go before planning: those planPoll could put in toEmit
 * given the same state, options and scope. On a later poll that is every
 * dated event at or above the floor that planPoll would take as a
 * candidate (a key not seen, or in mode newOrUpdated seen at an earlier
 * time), and every undated one; on a first poll set to Emit the Latest, the
 * newest `count` dated ones (NewestListings), so only that many are ever
 * held; on any other first poll, none. An everyday poll thus copies out
 * only the few new records, not every one the cursor still tracks.
 */
export type RecordsToKeep = ((event: CursorEvent) => boolean) | { newest: number };

export function recordsToKeepGiven(state: CursorState | undefined, options: CursorOptions, scope: string): RecordsToKeep {
	if (state === undefined || !isUsable(state, scope)) {
		const count = firstPollCount(options);
		return count > 0 ? { newest: count } : () => false;
	}
	const floor = state.floor;
	const seen = toMap(state.seen);
	const changesCount = options.mode === 'newOrUpdated';
	return (event) => {
		if (!isTime(event.time)) return true;
		if (event.time < floor) return false;
		const previous = seen.get(event.key);
		return previous === undefined || (changesCount && event.time > previous);
	};
}

/**
 * Records the events actually emitted (a prefix of the plan's toEmit) onto
 * the plan's baseline, then prunes. Returns the state to store.
 */
export function commitPoll(
	base: CursorState | undefined,
	emitted: readonly CursorEvent[],
	options: CursorOptions,
	scope: string,
): CursorState {
	const limits = limitsOf(options);
	const start = base !== undefined && isUsable(base, scope) ? base : emptyState(scope);
	const seen = toMap(start.seen);
	const undated = [...start.undated];
	const listed = new Set(undated);
	for (const { key, time } of emitted) {
		if (isTime(time)) {
			seen.set(key, Math.max(time, seen.get(key) ?? -Infinity));
		} else if (!listed.has(key)) {
			listed.add(key);
			undated.push(key);
		}
	}

	const floor = raiseFloor(start.floor, seen.values(), limits);
	for (const [key, time] of seen) if (time < floor) seen.delete(key);
	return {
		v: 1,
		scope,
		floor,
		seen: toRecord(seen),
		// Only a first poll over more undated inquiries than the bound gets here with a surplus.
		undated: undated.slice(Math.max(0, undated.length - limits.maxUndated)),
	};
}

function planFirstPoll(
	dated: Map<string, number>,
	undated: string[],
	options: CursorOptions,
	scope: string,
): PollPlan {
	const latest = newest(dated, firstPollCount(options));
	const chosen = new Set(latest.map((event) => event.key));
	const handled: CursorEvent[] = [];
	for (const [key, time] of dated) if (!chosen.has(key)) handled.push({ key, time });
	for (const key of [...undated].sort()) handled.push({ key, time: undefined });
	return {
		isFirstPoll: true,
		toEmit: latest.slice(0, limitsOf(options).maxItems),
		baseline: commitPoll(emptyState(scope), handled, options, scope),
	};
}

/** How many of the newest events a first poll emits. */
function firstPollCount(options: CursorOptions): number {
	const wanted = options.firstPoll.kind === 'latest' ? options.firstPoll.count : 0;
	return Number.isFinite(wanted) ? Math.min(MAX_FIRST_POLL_COUNT, Math.max(0, Math.floor(wanted))) : 0;
}

/** The newest `count` events, oldest first, without sorting the whole form. */
function newest(dated: Map<string, number>, count: number): CursorEvent[] {
	const kept = new NewestListings<undefined>(count);
	for (const [key, time] of dated) kept.offer(key, time, () => undefined);
	return kept.oldestFirst().map(({ key, time }) => ({ key, time }));
}

/** One event per key, keeping its newest time; keys with no time at all are undated. */
function latestPerKey(events: readonly CursorEvent[]): { dated: Map<string, number>; undated: string[] } {
	const dated = new Map<string, number>();
	const undatedKeys = new Set<string>();
	for (const { key, time } of events) {
		if (!isTime(time)) {
			undatedKeys.add(key);
			continue;
		}
		const previous = dated.get(key);
		if (previous === undefined || time > previous) dated.set(key, time);
	}
	return { dated, undated: [...undatedKeys].filter((key) => !dated.has(key)) };
}

function limitsOf(options: CursorOptions) {
	const whole = (value: number | undefined, fallback: number, min: number): number =>
		value === undefined || Number.isNaN(value) ? fallback : Math.max(min, Math.floor(value));
	return {
		maxItems: whole(options.maxItems, 1, 1),
		lookbackMs: whole(options.lookbackMs, DEFAULT_LOOKBACK_MS, 0),
		maxTracked: whole(options.maxTracked, DEFAULT_MAX_TRACKED, 1),
		maxUndated: whole(options.maxUndated, DEFAULT_MAX_UNDATED, 0),
		nowMs: isTime(options.nowMs) ? options.nowMs : undefined,
	};
}

function isTime(value: unknown): value is number {
	return typeof value === 'number' && Number.isFinite(value);
}

function isUsable(state: CursorState, scope: string): boolean {
	return state.scope === scope && parseCursorState(state) !== undefined;
}

function emptyState(scope: string): CursorState {
	return { v: 1, scope, floor: 0, seen: {}, undated: [] };
}

function toMap(seen: Record<string, number>): Map<string, number> {
	return new Map(Object.entries(seen));
}

/**
 * Sorted by time then key for a stable state. Built by assignment, not
 * Object.fromEntries: that gives the object a chain of a thousand hidden
 * classes, one per key, made anew on every poll as the keys move on (5 ms a
 * poll for a thousand keys, against a quarter of a millisecond). "__proto__"
 * is defined, not assigned, so it stays a key and never sets a prototype.
 */
function toRecord(seen: Map<string, number>): Record<string, number> {
	const entries = [...seen].sort((a, b) => a[1] - b[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
	const record: Record<string, number> = {};
	for (const [key, time] of entries) {
		if (key === '__proto__') Object.defineProperty(record, key, { value: time, writable: true, enumerable: true, configurable: true });
		else record[key] = time;
	}
	return record;
}
