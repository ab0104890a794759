import { isRecord, isTime } from '../../../shared/valueShapes';
import { wallHours } from './localTime';

// Alert When Quiet (docs/trigger.md): a spell is timed on the trigger's clock, never by records' own times,
// which a late listing or a wrong clock would skew.

export type QuietRule = { kind: 'off' } | { kind: 'fixed'; afterMs: number } | { kind: 'unusual' };

export interface QuietSpell {
	/** When a poll last brought the form a new lead. */
	last: number;
	/** Since `last`, less the time the form was not watched. */
	quietMs: number;
	/** When Unusually Quiet: what the quietest recent week brought in the same hours. */
	usualLeads?: number;
}

export interface RhythmContext {
	/** The workflow's time zone; one this runtime does not know is read as UTC. */
	timeZone: string;
	/** Stretches of the trigger's clock in which the form was not watched: neither quiet time nor evidence. */
	unwatched: ReadonlyArray<readonly [from: number, to: number]>;
}

/** The fewest leads a spell must have missed; and what each of three weeks must bring for a rhythm to begin. */
export const MISSED_LEADS = 10;
/** ln(weekly leads) + BY_CHANCE leads missed: a working form is that quiet by chance as rarely whatever its traffic. */
const BY_CHANCE = 7.5;
const WEEKS = 4;
const HOURS = 7 * 24;
/** A stored hour: not watched, left out (a spell reported), or a level of leads: exact to 15, then 10% steps (rounded down). */
const UNKNOWN = '.';
const REPORTED = '~';
const LEVELS = '0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ';
const LEADS = new Map(
	Array.from(LEVELS, (c, q) => [c, q < 16 ? q : Math.floor(16 * 1.1 ** (q - 15))]),
);

export interface FormRhythm {
	/** When a poll last brought the form a new lead (the trigger's clock). */
	last?: number;
	/** `last` of the spell reported: once per spell. */
	reported?: number;
	/** The hour its rhythm begins: a lead from which each of three weeks brought MISSED_LEADS. */
	start?: number;
	/** The hour in progress (wall-clock hours from the epoch) and the leads polls brought in it. */
	open: [hour: number, leads: number];
	/** The WEEKS weeks of hours before `open`, hour h at h mod their number. */
	weeks: string;
}

/** The rhythm after a successful read that found `arrivals` new leads; a blast or a late day teach little. */
export function nextRhythm(
	previous: FormRhythm | undefined,
	read: { arrivals: number; times: Iterable<number | undefined> },
	nowMs: number,
	context: RhythmContext,
): FormRhythm {
	const hour = Math.floor(wallHours(nowMs, context.timeZone));
	if (previous === undefined) {
		// The first read learns the weeks before it from the records' own times.
		const counts = new Array<number>(WEEKS * HOURS).fill(0);
		let listed = false;
		for (const time of read.times) {
			listed = true;
			const at =
				isTime(time) && time < nowMs ? Math.floor(wallHours(time, context.timeZone)) : hour;
			if (at >= hour - WEEKS * HOURS && at < hour) counts[mod(at, WEEKS * HOURS)]++;
		}
		const weeks = counts.map(levelOf).join('');
		return withStart({ ...(listed ? { last: nowMs } : {}), open: [hour, 0], weeks });
	}
	if (read.arrivals <= 0) return previous;
	const [open, leads] = previous.open;
	const away = awayHours(context, previous.last ?? nowMs, nowMs);
	// Within the hour in progress nothing is learned yet.
	const cells = hour > open ? [...previous.weeks] : [];
	for (let at = Math.max(open, hour - WEEKS * HOURS); at < hour; at++) {
		const fewest = fewestLeads({ ...previous, open: [at, 0], weeks: cells }, at);
		const quiet = previous.reported === previous.last && (fewest ?? 0) > 0 ? REPORTED : LEVELS[0];
		const most = 2 * (fewest ?? Infinity) + 1;
		const cell = at === open ? levelOf(Math.min(leads, most)) : quiet;
		cells[mod(at, WEEKS * HOURS)] = away(at) ? UNKNOWN : cell;
	}
	const [now, before] = hour > open ? [hour, 0] : [open, leads];
	// A lead ends the spell: `reported` is dropped.
	return withStart({
		...(previous.start === undefined ? {} : { start: previous.start }),
		last: nowMs,
		open: [now, before + read.arrivals],
		weeks: hour > open ? cells.join('') : previous.weeks,
	});
}

/** With its start, once it has one: test leads weeks before a launch, or a campaign, start no rhythm. */
function withStart(rhythm: FormRhythm): FormRhythm {
	if (rhythm.start !== undefined) return rhythm;
	const [open, leads] = rhythm.open;
	const sums = [0];
	for (let at = open - WEEKS * HOURS; at <= open; at++)
		sums.push(
			sums[sums.length - 1] +
				(at < open ? (LEADS.get(rhythm.weeks[mod(at, WEEKS * HOURS)]) ?? 0) : leads),
		);
	const week = (index: number) =>
		sums[Math.min(index + HOURS, sums.length - 1)] - sums[Math.min(index, sums.length - 1)];
	const first = sums.findIndex(
		(sum, index) =>
			sums[index + 1] > sum && [0, 1, 2].every((w) => week(index + w * HOURS) >= MISSED_LEADS),
	);
	return first < 0 ? rhythm : { ...rhythm, start: open - WEEKS * HOURS + first };
}

export function markReported(rhythm: FormRhythm, spell: QuietSpell): FormRhythm {
	return { ...rhythm, reported: spell.last };
}

/** The spell to report now, if the form is quiet past the rule and this spell was not reported yet. */
export function quietSpell(
	rhythm: FormRhythm,
	rule: QuietRule,
	nowMs: number,
	context: RhythmContext,
): QuietSpell | undefined {
	const { last } = rhythm;
	if (rule.kind === 'off' || last === undefined || rhythm.reported === last || nowMs <= last)
		return;
	let quietMs = nowMs - last;
	for (const [from, to] of context.unwatched)
		quietMs -= Math.max(0, Math.min(to, nowMs) - Math.max(from, last));
	if (rule.kind === 'fixed') return quietMs >= rule.afterMs ? { last, quietMs } : undefined;
	const usual = usualLeads(rhythm, last, nowMs, context);
	if (usual === undefined) return;
	// Fewer weeks known agree by chance more often: so many more leads missed. leadsToMiss is at least
	// MISSED_LEADS: counted only for a spell that may reach it.
	const missed = usual.leads * (usual.weeks / WEEKS);
	return missed >= MISSED_LEADS && missed >= leadsToMiss(rhythm)
		? { last, quietMs, usualLeads: usual.leads }
		: undefined;
}

/** Per rhythm, its last count of whole hours: polls a minute apart count the same hours until the next begins. */
const counted = new WeakMap<FormRhythm, { key: string; sums: Array<number | undefined> }>();

/** What the quietest known week brought in the spell's hours; an edge counts at most as its neighbour inside. */
function usualLeads(
	rhythm: FormRhythm,
	last: number,
	nowMs: number,
	context: RhythmContext,
): { leads: number; weeks: number } | undefined {
	const away = awayHours(context, last, nowMs);
	const [lastAt, nowAt] = [wallHours(last, context.timeZone), wallHours(nowMs, context.timeZone)];
	const from = Math.floor(lastAt) + 1;
	const to = Math.min(Math.floor(nowAt), from + WEEKS * HOURS);
	const key = `${from} ${to} ${context.unwatched.join(' ')}`;
	let whole = counted.get(rhythm);
	if (whole?.key !== key) {
		whole = { key, sums: wholeHours(rhythm, from, to, away) };
		counted.set(rhythm, whole);
	}
	// Per edge: its hour, its neighbour inside the spell, and the share of it the spell covers.
	const edges = to < from ? [] : [from - 1, from, from - lastAt, to, to - 1, nowAt - to];
	const sums = whole.sums.flatMap((sum, week) => {
		if (sum === undefined) return [];
		let total = sum;
		const part = (at: number, inside: number) =>
			Math.min(weekLeads(rhythm, at, week) ?? 0, weekLeads(rhythm, inside, week) ?? 0);
		for (let edge = 0; edge < edges.length; edge += 3) {
			const [at, inside, share] = edges.slice(edge, edge + 3);
			if (!away(at)) total += share * part(at, inside);
		}
		return [total];
	});
	return sums.length < 2 ? undefined : { leads: Math.min(...sums), weeks: sums.length };
}

/** Per recent week, its leads in the whole hours `from` to `to`; where a week brought none, a run counts as one. */
function wholeHours(
	rhythm: FormRhythm,
	from: number,
	to: number,
	away: (hour: number) => boolean,
): Array<number | undefined> {
	const sums = new Array<number | undefined>(WEEKS).fill(0);
	const inRun = new Array<boolean>(WEEKS).fill(false);
	for (let at = from; at < to; at++) {
		if (away(at)) continue;
		const usual = fewestLeads(rhythm, at) ?? 0;
		for (let week = 0; week < WEEKS; week++) {
			const leads =
				weekLeads(rhythm, at, week) ??
				(week === 0 && weekCell(rhythm, at, 0) === REPORTED ? 0 : undefined);
			const sum = sums[week];
			if (leads === undefined || sum === undefined) sums[week] = undefined;
			else sums[week] = sum + (usual > 0 ? leads : leads > 0 && !inRun[week] ? 1 : 0);
			inRun[week] = usual === 0 && (leads ?? 0) > 0;
		}
	}
	return sums;
}

/** How many leads a spell must have missed: ln(weekly leads) + BY_CHANCE, at least MISSED_LEADS. */
function leadsToMiss(rhythm: FormRhythm): number {
	const [open] = rhythm.open;
	let [leads, hours] = [0, 0];
	for (let at = Math.max(open - WEEKS * HOURS, rhythm.start ?? open); at < open; at++) {
		const known = LEADS.get(rhythm.weeks[mod(at, WEEKS * HOURS)]);
		if (known !== undefined) [leads, hours] = [leads + known, hours + 1];
	}
	return Math.max(MISSED_LEADS, Math.log((leads / Math.max(1, hours)) * HOURS) + BY_CHANCE);
}

/** A rhythm's hours, or those being learned. */
type Hours = Pick<FormRhythm, 'start' | 'open'> & { weeks: ArrayLike<string> };

/** The hour of the week of `at`, `week` weeks before its newest one stored. */
function weekHour(rhythm: Hours, at: number, week: number): number {
	const [open] = rhythm.open;
	return open - 1 - mod(open - 1 - at, HOURS) - week * HOURS;
}

function weekCell(rhythm: Hours, at: number, week: number): string {
	return rhythm.weeks[mod(weekHour(rhythm, at, week), WEEKS * HOURS)];
}

/** What that hour brought; undefined when not known: not watched, left out, or before the rhythm's start. */
function weekLeads(rhythm: Hours, at: number, week: number): number | undefined {
	const known = weekHour(rhythm, at, week) >= (rhythm.start ?? Infinity);
	return known ? LEADS.get(weekCell(rhythm, at, week)) : undefined;
}

/** The fewest leads a known week brought in the hour of the week of `at`; undefined if no week is known. */
function fewestLeads(rhythm: Hours, at: number): number | undefined {
	let fewest: number | undefined;
	for (let week = 0; week < WEEKS; week++) {
		const leads = weekLeads(rhythm, at, week);
		if (leads !== undefined && (fewest === undefined || leads < fewest)) fewest = leads;
	}
	return fewest;
}

/** Whether a wall-clock hour overlaps a stretch, between `from` and `to`, in which the form was not watched. */
function awayHours(context: RhythmContext, from: number, to: number): (hour: number) => boolean {
	const hours = context.unwatched
		.filter(([start, end]) => end > from && start < to)
		.map(([start, end]) => [wallHours(start, context.timeZone), wallHours(end, context.timeZone)]);
	return (hour) => hours.some(([first, last]) => hour + 1 > first && hour < last);
}

function levelOf(leads: number): string {
	let level = 0;
	while (level < LEVELS.length - 1 && (LEADS.get(LEVELS[level + 1]) ?? 0) <= leads) level++;
	return LEVELS[level];
}

function mod(value: number, by: number): number {
	return ((value % by) + by) % by;
}

/** What keeps a stored value from being a rhythm, in words for an error; undefined if nothing. */
export function rhythmProblem(value: unknown): string | undefined {
	if (!isRecord(value)) return 'it is not an object';
	for (const key of ['last', 'reported', 'start'])
		if (value[key] !== undefined && !isTime(value[key])) return `"${key}" is not a number`;
	const { open, weeks } = value;
	if (!Array.isArray(open) || open.length !== 2 || !open.every(Number.isSafeInteger))
		return '"open" is not an hour and its leads';
	if (typeof weeks !== 'string' || weeks.length !== WEEKS * HOURS)
		return `"weeks" is not ${WEEKS * HOURS} hours`;
	const cells = `${LEVELS}${UNKNOWN}${REPORTED}`;
	return [...weeks].every((cell) => cells.includes(cell))
		? undefined
		: '"weeks" holds a character it does not use';
}
