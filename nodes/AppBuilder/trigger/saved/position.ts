import { cursorStateProblem, DEFAULT_LOOKBACK_MS, type CursorState } from '../cursor/cursor';
import { floorBefore, isAfterFloor, later, raiseFloor, type OrderPoint } from '../cursor/floor';
import { isRecord, isTime, ownValue } from '../cursor/storedShapes';
import { rhythmProblem, type FormRhythm } from '../quiet/formRhythm';

/**
 * What a trigger saves between polls, and what it keeps of a form it does
 * not read (docs/trigger.md, "Watching every form of an app"). Pure. No single answer
 * shrinks it: a form absent from one list answer, or taken out of the
 * trigger's settings (Watch: One Form, another form), keeps its whole
 * cursor until it has been away both long and often enough.
 */
export interface TriggerPosition {
	/** The app and the event (`appId/event`); another app or event starts over. */
	scope: string;
	/** Per form page ID, its cursor: the forms listed (read or not) and those away. */
	forms: Record<string, CursorState>;
	/** Forms not read because the app's list or the settings leave them out: since when, for how many polls. */
	away: Record<string, Absence>;
	/** Forms whose cursor does not know which undated inquiries were handled: its next read takes those present as handled. */
	undatedUnknown: string[];
	/** When the trigger began to watch every form of the app (or Since, when earlier); absent under One Form. */
	allFormsSince?: number;
	/** Page IDs of the forms the last poll did not reach, to read first. */
	leftOver: string[];
	/** Per form, its rhythm of leads, while Alert When Quiet is on (quiet/formRhythm.ts). */
	quiet: Record<string, FormRhythm>;
}

export interface Absence {
	/** When the form was first found away (epoch ms). */
	since: number;
	/** Polls saved without it. */
	polls: number;
}

const DAY_MS = 24 * 60 * 60 * 1000;
/** A form away this long and for this many polls keeps a small cursor (both must be reached). */
export const SHRINK_AWAY_FORM_AFTER_MS = 90 * DAY_MS;
export const SHRINK_AWAY_FORM_AFTER_POLLS = 1000;
/** A form away this long and for this many polls is forgotten (forgottenCursor; both must be reached). */
export const FORGET_AWAY_FORM_AFTER_MS = 365 * DAY_MS;
export const FORGET_AWAY_FORM_AFTER_POLLS = 10_000;
/** Whole cursors kept at most: an app lists at most this many forms (appForms.ts). */
export const MAX_WHOLE_CURSORS = 1000;
/** Forms away past the whole cursors keep a small one (compactCursor); past this many more, the longest away are dropped. */
export const MAX_SMALL_CURSORS = 1000;
/** Emitted keys a small cursor keeps: its newest. */
export const SMALL_CURSOR_KEYS = 10;

/** The saved format, stored as `v`: raise it with each change of shape or meaning, with its step in migrations.ts. */
export const SAVED_POSITION_VERSION = 6;

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

/** The watch rule as the position needs it (plan/watch.ts). */
export interface WatchedForms {
	/** Whether the settings watch a form now (a form they leave out keeps its cursor as it is). */
	watches(pageId: string): boolean;
	/** What a watched form keeps when it is not read: its cursor, or where its watch starts. */
	startOf(pageId: string): { cursor: CursorState; undatedUnknown: boolean };
	allFormsSince: number | undefined;
	nowMs: number;
}

/** The position after a poll: forms read take their new cursor, every other form watched keeps its start. */
export function nextPosition(
	previous: TriggerPosition | undefined,
	scope: string,
	findings: PollFindings,
	watch: WatchedForms,
): TriggerPosition {
	// Another app or event starts over.
	const saved = previous?.scope === scope ? previous : undefined;
	const { nowMs } = watch;
	const listed = new Set(findings.listed);
	const forms: Array<[string, CursorState]> = [];
	const unknown = new Set<string>();
	for (const pageId of findings.listed) {
		const read = findings.read.get(pageId);
		const start = read === undefined ? watch.startOf(pageId) : undefined;
		forms.push([pageId, read ?? (start as { cursor: CursorState }).cursor]);
		if (start?.undatedUnknown) unknown.add(pageId);
	}

	const awayForms: Array<{ pageId: string; cursor: CursorState; absence: Absence }> = [];
	for (const [pageId, savedCursor] of Object.entries(saved?.forms ?? {})) {
		if (listed.has(pageId)) continue;
		// Watched but not listed, it starts as the watch rule says (back in the watch: from now on).
		const start = watch.watches(pageId) ? watch.startOf(pageId) : undefined;
		const cursor = start?.cursor ?? savedCursor;
		if (start?.undatedUnknown) unknown.add(pageId);
		const before = ownValue(saved?.away, pageId);
		awayForms.push({
			pageId,
			cursor,
			absence: { since: before?.since ?? nowMs, polls: (before?.polls ?? 0) + 1 },
		});
	}
	// The most recently gone first: they are the likeliest back.
	awayForms.sort(
		(a, b) =>
			b.absence.since - a.absence.since || (a.pageId < b.pageId ? -1 : a.pageId > b.pageId ? 1 : 0),
	);

	const away: Array<[string, Absence]> = [];
	const wasUnknown = new Set(saved?.undatedUnknown ?? []);
	awayForms.forEach(({ pageId, cursor, absence }, index) => {
		const rank = findings.listed.length + index;
		if (rank >= MAX_WHOLE_CURSORS + MAX_SMALL_CURSORS) return;
		const awayFor = (polls: number, ms: number) =>
			absence.polls >= polls && nowMs - absence.since >= ms;
		const forgotten = awayFor(FORGET_AWAY_FORM_AFTER_POLLS, FORGET_AWAY_FORM_AFTER_MS);
		const small =
			forgotten ||
			rank >= MAX_WHOLE_CURSORS ||
			awayFor(SHRINK_AWAY_FORM_AFTER_POLLS, SHRINK_AWAY_FORM_AFTER_MS);
		forms.push([
			pageId,
			forgotten
				? forgottenCursor(cursor, nowMs)
				: small
					? compactCursor(cursor, absence.since)
					: cursor,
		]);
		if (small || wasUnknown.has(pageId)) unknown.add(pageId);
		away.push([pageId, absence]);
	});

	const remembered = new Set(forms.map(([pageId]) => pageId));
	const quiet: Array<[string, FormRhythm]> = [];
	for (const [pageId, rhythm] of findings.quiet ?? [])
		if (remembered.has(pageId)) quiet.push([pageId, rhythm]);
	return {
		scope,
		forms: Object.fromEntries(forms),
		away: Object.fromEntries(away),
		undatedUnknown: [...unknown].sort(),
		...(watch.allFormsSince === undefined ? {} : { allFormsSince: watch.allFormsSince }),
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
	return newestOf(cursor, SMALL_CURSOR_KEYS, awaySince);
}

/** A form forgotten: no key older than now, and a floor that follows the clock, so back it starts at its return. */
export function forgottenCursor(cursor: CursorState, nowMs: number): CursorState {
	const small = compactCursor(cursor, nowMs);
	return withFloor(small, later(small.floor, floorBefore(nowMs)));
}

function newestOf(cursor: CursorState, keys: number, capAt: number): CursorState {
	const floor = raiseFloor(
		cursor.floor,
		new Map(Object.entries(cursor.seen)),
		{ lookbackMs: DEFAULT_LOOKBACK_MS, maxTracked: keys, nowMs: capAt },
		undefined,
	);
	return withFloor(cursor, floor);
}

/** The cursor at `floor`, keeping the keys after it and no undated table. */
function withFloor(cursor: CursorState, floor: OrderPoint): CursorState {
	const after = Object.entries(cursor.seen).filter(([key, time]) => isAfterFloor(time, key, floor));
	return { floor, seen: Object.fromEntries(after), undated: '' };
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
