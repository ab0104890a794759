import { cursorStateProblem, DEFAULT_LOOKBACK_MS, type CursorState } from '../cursor/cursor';
import { isAfterFloor, raiseFloor } from '../cursor/floor';
import { isRecord, isTime, ownValue } from '../cursor/storedShapes';
import { rhythmProblem, type FormRhythm } from '../quiet/formRhythm';

/**
 * What a trigger saves between polls, and what it keeps of a form it does
 * not read (docs/trigger.md, "Watching every form"). Pure. No single answer
 * shrinks it: a form absent from one list answer, or not watched, keeps its
 * whole cursor until it has been away both long and often enough.
 */
export interface TriggerPosition {
	/** The app and the event (`appId/event`); another app or event starts over. */
	scope: string;
	/** Per form page ID, its cursor: the forms watched and those away. */
	forms: Record<string, CursorState>;
	/** Forms with a cursor that the last polls did not watch: since when, and for how many polls. */
	away: Record<string, Absence>;
	/** Forms whose cursor does not know which undated inquiries were handled: its next read takes those present as handled. */
	undatedUnknown: string[];
	/** When the trigger began to watch every form of the app (or Since, when earlier); kept while it watches one form. */
	allFormsSince?: number;
	/** Page IDs of the forms the last poll did not reach, to read first. */
	leftOver: string[];
	/** Per form, its rhythm of leads, while Alert When Quiet is on (quiet/formRhythm.ts). */
	quiet: Record<string, FormRhythm>;
}

export interface Absence {
	/** When the form was first found away (epoch ms). */
	since: number;
	/** Polls that read the app's list (or watched another form) without it. */
	polls: number;
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

/** The saved format, stored as `v`: raise it with each change of shape or meaning, with its step in migrations.ts. */
export const SAVED_POSITION_VERSION = 5;

/** The scope of a position: another app or another event starts over. */
export function positionScope(appId: string, event: string): string {
	return `${appId}/${event}`;
}

/** What a poll learnt: the forms it watched, the new cursor of each read, those not reached, the rhythms. */
export interface PollFindings {
	listed: readonly string[];
	read: ReadonlyMap<string, CursorState>;
	leftOver: readonly string[];
	/** The rhythm of each form, when Alert When Quiet is on; undefined: none kept. */
	quiet?: ReadonlyMap<string, FormRhythm>;
}

/** The position after a poll: forms read take their new cursor, every other form keeps its own. */
export function nextPosition(
	previous: TriggerPosition | undefined,
	scope: string,
	findings: PollFindings,
	watch: { allForms: boolean; nowMs: number; allFormsSince: number },
): TriggerPosition {
	// Another app or event starts over.
	const saved = previous?.scope === scope ? previous : undefined;
	const listed = new Set(findings.listed);
	const forms: Array<[string, CursorState]> = [];
	for (const pageId of findings.listed) {
		const cursor = findings.read.get(pageId) ?? ownValue(saved?.forms, pageId);
		if (cursor !== undefined) forms.push([pageId, cursor]);
	}

	const awayForms: Array<{ pageId: string; cursor: CursorState; absence: Absence }> = [];
	for (const [pageId, cursor] of Object.entries(saved?.forms ?? {})) {
		if (listed.has(pageId)) continue;
		const before = ownValue(saved?.away, pageId);
		const absence = { since: before?.since ?? watch.nowMs, polls: (before?.polls ?? 0) + 1 };
		if (absence.polls >= FORGET_AFTER_POLLS && watch.nowMs - absence.since >= FORGET_AFTER_MS)
			continue;
		awayForms.push({ pageId, cursor, absence });
	}
	// The most recently gone first: they are the likeliest back.
	awayForms.sort(
		(a, b) =>
			b.absence.since - a.absence.since || (a.pageId < b.pageId ? -1 : a.pageId > b.pageId ? 1 : 0),
	);

	const unknown = new Set(
		(saved?.undatedUnknown ?? []).filter((pageId) => !findings.read.has(pageId)),
	);
	const away: Array<[string, Absence]> = [];
	const watched = forms.length;
	awayForms.forEach(({ pageId, cursor, absence }, index) => {
		const rank = watched + index;
		if (rank >= MAX_WHOLE_CURSORS + MAX_SMALL_CURSORS) return;
		const small =
			rank >= MAX_WHOLE_CURSORS ||
			(absence.polls >= SHRINK_AFTER_POLLS && watch.nowMs - absence.since >= SHRINK_AFTER_MS);
		forms.push([pageId, small ? compactCursor(cursor, absence.since) : cursor]);
		if (small) unknown.add(pageId);
		away.push([pageId, absence]);
	});

	const remembered = new Set(forms.map(([pageId]) => pageId));
	const quiet: Array<[string, FormRhythm]> = [];
	for (const [pageId, rhythm] of findings.quiet ?? [])
		if (remembered.has(pageId)) quiet.push([pageId, rhythm]);
	const allFormsSince = watch.allForms
		? (saved?.allFormsSince ?? watch.allFormsSince)
		: saved?.allFormsSince;
	return {
		scope,
		forms: Object.fromEntries(forms),
		away: Object.fromEntries(away),
		undatedUnknown: [...unknown].filter((pageId) => remembered.has(pageId)).sort(),
		...(allFormsSince === undefined ? {} : { allFormsSince }),
		leftOver: [...findings.leftOver],
		quiet: Object.fromEntries(quiet),
	};
}

/**
 * A small cursor for a form long away: its newest keys, the floor raised as
 * the cursor raises it (capped at when it left), no undated table. Back, the
 * form loses older late arrivals and undated leads of its absence.
 */
export function compactCursor(cursor: CursorState, awaySince: number): CursorState {
	const seen = new Map(Object.entries(cursor.seen));
	const floor = raiseFloor(
		cursor.floor,
		seen,
		{ lookbackMs: DEFAULT_LOOKBACK_MS, maxTracked: SMALL_CURSOR_KEYS, nowMs: awaySince },
		undefined,
	);
	const newest: Array<[string, number]> = [];
	for (const [key, time] of seen) if (isAfterFloor(time, key, floor)) newest.push([key, time]);
	return { floor, seen: Object.fromEntries(newest), undated: '' };
}

/** What keeps a stored value from being a position of the current format, in words for an error; undefined if nothing. */
export function positionProblem(value: unknown): string | undefined {
	if (!isRecord(value)) return 'it is not an object';
	if (value.v !== SAVED_POSITION_VERSION) return `its format is not v${SAVED_POSITION_VERSION}`;
	if (typeof value.scope !== 'string') return '"scope" is not text';
	if (!isRecord(value.forms)) return '"forms" is not an object';
	for (const [pageId, cursor] of Object.entries(value.forms)) {
		const problem = cursorStateProblem(cursor);
		if (problem !== undefined) return `the cursor of form ${pageId} is not readable: ${problem}`;
	}
	if (!isRecord(value.away)) return '"away" is not an object';
	for (const absence of Object.values(value.away)) {
		if (
			!isRecord(absence) ||
			!isTime(absence.since) ||
			!Number.isSafeInteger(absence.polls) ||
			(absence.polls as number) < 0
		) {
			return '"away" holds a form without its time and polls away';
		}
	}
	if (!isTextList(value.undatedUnknown)) return '"undatedUnknown" is not a list of forms';
	if (value.allFormsSince !== undefined && !isTime(value.allFormsSince))
		return '"allFormsSince" is not a time';
	if (!isTextList(value.leftOver)) return '"leftOver" is not a list of forms';
	if (!isRecord(value.quiet)) return '"quiet" is not an object';
	for (const [pageId, rhythm] of Object.entries(value.quiet)) {
		const problem = rhythmProblem(rhythm);
		if (problem !== undefined) return `the rhythm of form ${pageId} is not readable: ${problem}`;
	}
	return undefined;
}

function isTextList(value: unknown): value is string[] {
	return Array.isArray(value) && value.every((entry) => typeof entry === 'string');
}
