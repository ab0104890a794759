import type { EventMode, InquiryEvent } from '../../inquiries/inquiryEvent';
import type { RecordsToKeep } from '../../inquiries/inquiryList';
import { setOwnValue } from '../../../shared/ownValue';
import { floorBefore, isAfterFloor, later, raiseFloor, type OrderPoint } from './floor';
import { isRecord, isTime } from './storedShapes';
import { planUndated } from './undated';
import { byTimeThenKey, NewestListings, replacesListing } from '../../inquiries/latestListings';
import {
	decodeKeySetTable,
	DEFAULT_CELLS_PER_SUBTABLE,
	hashText,
	keyHash,
	MAX_CELLS_PER_SUBTABLE,
	keySetTableProblem,
} from '../../../shared/keySets/keySetTable';

export type { OrderPoint } from './floor';

// What is new since one form's last poll (ARCHITECTURE.md, "The cursor"); pure, inputs never changed.

/** A form's cursor as saved in the position (saved/position.ts), which carries its format and scope. */
export interface CursorState {
	/** Events at or before this point (by time, then key) are handled; see floor.ts. */
	floor: OrderPoint;
	/** Key -> time it was last emitted (or taken as handled), for every such event after the floor. */
	seen: Record<string, number>;
	/** The undated inquiries emitted or handled, as a table (undated.ts) in base64; '' when none. */
	undated: string;
}

/** On First Poll: nothing, the latest few, or everything since a date (a cursor from then on, saved/position.ts). */
export type FirstPoll =
	| { kind: 'none' }
	| { kind: 'latest'; count: number }
	| { kind: 'since'; sinceMs: number };

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

export interface CursorStep {
	isFirstPoll: boolean;
	/** Oldest first (by time, then key); undated events last. */
	toEmit: InquiryEvent[];
	/** The oldest dated event found new but left out of toEmit (Max per Poll): the commit keeps the floor below it. */
	waiting: OrderPoint | undefined;
	/** About how many undated inquiries changed beyond what the table tells apart (undated.ts); 0 normally. */
	unresolvedUndated: number;
	/** The state to commit onto: a first poll's records everything present as handled; later, the undated table brought up to date. */
	baseline: CursorState;
}

/** What keeps a stored value from being a cursor, in words for an error; undefined if nothing. */
export function cursorStateProblem(value: unknown): string | undefined {
	if (!isRecord(value)) return 'it is not an object';
	if (!isRecord(value.floor)) return '"floor" is not a point (time and key)';
	if (!isTime(value.floor.time)) return '"floor.time" is not a number';
	if (typeof value.floor.key !== 'string') return '"floor.key" is not text';
	if (!isRecord(value.seen)) return '"seen" is not an object';
	if (!Object.values(value.seen).every(isTime)) return '"seen" holds a time that is not a number';
	if (typeof value.undated !== 'string') return '"undated" is not text';
	const tableProblem = keySetTableProblem(value.undated);
	return tableProblem && `"undated" is not a table of undated inquiries (${tableProblem})`;
}

/** What to emit now, given the saved cursor (undefined: the form's first poll) and every inquiry present. */
export function stepCursor(
	state: CursorState | undefined,
	events: readonly InquiryEvent[],
	options: CursorOptions,
): CursorStep {
	const limits = limitsOf(options);
	if (state === undefined) {
		const { dated, undated } = latestPerKeyAfter(events, BEFORE_EVERY_TIME);
		return planFirstPoll(dated, undated, options);
	}
	const { dated, undated } = latestPerKeyAfter(events, state.floor);

	const seen = seenMapOf(state.seen);
	// Copied only when a key is taken as handled (rare): each key is read once, before any change of it.
	let changedSeen: Map<string, number> | undefined;
	const undatedPlan = planUndated(
		decodeKeySetTable(state.undated, limits.undatedCells),
		undated,
		(key) => seen.has(key),
	);
	const candidates: OrderPoint[] = [];
	for (const [key, time] of dated) {
		const previous = seen.get(key);
		if (!isNewSince(previous, time, options.mode)) continue;
		const wasUndated =
			previous === undefined &&
			undatedPlan.disappeared.size > 0 &&
			undatedPlan.disappeared.has(hashText(keyHash(key)));
		if (options.mode === 'new' && wasUndated) {
			// Emitted while it had no time: handled, now by its time. In "newOrUpdated" gaining a time is a change.
			(changedSeen ??= new Map(seen)).set(key, time);
			continue;
		}
		candidates.push({ time, key });
	}
	candidates.sort(byTimeThenKey);

	const datedNow = candidates.slice(0, limits.maxItems);
	const undatedNow = undatedPlan.toEmit
		.slice(0, limits.maxItems - datedNow.length)
		.map((key) => ({ key, time: undefined }));
	return {
		isFirstPoll: false,
		toEmit: [...datedNow, ...undatedNow],
		waiting: candidates[limits.maxItems],
		unresolvedUndated: undatedPlan.unresolved,
		baseline: {
			floor: state.floor,
			// Unchanged, the saved record is the baseline as it is (commitPoll only reads it): rebuilding it costs a sort.
			seen: changedSeen ? toRecord(changedSeen) : state.seen,
			undated: undatedPlan.table.encode(),
		},
	};
}

export function recordsToKeepGiven(
	state: CursorState | undefined,
	options: CursorOptions,
): RecordsToKeep {
	if (state === undefined) {
		const count = firstPollCount(options);
		return count > 0 ? { newest: count } : () => false;
	}
	const { floor } = state;
	const seen = seenMapOf(state.seen);
	return ({ key, time }) =>
		!isTime(time) ||
		(isAfterFloor(time, key, floor) && isNewSince(seen.get(key), time, options.mode));
}

/** Whether a dated event after the floor is new: never emitted, or (New or Updated) emitted with an older time. */
function isNewSince(emittedAt: number | undefined, time: number, mode: EventMode): boolean {
	return emittedAt === undefined || (mode === 'newOrUpdated' && time > emittedAt);
}

/** The cursor to save once `emitted` (a prefix of toEmit) went out; an event left unemitted keeps the floor below it. */
export function commitPoll(
	plan: Pick<CursorStep, 'baseline' | 'toEmit' | 'waiting'> | undefined,
	emitted: readonly InquiryEvent[],
	options: CursorOptions,
): CursorState {
	const start = plan?.baseline ?? { floor: floorBefore(0), seen: {}, undated: '' };
	return settle(
		start,
		emitted,
		limitsOf(options),
		plan === undefined ? undefined : firstLeftOut(plan, emitted),
	);
}

/** The oldest dated event of the plan not emitted: the first of toEmit's left out, else the plan's waiting one. */
function firstLeftOut(
	plan: Pick<CursorStep, 'toEmit' | 'waiting'>,
	emitted: readonly InquiryEvent[],
): OrderPoint | undefined {
	const emittedAt = new Map<string, number | undefined>();
	for (const { key, time } of emitted) emittedAt.set(key, time);
	for (const { key, time } of plan.toEmit) {
		if (isTime(time) && emittedAt.get(key) !== time) return { time, key };
	}
	return plan.waiting;
}

/** `start` with `emitted` recorded, the floor raised (never past an event left out) and seen pruned. */
function settle(
	start: CursorState,
	emitted: readonly InquiryEvent[],
	limits: Limits,
	leftOut: OrderPoint | undefined,
): CursorState {
	const seen = new Map(seenMapOf(start.seen));
	const table = decodeKeySetTable(start.undated, limits.undatedCells);
	const added = new Set<string>();
	let highest = start.floor;
	for (const { key, time } of emitted) {
		if (isTime(time)) {
			seen.set(key, Math.max(time, seen.get(key) ?? -Infinity));
			if (leftOut !== undefined && byTimeThenKey({ time, key }, leftOut) < 0)
				highest = later(highest, { time, key });
		} else if (!added.has(key)) {
			added.add(key);
			table.toggle(keyHash(key), 1);
		}
	}
	const floor = raiseFloor(start.floor, seen, limits, leftOut === undefined ? undefined : highest);
	for (const [key, time] of seen) if (!isAfterFloor(time, key, floor)) seen.delete(key);
	return { floor, seen: toRecord(seen), undated: table.encode() };
}

function planFirstPoll(
	dated: Map<string, number>,
	undated: string[],
	options: CursorOptions,
): CursorStep {
	const newest = new NewestListings<undefined>(firstPollCount(options));
	for (const [key, time] of dated) newest.offer(key, time, () => undefined);
	const latest = newest.oldestFirst().map(({ key, time }) => ({ key, time }));
	const chosen = new Set(latest.map((event) => event.key));
	const handled: InquiryEvent[] = [];
	for (const [key, time] of dated) if (!chosen.has(key)) handled.push({ key, time });
	for (const key of undated) handled.push({ key, time: undefined });
	const limits = limitsOf(options);
	return {
		isFirstPoll: true,
		toEmit: latest.slice(0, limits.maxItems),
		waiting: latest[limits.maxItems],
		unresolvedUndated: 0,
		baseline: settle({ floor: floorBefore(0), seen: {}, undated: '' }, handled, limits, undefined),
	};
}

/** How many of the newest events a first poll emits. */
function firstPollCount(options: CursorOptions): number {
	const wanted = options.firstPoll.kind === 'latest' ? options.firstPoll.count : 0;
	return Number.isFinite(wanted)
		? Math.min(MAX_FIRST_POLL_COUNT, Math.max(0, Math.floor(wanted)))
		: 0;
}

/**
 * One event per key whose latest listing (replacesListing) is after `floor`,
 * and the keys with no time at all (undated). A key's latest time is its
 * greatest, so a listing at or before the floor never decides one: a poll of
 * a large form keeps a map of the few events after its floor, not of every
 * inquiry. A key is undated only when no listing of it has a time, whichever
 * side of the floor.
 */
function latestPerKeyAfter(
	events: readonly InquiryEvent[],
	floor: OrderPoint,
): { dated: Map<string, number>; undated: string[] } {
	const dated = new Map<string, number>();
	let undated: Set<string> | undefined;
	for (const { key, time } of events) {
		if (!isTime(time)) (undated ??= new Set()).add(key);
		else if (isAfterFloor(time, key, floor) && replacesListing(dated.get(key), time))
			dated.set(key, time);
	}
	if (undated === undefined) return { dated, undated: [] };
	for (const { key, time } of events) if (isTime(time)) undated.delete(key);
	return { dated, undated: [...undated] };
}

/** A first poll judges every dated event: no time is at or before this floor. */
const BEFORE_EVERY_TIME = floorBefore(Number.NEGATIVE_INFINITY);

type Limits = ReturnType<typeof limitsOf>;

function limitsOf(options: CursorOptions) {
	const whole = (value: number | undefined, fallback: number, min: number): number =>
		value === undefined || Number.isNaN(value) ? fallback : Math.max(min, Math.floor(value));
	return {
		maxItems: whole(options.maxItems, 1, 1),
		lookbackMs: whole(options.lookbackMs, DEFAULT_LOOKBACK_MS, 0),
		maxTracked: whole(options.maxTracked, DEFAULT_MAX_TRACKED, 1),
		undatedCells: Math.min(
			MAX_CELLS_PER_SUBTABLE,
			whole(options.undatedCells, DEFAULT_CELLS_PER_SUBTABLE, 1),
		),
		nowMs: isTime(options.nowMs) ? options.nowMs : undefined,
	};
}

/**
 * A saved `seen` as a map, made once per record: a poll reads the same one to
 * choose the records to keep, to plan and to commit (a thousand keys each).
 * Cursor states are never changed once made (the functions here are pure),
 * so the map stays true to its record; callers that change one copy it.
 */
const seenMaps = new WeakMap<Record<string, number>, ReadonlyMap<string, number>>();

function seenMapOf(seen: Record<string, number>): ReadonlyMap<string, number> {
	let map = seenMaps.get(seen);
	if (map === undefined) {
		map = new Map(Object.entries(seen));
		seenMaps.set(seen, map);
	}
	return map;
}

/** Sorted for a stable state; by assignment, 20x cheaper than Object.fromEntries; "__proto__" stays a key. */
function toRecord(seen: Map<string, number>): Record<string, number> {
	const entries = [...seen].sort((a, b) => a[1] - b[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
	const record: Record<string, number> = {};
	for (const [key, time] of entries) setOwnValue(record, key, time);
	return record;
}
