import { isRecord, isTime } from '../cursor/storedShapes';

/** When a form goes quiet (docs/trigger.md, "Alert When Quiet"); a rhythm is a few numbers per week. */
export type QuietRule = { kind: 'off' } | { kind: 'fixed'; afterMs: number } | { kind: 'unusual' };

const HOUR_MS = 60 * 60 * 1000;
const WEEK_MS = 7 * 24 * HOUR_MS;
/** Weeks of gaps a rhythm remembers: the current one and the four before it. */
export const RHYTHM_WEEKS = 4;
/** When Unusually Quiet: this many times the longest gap of the last four weeks... */
export const UNUSUAL_MARGIN = 2;
/** ...and never less than this. */
export const UNUSUAL_FLOOR_MS = 2 * HOUR_MS;
/** A rhythm is judged once it holds this many leads, the first of them at least a week old. */
export const MIN_RHYTHM_LEADS = 10;

export interface FormRhythm {
	/** When the trigger began to watch the form's rhythm (epoch ms): it waits a full period from then. */
	since: number;
	/** The newest lead's time, never later than the poll that saw it; absent before the form's first lead. */
	last?: number;
	/** Per week (number since the epoch) with a lead: [week, longest gap that ended in it (minutes), leads in it]. */
	weeks: Array<[number, number, number]>;
	/** `last` when this quiet spell was reported: once per spell; the next lead ends it. */
	alerted?: number;
}

/** A quiet spell due to be reported. */
export interface QuietSpell {
	last: number;
	quietMs: number;
	/** What the form usually is: its longest gap of the last weeks (When Unusually Quiet), or the fixed time. */
	usualMs: number;
	thresholdMs: number;
}

/** The rhythm after a read of the form, given every inquiry's time; a first read learns from the last weeks. */
export function nextRhythm(
	previous: FormRhythm | undefined,
	times: Iterable<number | undefined>,
	nowMs: number,
): FormRhythm {
	const rhythm: FormRhythm = previous
		? { ...previous, weeks: previous.weeks.map((week) => [...week] as [number, number, number]) }
		: { since: nowMs, weeks: [] };
	const oldestWeek = weekOf(nowMs) - RHYTHM_WEEKS;
	const learnFrom = previous === undefined ? (oldestWeek + 1) * WEEK_MS : undefined;
	const fresh: number[] = [];
	let newest = rhythm.last;
	for (const listed of times) {
		if (!isTime(listed)) continue;
		const time = Math.min(listed, nowMs);
		if (newest === undefined || time > newest) newest = time;
		if (
			previous === undefined ? time >= (learnFrom as number) : time > (previous.last ?? -Infinity)
		) {
			fresh.push(time);
		}
	}
	fresh.sort((a, b) => a - b);
	let before = previous?.last;
	for (const time of fresh) {
		const week = weekOf(time);
		let entry = rhythm.weeks.find(([number]) => number === week);
		if (entry === undefined) {
			entry = [week, 0, 0];
			rhythm.weeks.push(entry);
		}
		if (before !== undefined) entry[1] = Math.max(entry[1], Math.round((time - before) / 60_000));
		entry[2]++;
		before = time;
	}
	rhythm.weeks = rhythm.weeks.filter(([week]) => week >= oldestWeek).sort((a, b) => a[0] - b[0]);
	if (newest !== undefined) rhythm.last = newest;
	return rhythm;
}

/** The spell to report now, if the form is quiet past the rule and this spell was not reported yet. */
export function quietSpell(
	rhythm: FormRhythm,
	rule: QuietRule,
	nowMs: number,
): QuietSpell | undefined {
	if (rule.kind === 'off' || rhythm.last === undefined || rhythm.alerted === rhythm.last) return;
	let usualMs: number;
	let thresholdMs: number;
	if (rule.kind === 'fixed') {
		usualMs = rule.afterMs;
		thresholdMs = rule.afterMs;
	} else {
		const recent = rhythm.weeks.filter(([week]) => week >= weekOf(nowMs) - RHYTHM_WEEKS);
		const leads = recent.reduce((sum, [, , count]) => sum + count, 0);
		const firstWeek = recent[0]?.[0];
		// Too little history: silent until there is enough.
		if (leads < MIN_RHYTHM_LEADS || firstWeek === undefined || weekOf(nowMs) - firstWeek < 2)
			return;
		usualMs = Math.max(...recent.map(([, gap]) => gap)) * 60_000;
		thresholdMs = Math.max(UNUSUAL_MARGIN * usualMs, UNUSUAL_FLOOR_MS);
	}
	// Just activated: a full period from when the watch began, however old the last lead.
	if (nowMs - Math.max(rhythm.last, rhythm.since) < thresholdMs) return;
	return { last: rhythm.last, quietMs: nowMs - rhythm.last, usualMs, thresholdMs };
}

/** What keeps a stored value from being a rhythm, in words for an error; undefined if nothing. */
export function rhythmProblem(value: unknown): string | undefined {
	if (!isRecord(value)) return 'it is not an object';
	if (!isTime(value.since)) return '"since" is not a time';
	if (value.last !== undefined && !isTime(value.last)) return '"last" is not a time';
	if (value.alerted !== undefined && !isTime(value.alerted)) return '"alerted" is not a time';
	const weeks = value.weeks;
	const isWeek = (week: unknown) =>
		Array.isArray(week) && week.length === 3 && week.every((part) => Number.isSafeInteger(part));
	if (!Array.isArray(weeks) || weeks.length > RHYTHM_WEEKS + 1 || !weeks.every(isWeek)) {
		return `"weeks" is not a list of at most ${RHYTHM_WEEKS + 1} weeks`;
	}
	return undefined;
}

function weekOf(time: number): number {
	return Math.floor(time / WEEK_MS);
}
