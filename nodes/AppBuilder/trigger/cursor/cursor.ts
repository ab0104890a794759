import type { EventMode, InquiryEvent } from '../events/inquiryEvent';
import type { RecordsToKeep } from '../events/inquiryList';
import { setOwnValue } from '../../../shared/ownValue';
import { earlier, floorBefore, isAfterFloor, later, raiseFloor, type OrderPoint } from './floor';
import { isRecord, isTime } from '../../../shared/valueShapes';
import { planUndated } from './undated';
import { byTimeThenKey, NewestListings, replacesListing } from '../events/latestListings';
import {
	decodeKeySetTable,
	DEFAULT_CELLS_PER_SUBTABLE,
	hashText,
	keyHash,
	keySetTableProblem,
	tableOf,
} from './keySetTable';

// What is new since one form's last read (ARCHITECTURE.md, "The cursor"); pure, inputs never changed.

/** A form's cursor, saved in its record: `undated` is the table (undated.ts) in base64, '' when empty. */
export interface CursorState {
	floor: OrderPoint;
	seen: Record<string, number>;
	undated: string;
}

/** Stretches of the trigger's clock, [from, to), in which the form was not watched: events dated in them are never new. */
export type Spans = ReadonlyArray<readonly [from: number, to: number]>;

export interface CursorOptions {
	mode: EventMode;
	maxItems: number;
	/** The poll's clock: the floor never passes it, and events dated after it are tracked apart. */
	nowMs: number;
	lookbackMs?: number;
	/** Emitted keys kept dated up to now, and as many again dated ahead of it. */
	maxTracked?: number;
	/** Cells per part of a new table of undated inquiries; a stored table keeps its own size. */
	undatedCells?: number;
}

export const DEFAULT_LOOKBACK_MS = 24 * 60 * 60 * 1000;
export const DEFAULT_MAX_TRACKED = 1000;
export const MAX_FIRST_POLL_COUNT = 50;

export interface CursorStep {
	toEmit: InquiryEvent[];
	/** The oldest dated event found new but left out of toEmit (Max per Poll): the commit keeps the floor below it. */
	waiting: OrderPoint | undefined;
	unresolvedUndated: number;
	/** The state to commit onto: the undated table brought up to date, or a first read's events handled. */
	baseline: CursorState;
}

/** Nothing handled after `time` yet: events dated from then on are judged. */
export function cursorFrom(time: number): CursorState {
	return { floor: floorBefore(time), seen: {}, undated: '' };
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

/** What to emit now, given the form's cursor, every inquiry present and the stretches it was not watched. */
export function stepCursor(
	state: CursorState,
	events: readonly InquiryEvent[],
	options: CursorOptions,
	unwatched: Spans = [],
): CursorStep {
	const limits = limitsOf(options);
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
		if (!isNewSince(previous, time, options.mode) || isIn(unwatched, time)) continue;
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
	// Keys dated ahead are kept apart, at most maxTracked: past that, the farthest wait until their time comes.
	const tracked = [...(changedSeen ?? seen).values()];
	const roomAhead = limits.maxTracked - tracked.filter((time) => time > limits.nowMs).length;
	let ahead = 0;
	const judged = candidates.filter(
		({ time, key }) => time <= limits.nowMs || seen.has(key) || ahead++ < roomAhead,
	);

	const datedNow = judged.slice(0, limits.maxItems);
	const undatedNow = undatedPlan.toEmit
		.slice(0, limits.maxItems - datedNow.length)
		.map((key) => ({ key, time: undefined }));
	return {
		toEmit: [...datedNow, ...undatedNow],
		waiting: judged[limits.maxItems],
		unresolvedUndated: undatedPlan.unresolved,
		baseline: {
			floor: state.floor,
			// Unchanged, the saved record is the baseline as it is (commitPoll only reads it): rebuilding it costs a sort.
			seen: changedSeen ? toRecord(changedSeen) : state.seen,
			undated: undatedPlan.table.encode(),
		},
	};
}

/** The read that begins a form's watch: all present is handled but the newest `latest` dated, emitted (On First Poll). */
export function firstRead(
	start: CursorState,
	events: readonly InquiryEvent[],
	options: CursorOptions,
	latest: number,
): CursorStep {
	const { dated, undated } = latestPerKeyAfter(events, BEFORE_EVERY_TIME);
	const newest = new NewestListings<true>(latest);
	for (const [key, time] of dated) newest.offer(key, time, () => true);
	const chosen = newest.oldestFirst().map(({ key, time }) => ({ key, time }));
	const handled: InquiryEvent[] = [];
	for (const [key, time] of dated) if (!newest.get(key)) handled.push({ key, time });
	for (const key of undated) handled.push({ key, time: undefined });
	const limits = limitsOf(options);
	const floor =
		chosen.length === 0 ? start.floor : earlier(start.floor, floorBefore(chosen[0].time));
	return {
		toEmit: chosen.slice(0, limits.maxItems),
		waiting: chosen[limits.maxItems],
		unresolvedUndated: 0,
		baseline: settle({ ...start, floor }, handled, limits, undefined),
	};
}

/** The cursor with the undated inquiries present taken as handled (its table was lost, or they predate the watch). */
export function withUndatedHandled(
	state: CursorState,
	events: readonly InquiryEvent[],
	options: CursorOptions,
): CursorState {
	const { undated } = latestPerKeyAfter(events, state.floor);
	return {
		...state,
		undated: tableOf(undated.map(keyHash), limitsOf(options).undatedCells).encode(),
	};
}

/** Which records of the form's answer to keep as it streams past: those the cursor could emit. */
export function recordsToKeep(
	state: CursorState,
	options: Pick<CursorOptions, 'mode'>,
	unwatched: Spans = [],
): RecordsToKeep {
	const { floor } = state;
	const seen = seenMapOf(state.seen);
	const keeps = ({ key, time }: InquiryEvent) =>
		!isTime(time) ||
		(isAfterFloor(time, key, floor) &&
			isNewSince(seen.get(key), time, options.mode) &&
			!isIn(unwatched, time));
	return { kind: 'matching', keeps };
}

function isIn(spans: Spans, time: number): boolean {
	return spans.some(([from, to]) => time >= from && time < to);
}

/** Whether a dated event after the floor is new: never emitted, or (New or Updated) emitted with an older time. */
function isNewSince(emittedAt: number | undefined, time: number, mode: EventMode): boolean {
	return emittedAt === undefined || (mode === 'newOrUpdated' && time > emittedAt);
}

/** The cursor to save once `emitted` (a prefix of toEmit) went out; an event left unemitted keeps the floor below it. */
export function commitPoll(
	plan: Pick<CursorStep, 'baseline' | 'toEmit' | 'waiting'>,
	emitted: readonly InquiryEvent[],
	options: CursorOptions,
): CursorState {
	return settle(plan.baseline, emitted, limitsOf(options), firstLeftOut(plan, emitted));
}

/** The oldest dated event of the plan not emitted: the first of toEmit's left out, else the plan's waiting one. */
function firstLeftOut(
	plan: Pick<CursorStep, 'toEmit' | 'waiting'>,
	emitted: readonly InquiryEvent[],
): OrderPoint | undefined {
	const emittedAt = new Map(emitted.map(({ key, time }) => [key, time]));
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
	for (const { key, time } of emitted) {
		if (isTime(time)) seen.set(key, Math.max(time, seen.get(key) ?? -Infinity));
		else if (!added.has(key)) {
			added.add(key);
			table.toggle(keyHash(key), 1);
		}
	}
	// With events left for later, the floor may pass every handled key before the first of them, no further.
	let highest = start.floor;
	if (leftOut !== undefined)
		for (const [key, time] of seen)
			if (byTimeThenKey({ time, key }, leftOut) < 0) highest = later(highest, { time, key });
	const floor = raiseFloor(start.floor, seen, limits, leftOut === undefined ? undefined : highest);
	for (const [key, time] of seen) if (!isAfterFloor(time, key, floor)) seen.delete(key);
	// Past the bound of keys dated ahead (only a first read's handled ones get there), the farthest go.
	const ahead = [...seen].filter(([, time]) => time > limits.nowMs).sort((a, b) => b[1] - a[1]);
	for (const [key] of ahead.slice(0, Math.max(0, ahead.length - limits.maxTracked)))
		seen.delete(key);
	return { floor, seen: toRecord(seen), undated: table.encode() };
}

/** Per key, its latest time after `floor` (only the few after it are mapped); and the keys never listed with a time. */
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

/** A first read judges every dated event: no time is at or before this floor. */
const BEFORE_EVERY_TIME = floorBefore(Number.NEGATIVE_INFINITY);

type Limits = ReturnType<typeof limitsOf>;

/** The options with their defaults; callers give whole numbers in range (the planner's come from the checked settings). */
function limitsOf(options: CursorOptions) {
	return {
		maxItems: options.maxItems,
		lookbackMs: options.lookbackMs ?? DEFAULT_LOOKBACK_MS,
		maxTracked: options.maxTracked ?? DEFAULT_MAX_TRACKED,
		undatedCells: options.undatedCells ?? DEFAULT_CELLS_PER_SUBTABLE,
		nowMs: options.nowMs,
	};
}

/** A saved `seen` as a map, made once per record (a poll reads it to keep, plan and commit); states never change. */
const seenMaps = new WeakMap<Record<string, number>, ReadonlyMap<string, number>>();

function seenMapOf(seen: Record<string, number>): ReadonlyMap<string, number> {
	const map = seenMaps.get(seen) ?? new Map(Object.entries(seen));
	seenMaps.set(seen, map);
	return map;
}

/** Sorted for a stable state; by assignment, 20x cheaper than Object.fromEntries; "__proto__" stays a key. */
function toRecord(seen: Map<string, number>): Record<string, number> {
	const entries = [...seen].sort((a, b) => a[1] - b[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
	const record: Record<string, number> = {};
	for (const [key, time] of entries) setOwnValue(record, key, time);
	return record;
}
