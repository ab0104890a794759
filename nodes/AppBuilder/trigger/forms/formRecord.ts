import { cursorStateProblem, type CursorState } from '../cursor/cursor';
import { isRecord, isTime } from '../../../shared/valueShapes';
import { rhythmProblem, type FormRhythm } from '../quiet/formRhythm';

// What the trigger keeps of one form: one record, changed only by the events of formEvents.ts
// (docs/trigger-internals.md, "A form's record").

export interface FormRecord {
	cursor: CursorState;
	/** Ended stretches [from, to) the settings left it out: leads dated in them are never emitted. */
	out?: Array<[number, number]>;
	/** Left out by the settings since this time (a stretch not ended yet). */
	outSince?: number;
	/** Watched but not read (not in the app's list, or listed before the forms read): since when, how many polls. */
	away?: { since: number; polls: number };
	/** Its next read takes the undated inquiries present as handled: which were handled is not known. */
	undatedUnknown?: true;
	quiet?: FormRhythm;
}

/** Stretches kept per record at most; past it the two oldest are joined (docs/trigger-internals.md). */
export const MAX_OUT_STRETCHES = 20;

/** What keeps a stored value from being a form's record, in words for an error; undefined if nothing. */
export function formRecordProblem(value: unknown): string | undefined {
	if (!isRecord(value)) return 'it is not an object';
	const cursor = cursorStateProblem(value.cursor);
	if (cursor !== undefined) return `its cursor is not readable: ${cursor}`;
	const { out, outSince, away, undatedUnknown, quiet } = value;
	const isSpan = (span: unknown) =>
		Array.isArray(span) && span.length === 2 && span.every(isTime) && span[0] <= span[1];
	const isStretches = Array.isArray(out) && out.length <= MAX_OUT_STRETCHES && out.every(isSpan);
	if (out !== undefined && !isStretches)
		return `"out" is not a list of at most ${MAX_OUT_STRETCHES} stretches of time`;
	if (outSince !== undefined && !isTime(outSince)) return '"outSince" is not a time';
	const polls = isRecord(away) ? away.polls : undefined;
	const isAway =
		isRecord(away) && isTime(away.since) && Number.isSafeInteger(polls) && Number(polls) >= 0;
	if (away !== undefined && !isAway) return '"away" is not a time and a number of polls';
	if (undatedUnknown !== undefined && undatedUnknown !== true)
		return '"undatedUnknown" is not true';
	const rhythm = quiet === undefined ? undefined : rhythmProblem(quiet);
	return rhythm && `its rhythm is not readable: ${rhythm}`;
}
