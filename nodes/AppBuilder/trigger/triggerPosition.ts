import { CURSOR_STATE_VERSION, cursorStateProblem, type CursorState } from './cursor';

/**
 * What a trigger saves between polls: per form it watches, that form's
 * cursor (cursor.ts), and, while it watches every form of an app, what it
 * needs to treat the app's forms as they come and go. Pure.
 *
 * - A form read for the first time in the trigger's first poll starts as
 *   On First Poll says (nothing, the latest few, or everything since a
 *   date).
 * - A form of a watched app read for the first time later (a form added to
 *   the app, or one whose first reads failed) starts at the time the
 *   trigger began to watch the app: its leads submitted since then are
 *   emitted, none is skipped because the form was new.
 * - A form that leaves the app's list is dropped from the saved state; only
 *   where it stopped is kept (its newest emitted time and the keys at that
 *   time), so that if it comes back it carries on from there instead of
 *   emitting its old leads again, and keeps it until a poll reads the form
 *   again. At most MAX_GONE_FORMS of those are kept.
 * - Forms a poll did not reach (n8n's poll budget ran out) are read first in
 *   the next poll.
 */
export interface TriggerPosition {
	/** The app and the event (`appId/event`); another app or event starts over. */
	scope: string;
	/** Per form page ID, its cursor. */
	forms: Record<string, FormCursor>;
	/** Present while the trigger watches every form of the app. */
	app?: AppWatch;
}

/** A form's cursor as saved: the cursor state without its format version and scope. */
export type FormCursor = Omit<CursorState, 'v' | 'scope'>;

export interface AppWatch {
	/** When the trigger began to watch every form of the app (epoch ms). */
	since: number;
	/** Page IDs of the forms the last poll did not reach, to read first. */
	leftOver: string[];
	/** Forms that left the app's list, and those back in it not read since: where each stopped. */
	gone: Record<string, StoppedAt>;
}

export interface StoppedAt {
	/** The newest time the form's cursor had emitted (or taken as handled). */
	time: number;
	/** The keys emitted at exactly that time. */
	keys: string[];
}

/** How a form's first read starts: as On First Poll says, or with what was submitted from a time on. */
export type FormStart = { kind: 'first-poll' } | { kind: 'since'; time: number; keysAtTime: string[] };

export const MAX_GONE_FORMS = 100;

/**
 * The format of the saved position, stored in it as `v` (see
 * cursorStateVersions.ts). v1 and v2 were one form's cursor state; v3 is a
 * TriggerPosition whose forms hold v2 cursor bodies.
 */
export const SAVED_POSITION_VERSION = 3;

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
	if (value.app === undefined) return undefined;
	if (!isRecord(value.app)) return '"app" is not an object';
	const { since, leftOver, gone } = value.app;
	if (typeof since !== 'number' || !Number.isFinite(since)) return '"app.since" is not a time';
	if (!Array.isArray(leftOver) || !leftOver.every((pageId) => typeof pageId === 'string')) return '"app.leftOver" is not a list of forms';
	if (!isRecord(gone)) return '"app.gone" is not an object';
	for (const stopped of Object.values(gone)) {
		if (!isRecord(stopped) || typeof stopped.time !== 'number' || !Number.isFinite(stopped.time)) return '"app.gone" holds a form without a time';
		if (!Array.isArray(stopped.keys) || !stopped.keys.every((key) => typeof key === 'string')) return '"app.gone" holds a form whose keys are not text';
	}
	return undefined;
}

/**
 * The step from v2 (one form's cursor, scope "appId/pageId/event") to v3:
 * the same cursor as the one form of a position scoped "appId/event".
 */
export function positionFromSingleForm(state: Readonly<Record<string, unknown>>): Record<string, unknown> {
	const scope = typeof state.scope === 'string' ? state.scope : '';
	const eventAt = scope.lastIndexOf('/');
	const pageAt = scope.lastIndexOf('/', eventAt - 1);
	if (eventAt <= 0 || pageAt <= 0) throw new Error('its scope names no app, form and event');
	const cursor = { floor: state.floor, seen: state.seen, undated: state.undated };
	return { scope: `${scope.slice(0, pageAt)}/${scope.slice(eventAt + 1)}`, forms: { [scope.slice(pageAt + 1, eventAt)]: cursor } };
}

/** The scope of a position: another app or another event starts over. */
export function positionScope(appId: string, event: string): string {
	return `${appId}/${event}`;
}

/** How the form starts that has no cursor in `position` (undefined when the trigger starts over). */
export function formStart(position: TriggerPosition | undefined, pageId: string): FormStart {
	const app = position?.app;
	if (app === undefined) return { kind: 'first-poll' };
	const stopped = Object.prototype.hasOwnProperty.call(app.gone, pageId) ? app.gone[pageId] : undefined;
	if (stopped !== undefined) return { kind: 'since', time: stopped.time, keysAtTime: stopped.keys };
	return { kind: 'since', time: app.since, keysAtTime: [] };
}

/** What a poll learnt: the cursors of the forms it read, and the forms it did not reach. */
export interface PollFindings {
	/** Every form the poll watched, as listed (all the app's forms, or the one form). */
	listed: readonly string[];
	/** The new cursor of each form read successfully. */
	read: ReadonlyMap<string, FormCursor>;
	/** Forms not reached, in reading order. */
	leftOver: readonly string[];
}

/**
 * The position after a poll. Forms that failed or were not reached keep
 * their cursor; forms no longer listed are dropped (for a watched app, with
 * where they stopped); the rest take their new cursor.
 */
export function nextPosition(
	previous: TriggerPosition | undefined,
	scope: string,
	findings: PollFindings,
	watch: { allForms: boolean; nowMs: number },
): TriggerPosition {
	const kept = previous?.scope === scope ? previous : undefined;
	const listed = new Set(findings.listed);
	// Entries, then fromEntries: page IDs come from stored data, and an own "__proto__" key must stay a key.
	const forms: Array<[string, FormCursor]> = [];
	for (const pageId of findings.listed) {
		const cursor = findings.read.get(pageId) ?? ownValue(kept?.forms, pageId);
		if (cursor !== undefined) forms.push([pageId, cursor]);
	}
	if (!watch.allForms) return { scope, forms: Object.fromEntries(forms) };

	// A form back in the list keeps where it stopped until a poll reads it: one that fails or is not
	// reached would otherwise start again from when the watch began and emit its old leads again.
	const withCursor = new Set(forms.map(([pageId]) => pageId));
	const gone = new Map<string, StoppedAt>();
	for (const [pageId, stopped] of Object.entries(kept?.app?.gone ?? {})) if (!withCursor.has(pageId)) gone.set(pageId, stopped);
	for (const [pageId, cursor] of Object.entries(kept?.forms ?? {})) {
		if (!listed.has(pageId)) gone.set(pageId, stoppedAt(cursor));
	}
	return {
		scope,
		forms: Object.fromEntries(forms),
		app: { since: kept?.app?.since ?? watch.nowMs, leftOver: [...findings.leftOver], gone: newestGone(gone) },
	};
}

/** Where a form's cursor stopped: its newest time and the keys at it. */
export function stoppedAt(cursor: FormCursor): StoppedAt {
	let time = cursor.floor.time;
	for (const seenTime of Object.values(cursor.seen)) if (seenTime > time) time = seenTime;
	const keys = Object.entries(cursor.seen)
		.filter(([, seenTime]) => seenTime === time)
		.map(([key]) => key);
	return { time, keys };
}

function newestGone(gone: Map<string, StoppedAt>): Record<string, StoppedAt> {
	const entries = [...gone].sort((a, b) => b[1].time - a[1].time || (a[0] < b[0] ? -1 : 1));
	return Object.fromEntries(entries.slice(0, MAX_GONE_FORMS));
}

function isRecord(value: unknown): value is Record<string, unknown> {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function ownValue<T>(record: Record<string, T> | undefined, key: string): T | undefined {
	return record !== undefined && Object.prototype.hasOwnProperty.call(record, key) ? record[key] : undefined;
}
