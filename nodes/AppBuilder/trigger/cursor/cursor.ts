import { inquiryKey } from '../../inquiries/identity';
import type { RawInquiry } from '../../inquiries/inquiry.types';
import { toEpochMillis } from '../../inquiries/timestamps';
import { isAfterFloor, later, raiseFloor, startOf, type CursorPosition } from './floor';
import { planUndated } from './undated';
import { byTimeThenKey, NewestListings } from './latestListings';
import {
	decodeUndatedTable,
	DEFAULT_CELLS_PER_SUBTABLE,
	hashText,
	keyHash,
	MAX_CELLS_PER_SUBTABLE,
	undatedTableProblem,
} from './undatedTable';

export type { CursorPosition } from './floor';

/**
 * What is new since the last poll. FormBuilderApi returns every inquiry of a
 * form, unsorted, with no "since" filter, so the trigger keeps a small state:
 * a floor position and the keys emitted at or after it. planPoll says what to
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
export const CURSOR_STATE_VERSION = 2;

export interface CursorState {
	v: typeof CURSOR_STATE_VERSION;
	/** What the state belongs to (app, form, event); another scope means a fresh start. */
	scope: string;
	/** Events before this position (by time, then key) are handled; see cursorFloor.ts. */
	floor: CursorPosition;
	/** Key -> time it was last emitted (or taken as handled), for every such event at or after the floor. */
	seen: Record<string, number>;
	/** The undated inquiries emitted or handled, as a table of fixed size (undatedTable.ts), base64; empty text when none. */
	undated: string;
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
	/** Cells per part of a new table of undated inquiries; a stored table keeps its own size. */
	undatedCells?: number;
}

export const DEFAULT_LOOKBACK_MS = 24 * 60 * 60 * 1000;
export const DEFAULT_MAX_TRACKED = 1000;
export const MAX_FIRST_POLL_COUNT = 50;

export interface PollPlan {
	isFirstPoll: boolean;
	/** Oldest first (by time, then key); undated events last. */
	toEmit: CursorEvent[];
	/**
	 * The oldest dated event found new but left out of toEmit (Max per
	 * Poll), if any: the commit keeps the floor at or below it.
	 */
	waiting: CursorPosition | undefined;
	/**
	 * About how many undated inquiries appeared or disappeared beyond what
	 * the table tells apart (0 normally): those that appeared wait, and
	 * nothing is emitted twice, but the trigger should say so.
	 */
	unresolvedUndated: number;
	/**
	 * The state to commit the emitted events onto. On a first poll it records
	 * everything present as handled; on later polls it is the given state with
	 * the undated table brought up to date (see cursorUndated.ts).
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
	if (typeof state.floor !== 'object' || state.floor === null || Array.isArray(state.floor)) return '"floor" is not a position';
	const floor = state.floor as Record<keyof CursorPosition, unknown>;
	if (!isTime(floor.time)) return '"floor.time" is not a number';
	if (typeof floor.key !== 'string') return '"floor.key" is not text';
	if (typeof state.seen !== 'object' || state.seen === null || Array.isArray(state.seen)) return '"seen" is not an object';
	if (!Object.values(state.seen).every(isTime)) return '"seen" holds a time that is not a number';
	if (typeof state.undated !== 'string') return '"undated" is not text';
	const tableProblem = undatedTableProblem(state.undated);
	if (tableProblem !== undefined) return `"undated" is not a table of undated inquiries (${tableProblem})`;
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
	const undatedPlan = planUndated(decodeUndatedTable(state.undated, limits.undatedCells), undated, (key) => seen.has(key));
	let seenChanged = false;
	const candidates: CursorPosition[] = [];
	for (const [key, time] of dated) {
		if (!isAfterFloor(time, key, state.floor)) continue;
		const previous = seen.get(key);
		if (previous !== undefined && !(options.mode === 'newOrUpdated' && time > previous)) continue;
		const wasUndated = previous === undefined && undatedPlan.disappeared.size > 0 && undatedPlan.disappeared.has(hashText(keyHash(key)));
		if (options.mode === 'new' && wasUndated) {
			// Emitted while it had no time: handled, now by its time. In "newOrUpdated"
			// gaining a time is a change, judged like any other.
			seen.set(key, time);
			seenChanged = true;
			continue;
		}
		candidates.push({ time, key });
	}
	candidates.sort(byTimeThenKey);

	const datedNow = candidates.slice(0, limits.maxItems);
	const undatedNow = undatedPlan.toEmit.slice(0, limits.maxItems - datedNow.length).map((key) => ({ key, time: undefined }));
	return {
		isFirstPoll: false,
		toEmit: [...datedNow, ...undatedNow],
		waiting: candidates[limits.maxItems],
		unresolvedUndated: undatedPlan.unresolved,
		baseline: {
			v: CURSOR_STATE_VERSION,
			scope,
			floor: state.floor,
			// Unchanged, the stored record is the baseline as it is (commitPoll reads it, never writes it): rebuilding it costs a sort per poll.
			seen: seenChanged ? toRecord(seen) : state.seen,
			undated: undatedPlan.table.encode(),
		},
	};
}

/**
 * Which records a caller reading a large answer keeps the bytes of, so it
 * can let the rest go before planning: those planPoll could put in toEmit
 * given the same state, options and scope. On a later poll that is every
 * dated event after the floor that planPoll would take as a candidate (a
 * key not seen, or in mode newOrUpdated seen at an earlier time), and every
 * undated one; on a first poll set to Emit the Latest, the newest `count`
 * dated ones (NewestListings), so only that many are ever held; on any
 * other first poll, none. An everyday poll thus copies out only the few new
 * records, not every one the cursor still tracks.
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
		if (!isAfterFloor(event.time, event.key, floor)) return false;
		const previous = seen.get(event.key);
		return previous === undefined || (changesCount && event.time > previous);
	};
}

/**
 * Records the events actually emitted (a prefix of the plan's toEmit) onto
 * the plan's baseline, then raises the floor and prunes. Returns the state
 * to store. A plan's event left unemitted keeps the floor at or below it.
 */
export function commitPoll(
	plan: Pick<PollPlan, 'baseline' | 'toEmit' | 'waiting'> | undefined,
	emitted: readonly CursorEvent[],
	options: CursorOptions,
	scope: string,
): CursorState {
	const start = plan !== undefined && isUsable(plan.baseline, scope) ? plan.baseline : emptyState(scope);
	return settle(start, emitted, limitsOf(options), plan === undefined ? undefined : firstLeftOut(plan, emitted));
}

/** The oldest dated event of the plan not emitted: the first of toEmit's left out, else the plan's waiting one. */
function firstLeftOut(plan: Pick<PollPlan, 'toEmit' | 'waiting'>, emitted: readonly CursorEvent[]): CursorPosition | undefined {
	const emittedAt = new Map<string, number | undefined>();
	for (const { key, time } of emitted) emittedAt.set(key, time);
	for (const { key, time } of plan.toEmit) {
		if (isTime(time) && emittedAt.get(key) !== time) return { time, key };
	}
	return plan.waiting;
}

/**
 * The state after recording `emitted` onto `start`: seen and the undated
 * table updated, the floor raised, seen pruned. With an event left out
 * (`leftOut`), the floor goes no further than just after the last event
 * emitted before it, so it and everything after it are judged again.
 */
function settle(start: CursorState, emitted: readonly CursorEvent[], limits: Limits, leftOut: CursorPosition | undefined): CursorState {
	const seen = toMap(start.seen);
	const table = decodeUndatedTable(start.undated, limits.undatedCells);
	const added = new Set<string>();
	let highest = start.floor;
	for (const { key, time } of emitted) {
		if (isTime(time)) {
			seen.set(key, Math.max(time, seen.get(key) ?? -Infinity));
			if (leftOut !== undefined && byTimeThenKey({ time, key }, leftOut) < 0) highest = later(highest, { time, key });
		} else if (!added.has(key)) {
			added.add(key);
			table.toggle(keyHash(key), 1);
		}
	}
	const floor = raiseFloor(start.floor, seen, limits, leftOut === undefined ? undefined : highest);
	for (const [key, time] of seen) if (!isAfterFloor(time, key, floor)) seen.delete(key);
	return { v: CURSOR_STATE_VERSION, scope: start.scope, floor, seen: toRecord(seen), undated: table.encode() };
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
	for (const key of undated) handled.push({ key, time: undefined });
	const limits = limitsOf(options);
	return {
		isFirstPoll: true,
		toEmit: latest.slice(0, limits.maxItems),
		waiting: latest[limits.maxItems],
		unresolvedUndated: 0,
		baseline: settle(emptyState(scope), handled, limits, undefined),
	};
}

/** How many of the newest events a first poll emits. */
function firstPollCount(options: CursorOptions): number {
	const wanted = options.firstPoll.kind === 'latest' ? options.firstPoll.count : 0;
	return Number.isFinite(wanted) ? Math.min(MAX_FIRST_POLL_COUNT, Math.max(0, Math.floor(wanted))) : 0;
}

/** The newest `count` events, oldest first, without sorting the whole form. */
function newest(dated: Map<string, number>, count: number): CursorPosition[] {
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

type Limits = ReturnType<typeof limitsOf>;

function limitsOf(options: CursorOptions) {
	const whole = (value: number | undefined, fallback: number, min: number): number =>
		value === undefined || Number.isNaN(value) ? fallback : Math.max(min, Math.floor(value));
	return {
		maxItems: whole(options.maxItems, 1, 1),
		lookbackMs: whole(options.lookbackMs, DEFAULT_LOOKBACK_MS, 0),
		maxTracked: whole(options.maxTracked, DEFAULT_MAX_TRACKED, 1),
		undatedCells: Math.min(MAX_CELLS_PER_SUBTABLE, whole(options.undatedCells, DEFAULT_CELLS_PER_SUBTABLE, 1)),
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
	return { v: CURSOR_STATE_VERSION, scope, floor: startOf(0), seen: {}, undated: '' };
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
