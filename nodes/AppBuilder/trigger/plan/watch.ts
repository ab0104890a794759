import {
	stepCursor,
	recordsToKeepGiven,
	type CursorOptions,
	type CursorState,
	type FirstPoll,
	type CursorStep,
} from '../cursor/cursor';
import { type InquiryEvent } from '../../inquiries/inquiryEvent';
import { type RecordsToKeep } from '../../inquiries/inquiryList';
import { floorBefore, isAfterFloor, later } from '../cursor/floor';
import { ownValue } from '../cursor/storedShapes';
import type { TriggerPosition } from '../saved/position';

// The watch rule, the one place that decides how each form starts (docs/trigger.md, first lines):
// a lead is emitted once if it was submitted while its form was watched, never if not.

/** How a form starts in this poll. */
export interface FormStart {
	/** Set when the form's watch begins with this read: the cursor's own first poll, as this says. */
	firstPoll?: FirstPoll;
	/** The cursor planned on, or kept when the form is not read in this poll. */
	cursor: CursorState;
	/** Whether the cursor's next read takes the undated inquiries present as handled. */
	undatedUnknown: boolean;
}

export class Watch {
	/** When the watch of every form began, as saved after this poll; undefined under One Form. */
	readonly allFormsSince: number | undefined;
	/** This poll begins the watch or changes which forms it holds: saved even when no form is read. */
	readonly changes: boolean;
	/** The saved position already watches what the settings ask; before, a failure is shown at once (setting up). */
	readonly begun: boolean;
	/** The saved watch of every form goes on (under All Forms, or One Form picked from it). */
	private readonly since: number | undefined;
	private readonly beginsAt: number;
	private readonly unknown: ReadonlySet<string>;
	/** The one form the saved position watched, when it watched one. */
	private readonly savedOne: string | undefined;

	/**
	 * Under All Forms every form of the app is watched, listed, read or not;
	 * under One Form that form. A form that stays watched across a change of
	 * Watch keeps where it stopped; one that comes in starts at that poll (a
	 * form the settings left out keeps its cursor meanwhile, so nothing it
	 * emitted comes out again). On First Poll applies to the trigger's first
	 * poll only (a position saved again would emit leads twice).
	 */
	constructor(
		private readonly saved: TriggerPosition | undefined,
		private readonly settings: { pageId: string | undefined; firstPoll: FirstPoll },
		readonly nowMs: number,
	) {
		const { pageId, firstPoll } = settings;
		const first = saved === undefined;
		this.since = saved?.allFormsSince;
		this.unknown = new Set(saved?.undatedUnknown);
		// Under One Form the position holds that form, read or not, and the forms left out, away.
		this.savedOne =
			saved === undefined || this.since !== undefined
				? undefined
				: Object.keys(saved.forms).find((form) => ownValue(saved.away, form) === undefined);
		this.beginsAt =
			first && firstPoll.kind === 'since' ? Math.min(firstPoll.sinceMs, nowMs) : nowMs;
		this.allFormsSince = pageId === undefined ? (this.since ?? this.beginsAt) : undefined;
		this.changes =
			first || (pageId === undefined ? this.since === undefined : this.savedOne !== pageId);
		this.begun = pageId === undefined ? this.since !== undefined : this.watchedBefore(pageId);
	}

	/** Whether the settings watch a form now: every form under All Forms, the one form under One Form. */
	watches(pageId: string): boolean {
		return this.settings.pageId === undefined || pageId === this.settings.pageId;
	}

	startOf(pageId: string): FormStart {
		const saved = ownValue(this.saved?.forms, pageId);
		const undatedUnknown = this.unknown.has(pageId);
		if (saved !== undefined && this.watchedBefore(pageId)) return { cursor: saved, undatedUnknown };
		// Watched since then, never read: every lead since, undated ones included (none can be told older).
		if (saved === undefined && this.since !== undefined)
			return { cursor: fromTime(this.since), undatedUnknown: false };
		const firstPoll = this.saved === undefined ? this.settings.firstPoll : NONE;
		if (saved === undefined)
			return { firstPoll, cursor: fromTime(this.beginsAt), undatedUnknown: false };
		// Back in the watch: from now on, and never again what it emitted before (a record dated ahead, an undated one).
		return { firstPoll, cursor: fromLater(saved, this.beginsAt), undatedUnknown };
	}

	/** Whether the saved position watched the form: it watched every form, or that one. */
	private watchedBefore(pageId: string): boolean {
		return this.since !== undefined || this.savedOne === pageId;
	}
}

const NONE: FirstPoll = { kind: 'none' };

/** Nothing emitted after `time` yet. */
function fromTime(time: number): CursorState {
	return { floor: floorBefore(time), seen: {}, undated: '' };
}

/** A cursor whose floor is raised to `time`, keeping what it emitted after that and its undated table. */
function fromLater(cursor: CursorState, time: number): CursorState {
	const floor = later(cursor.floor, floorBefore(time));
	const after = Object.entries(cursor.seen).filter(([key, at]) => isAfterFloor(at, key, floor));
	return { floor, seen: Object.fromEntries(after), undated: cursor.undated };
}

/** Which records of the form's answer to keep while it streams past. */
export function recordsToKeepFor(start: FormStart, options: CursorOptions): RecordsToKeep {
	const { firstPoll, cursor } = asRead(start);
	return recordsToKeepGiven(firstPoll ? undefined : cursor, {
		...options,
		firstPoll: firstPoll ?? NONE,
	});
}

export function formStep(
	start: FormStart,
	events: readonly InquiryEvent[],
	options: CursorOptions,
): CursorStep {
	const read = asRead(start);
	if (read.firstPoll)
		return stepCursor(undefined, events, { ...options, firstPoll: read.firstPoll });
	return stepCursor(startingState(read, events, options), events, options);
}

/**
 * A form as read: the cursor's own first poll, or a cursor. Since is a cursor
 * from then whose undated inquiries present are handled (nothing dates them
 * after it); not read then, they are new at its first read, as for any form
 * read after its watch began.
 */
function asRead(start: FormStart): FormStart {
	if (start.firstPoll?.kind !== 'since') return start;
	return { cursor: fromTime(start.firstPoll.sinceMs), undatedUnknown: true };
}

/** One whose undated inquiries are unknown takes those present as handled, as any first poll does. */
function startingState(
	start: FormStart,
	events: readonly InquiryEvent[],
	options: CursorOptions,
): CursorState {
	if (!start.undatedUnknown) return start.cursor;
	const undated = events.filter((event) => event.time === undefined);
	const handled = stepCursor(undefined, undated, { ...options, firstPoll: NONE }).baseline;
	return { ...start.cursor, undated: handled.undated };
}
