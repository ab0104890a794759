import { inquiryKey } from './identity';
import type { RawInquiry } from './inquiry.types';
import { toEpochMillis } from './timestamps';

/**
 * What is new since the last poll. FormBuilderApi returns every inquiry of a
 * form, unsorted, with no "since" filter, so the trigger keeps a cursor: a
 * small JSON state in the workflow's static data.
 *
 * The state is a floor time and the set of keys emitted at or after it:
 * - an event is emitted when its time is >= floor and its key was not emitted
 *   (mode "new"), or was emitted with an older time (mode "newOrUpdated");
 * - events with time < floor are taken as already handled and never emitted;
 * - after each poll the floor rises to (newest emitted time, capped at now)
 *   minus the lookback, and further if more than maxTracked keys remain,
 *   always by whole timestamp groups, so ties are never split.
 * Invariant: every key emitted with time >= floor is in `seen`, so nothing
 * at or above the floor is emitted twice, and an event that is not emitted in
 * a poll (maxItems, poll budget) stays >= floor and is emitted by a later
 * poll, because events are emitted oldest first.
 *
 * Late arrivals (an inquiry that shows up with an older timestamp than ones
 * already emitted) are caught when their time is still >= floor: within the
 * lookback of the newest emitted inquiry, and not older than the oldest of
 * the last maxTracked emitted ones. The bound keeps the state small; the
 * lookback is what it buys.
 *
 * Inquiries without a usable timestamp are remembered by key in `undated`
 * (the newest maxUndated of them), so they are emitted once.
 *
 * Size: at most maxTracked entries in `seen` (more only when a single
 * timestamp holds more inquiries than that) plus maxUndated keys: about
 * maxTracked × (key length + 18) + maxUndated × (key length + 3) bytes of JSON,
 * under 50 KB with the defaults and 24-character ids, whatever the form's size.
 */
export type EventMode = 'new' | 'newOrUpdated';

export interface CursorEvent {
	key: string;
	/** Epoch ms of the submission (mode new) or of the last change (newOrUpdated); undefined when unknown. */
	time: number | undefined;
}

export interface CursorState {
	v: 1;
	/** What the state belongs to (app, form, event); another scope means a fresh start. */
	scope: string;
	floor: number;
	seen: Record<string, number>;
	undated: string[];
}

export type FirstPoll = { kind: 'none' } | { kind: 'latest'; count: number };

export interface CursorOptions {
	mode: EventMode;
	firstPoll: FirstPoll;
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

export interface PollPlan {
	isFirstPoll: boolean;
	/** Oldest first (by time, then key); undated events last. */
	toEmit: CursorEvent[];
	/** On a first poll: the state that records everything present as handled. Commit emitted events onto it. */
	baseline?: CursorState;
}

export function toCursorEvent(record: unknown, mode: EventMode): CursorEvent {
	const raw = (typeof record === 'object' && record !== null ? record : {}) as RawInquiry;
	const added = toEpochMillis(raw.addedon);
	const updated = toEpochMillis(raw.updatedon);
	let time: number | undefined;
	if (mode === 'new') time = added ?? updated;
	else time = added === undefined ? updated : updated === undefined ? added : Math.max(added, updated);
	return { key: inquiryKey(record), time };
}

/** A stored value, if it is a cursor state this version understands. */
export function parseCursorState(value: unknown): CursorState | undefined {
	if (typeof value !== 'object' || value === null) return undefined;
	const state = value as Partial<CursorState>;
	if (
		state.v !== 1 ||
		typeof state.scope !== 'string' ||
		typeof state.floor !== 'number' ||
		typeof state.seen !== 'object' ||
		state.seen === null ||
		!Array.isArray(state.undated)
	) {
		return undefined;
	}
	return state as CursorState;
}

export function planPoll(
	state: CursorState | undefined,
	events: CursorEvent[],
	options: CursorOptions,
	scope: string,
): PollPlan {
	const latest = latestPerKey(events);
	const dated = latest.filter((event) => event.time !== undefined).sort(byTimeThenKey);
	const undated = latest.filter((event) => event.time === undefined);

	if (!isUsable(state, scope)) {
		const count = options.firstPoll.kind === 'latest' ? Math.max(0, options.firstPoll.count) : 0;
		const toEmit = count > 0 ? dated.slice(-count) : [];
		const handled = dated.slice(0, dated.length - toEmit.length);
		const baseline = commitPoll(emptyState(scope), [...handled, ...undated], options, scope);
		return { isFirstPoll: true, toEmit: toEmit.slice(0, Math.max(1, options.maxItems)), baseline };
	}

	const seen = state.seen;
	const undatedSeen = new Set(state.undated);
	const isNew = (event: CursorEvent): boolean => {
		const time = event.time as number;
		if (time < state.floor) return false;
		const previous = Object.prototype.hasOwnProperty.call(seen, event.key) ? seen[event.key] : undefined;
		if (previous === undefined) return true;
		return options.mode === 'newOrUpdated' && time > previous;
	};
	const toEmit = [
		...dated.filter(isNew),
		...undated.filter((event) => !undatedSeen.has(event.key)),
	].slice(0, Math.max(1, options.maxItems));
	return { isFirstPoll: false, toEmit };
}

/** Records the events actually emitted and prunes. Pure: returns a new state. */
export function commitPoll(
	base: CursorState | undefined,
	emitted: CursorEvent[],
	options: CursorOptions,
	scope: string,
): CursorState {
	const start = isUsable(base, scope) ? base : emptyState(scope);
	const seen: Record<string, number> = Object.create(null) as Record<string, number>;
	for (const [key, time] of Object.entries(start.seen)) seen[key] = time;
	const undated = [...start.undated];

	for (const event of emitted) {
		if (event.time === undefined) {
			if (!undated.includes(event.key)) undated.push(event.key);
			continue;
		}
		const previous = seen[event.key];
		seen[event.key] = previous === undefined ? event.time : Math.max(previous, event.time);
	}

	const floor = raiseFloor(start.floor, seen, options);
	const kept: Record<string, number> = {};
	for (const key of Object.keys(seen).sort()) {
		if (seen[key] >= floor) kept[key] = seen[key];
	}
	const maxUndated = options.maxUndated ?? DEFAULT_MAX_UNDATED;
	return {
		v: 1,
		scope,
		floor,
		seen: kept,
		undated: undated.slice(Math.max(0, undated.length - maxUndated)),
	};
}

function raiseFloor(current: number, seen: Record<string, number>, options: CursorOptions): number {
	const times = Object.values(seen);
	if (times.length === 0) return current;
	const lookback = options.lookbackMs ?? DEFAULT_LOOKBACK_MS;
	const maxTracked = Math.max(1, options.maxTracked ?? DEFAULT_MAX_TRACKED);
	// A loop, not Math.max(...times): spreading a big form's times overflows the call stack.
	let newest = -Infinity;
	for (const time of times) if (time > newest) newest = time;
	const anchor = options.nowMs === undefined ? newest : Math.min(newest, options.nowMs);
	let floor = Math.max(current, anchor - lookback);

	const inWindow = times.filter((time) => time >= floor);
	if (inWindow.length > maxTracked) {
		// Keep the newest whole timestamp groups that fit; the newest group always stays.
		const counts = new Map<number, number>();
		for (const time of inWindow) counts.set(time, (counts.get(time) ?? 0) + 1);
		const groups = [...counts.keys()].sort((a, b) => b - a);
		let total = 0;
		let lowestKept = groups[0];
		for (const time of groups) {
			const size = counts.get(time) as number;
			if (total + size > maxTracked && total > 0) break;
			total += size;
			lowestKept = time;
		}
		floor = Math.max(floor, lowestKept);
	}
	return floor;
}

function latestPerKey(events: CursorEvent[]): CursorEvent[] {
	const byKey = new Map<string, CursorEvent>();
	for (const event of events) {
		const previous = byKey.get(event.key);
		if (
			previous === undefined ||
			(event.time !== undefined && (previous.time === undefined || event.time > previous.time))
		) {
			byKey.set(event.key, event);
		}
	}
	return [...byKey.values()];
}

function byTimeThenKey(a: CursorEvent, b: CursorEvent): number {
	const difference = (a.time as number) - (b.time as number);
	if (difference !== 0) return difference;
	return a.key < b.key ? -1 : a.key > b.key ? 1 : 0;
}

function isUsable(state: CursorState | undefined, scope: string): state is CursorState {
	return state !== undefined && state.v === 1 && state.scope === scope;
}

function emptyState(scope: string): CursorState {
	return { v: 1, scope, floor: 0, seen: {}, undated: [] };
}
