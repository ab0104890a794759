import { CURSOR_STATE_VERSION, cursorStateProblem, DEFAULT_LOOKBACK_MS, type CursorState } from '../cursor/cursor';
import { isAfterFloor, raiseFloor, startOf } from '../cursor/floor';

/**
 * What a trigger saves between polls, and the one rule for how each form
 * starts and for what the trigger keeps of a form it does not read. Pure.
 * The rules in a user's words: docs/trigger.md, "Watching every form".
 *
 * No single answer shrinks it: a form absent from the app's list (an empty
 * or absent list, a form unpublished for a while) or not watched (Watch set
 * to One Form) keeps its whole cursor, and carries on from it when it is
 * read again, exactly as a form that never left. A form away for both
 * SHRINK_AFTER_MS and SHRINK_AFTER_POLLS, or past MAX_WHOLE_CURSORS forms,
 * keeps a small cursor (compactCursor), which still emits nothing twice;
 * only one away for both FORGET_AFTER_MS and FORGET_AFTER_POLLS, or past
 * MAX_SMALL_CURSORS more, is forgotten.
 */
export interface TriggerPosition {
	/** The app and the event (`appId/event`); another app or event starts over. */
	scope: string;
	/** Per form page ID, its cursor: the forms watched and those away. */
	forms: Record<string, FormCursor>;
	/** Forms with a cursor that the last polls did not watch: since when, and for how many polls. */
	away: Record<string, Absence>;
	/** Forms whose cursor does not know which undated inquiries were handled: its next read takes those present as handled. */
	undatedUnknown: string[];
	/** When the trigger began to watch every form of the app (or Since, when earlier); kept while it watches one form. */
	allFormsSince?: number;
	/** Page IDs of the forms the last poll did not reach, to read first. */
	leftOver: string[];
}

/** A form's cursor as saved: the cursor state without its format version and scope. */
export type FormCursor = Omit<CursorState, 'v' | 'scope'>;

export interface Absence {
	/** When the form was first found away (epoch ms). */
	since: number;
	/** Polls that read the app's list (or watched another form) without it. */
	polls: number;
}

/**
 * How a form's read starts: with a cursor (its own, or one that takes
 * everything from a time on), or with the cursor's first poll as On First
 * Poll says (nothing, or the latest few).
 */
export type FormStart = { kind: 'first-poll' } | { kind: 'cursor'; cursor: FormCursor; undatedUnknown: boolean };

/** What the trigger watches this poll, as far as how a form starts depends on it. */
export interface Watch {
	allForms: boolean;
	/** On First Poll set to a date: Since (epoch ms). */
	firstPollSince: number | undefined;
}

const DAY_MS = 24 * 60 * 60 * 1000;
/** A form away this long and for this many polls keeps a small cursor (both must be reached). */
export const SHRINK_AFTER_MS = 90 * DAY_MS;
export const SHRINK_AFTER_POLLS = 1000;
/** A form away this long and for this many polls is forgotten (both must be reached). */
export const FORGET_AFTER_MS = 365 * DAY_MS;
export const FORGET_AFTER_POLLS = 10_000;
/** Whole cursors kept at most: an app lists at most this many forms (appForms.ts). */
export const MAX_WHOLE_CURSORS = 1000;
/** Forms away past the whole cursors keep a small one (compactCursor); past this many more, the longest away are forgotten. */
export const MAX_SMALL_CURSORS = 1000;
/** Emitted keys a small cursor keeps: its newest. */
export const SMALL_CURSOR_KEYS = 10;

/**
 * The format of the saved position, stored in it as `v` (see
 * cursorStateVersions.ts). v1 and v2 were one form's cursor state; v3 a
 * position over forms that kept only where a removed form stopped; v4 keeps
 * every form's cursor and records when the watch of every form began.
 */
export const SAVED_POSITION_VERSION = 4;

/** The scope of a position: another app or another event starts over. */
export function positionScope(appId: string, event: string): string {
	return `${appId}/${event}`;
}

/**
 * How a form starts, the one rule (see docs/trigger.md): with its cursor;
 * else, watching every form of an app whose watch began in an earlier
 * poll, with what was submitted since the watch began (a form added later,
 * or one whose first reads failed); else as On First Poll says.
 */
export function formStart(position: TriggerPosition | undefined, pageId: string, watch: Watch, undatedUnknown: ReadonlySet<string>): FormStart {
	const cursor = ownValue(position?.forms, pageId);
	if (cursor !== undefined) return { kind: 'cursor', cursor, undatedUnknown: undatedUnknown.has(pageId) };
	const from = (watch.allForms ? position?.allFormsSince : undefined) ?? watch.firstPollSince;
	if (from === undefined) return { kind: 'first-poll' };
	// From a time on: nothing was emitted after it; undated inquiries present have no time to tell them new, so are handled.
	return { kind: 'cursor', cursor: { floor: startOf(from), seen: {}, undated: '' }, undatedUnknown: true };
}

/** What a poll learnt: the cursors of the forms it read, and the forms it did not reach. */
export interface PollFindings {
	/** Every form the poll watched: the app's forms as listed, or the one form. */
	listed: readonly string[];
	/** The new cursor of each form read successfully. */
	read: ReadonlyMap<string, FormCursor>;
	/** Forms not reached, in reading order. */
	leftOver: readonly string[];
}

/**
 * The position after a poll. Forms read take their new cursor; every other
 * form keeps its own, and those not watched now count as away; forms away
 * long enough are forgotten, and past MAX_WHOLE_CURSORS forms the longest
 * away keep a small cursor.
 */
export function nextPosition(
	previous: TriggerPosition | undefined,
	scope: string,
	findings: PollFindings,
	watch: { allForms: boolean; nowMs: number; allFormsSince: number },
): TriggerPosition {
	const kept = previous?.scope === scope ? previous : undefined;
	const listed = new Set(findings.listed);
	// Entries, then fromEntries: page IDs come from stored data, and an own "__proto__" key must stay a key.
	const forms: Array<[string, FormCursor]> = [];
	for (const pageId of findings.listed) {
		const cursor = findings.read.get(pageId) ?? ownValue(kept?.forms, pageId);
		if (cursor !== undefined) forms.push([pageId, cursor]);
	}

	const awayForms: Array<{ pageId: string; cursor: FormCursor; absence: Absence }> = [];
	for (const [pageId, cursor] of Object.entries(kept?.forms ?? {})) {
		if (listed.has(pageId)) continue;
		const before = ownValue(kept?.away, pageId);
		const absence = { since: before?.since ?? watch.nowMs, polls: (before?.polls ?? 0) + 1 };
		if (absence.polls >= FORGET_AFTER_POLLS && watch.nowMs - absence.since >= FORGET_AFTER_MS) continue;
		awayForms.push({ pageId, cursor, absence });
	}
	// The most recently gone first: they are the likeliest back.
	awayForms.sort((a, b) => b.absence.since - a.absence.since || (a.pageId < b.pageId ? -1 : a.pageId > b.pageId ? 1 : 0));

	const unknown = new Set((kept?.undatedUnknown ?? []).filter((pageId) => !findings.read.has(pageId)));
	const away: Array<[string, Absence]> = [];
	const watched = forms.length;
	awayForms.forEach(({ pageId, cursor, absence }, index) => {
		const rank = watched + index;
		if (rank >= MAX_WHOLE_CURSORS + MAX_SMALL_CURSORS) return;
		const small = rank >= MAX_WHOLE_CURSORS || (absence.polls >= SHRINK_AFTER_POLLS && watch.nowMs - absence.since >= SHRINK_AFTER_MS);
		forms.push([pageId, small ? compactCursor(cursor, absence.since) : cursor]);
		if (small) unknown.add(pageId);
		away.push([pageId, absence]);
	});

	const remembered = new Set(forms.map(([pageId]) => pageId));
	const allFormsSince = watch.allForms ? (kept?.allFormsSince ?? watch.allFormsSince) : kept?.allFormsSince;
	return {
		scope,
		forms: Object.fromEntries(forms),
		away: Object.fromEntries(away),
		undatedUnknown: [...unknown].filter((pageId) => remembered.has(pageId)).sort(),
		...(allFormsSince === undefined ? {} : { allFormsSince }),
		leftOver: [...findings.leftOver],
	};
}

/**
 * A cursor made small for a form long away: its newest SMALL_CURSOR_KEYS
 * emitted keys, the floor raised as the cursor raises it (within the
 * lookback of its newest time, capped at when it left, so a record dated in
 * the future hides nothing), and no table of undated inquiries (the next
 * read takes those present as handled). What it loses, if the form comes
 * back: late arrivals older than those keys, and undated inquiries
 * submitted while it was away.
 */
export function compactCursor(cursor: FormCursor, awaySince: number): FormCursor {
	const seen = new Map(Object.entries(cursor.seen));
	const floor = raiseFloor(cursor.floor, seen, { lookbackMs: DEFAULT_LOOKBACK_MS, maxTracked: SMALL_CURSOR_KEYS, nowMs: awaySince }, undefined);
	const kept: Array<[string, number]> = [];
	for (const [key, time] of seen) if (isAfterFloor(time, key, floor)) kept.push([key, time]);
	return { floor, seen: Object.fromEntries(kept), undated: '' };
}

/** What keeps a stored value from being a position of the current format, in words for an error; undefined if nothing. */
export function positionProblem(value: unknown): string | undefined {
	if (!isRecord(value)) return 'it is not an object';
	if (value.v !== SAVED_POSITION_VERSION) return `its format is not v${SAVED_POSITION_VERSION}`;
	if (typeof value.scope !== 'string') return '"scope" is not text';
	if (!isRecord(value.forms)) return '"forms" is not an object';
	for (const [pageId, cursor] of Object.entries(value.forms)) {
		const problem = cursorStateProblem(isRecord(cursor) ? { ...cursor, v: CURSOR_STATE_VERSION, scope: 'form' } : cursor);
		if (problem !== undefined) return `the cursor of form ${pageId} is not readable: ${problem}`;
	}
	if (!isRecord(value.away)) return '"away" is not an object';
	for (const absence of Object.values(value.away)) {
		if (!isRecord(absence) || !isTime(absence.since) || !Number.isSafeInteger(absence.polls) || (absence.polls as number) < 0) {
			return '"away" holds a form without its time and polls away';
		}
	}
	if (!isTextList(value.undatedUnknown)) return '"undatedUnknown" is not a list of forms';
	if (value.allFormsSince !== undefined && !isTime(value.allFormsSince)) return '"allFormsSince" is not a time';
	if (!isTextList(value.leftOver)) return '"leftOver" is not a list of forms';
	return undefined;
}

function isRecord(value: unknown): value is Record<string, unknown> {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isTime(value: unknown): value is number {
	return typeof value === 'number' && Number.isFinite(value);
}

function isTextList(value: unknown): value is string[] {
	return Array.isArray(value) && value.every((entry) => typeof entry === 'string');
}

function ownValue<T>(record: Record<string, T> | undefined, key: string): T | undefined {
	return record !== undefined && Object.prototype.hasOwnProperty.call(record, key) ? record[key] : undefined;
}
