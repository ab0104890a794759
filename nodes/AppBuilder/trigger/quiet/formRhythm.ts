import { isRecord, isTime } from '../cursor/storedShapes';

// Alert When Quiet (docs/trigger.md): a quiet spell is the time since a poll last brought the form a new
// lead, on the trigger's clock; records' own times never start, end or hold one off.

export type QuietRule = { kind: 'off' } | { kind: 'fixed'; afterMs: number } | { kind: 'unusual' };

const HOUR_MS = 60 * 60 * 1000;
const WEEK_MS = 7 * 24 * HOUR_MS;
/** The week in slots of two hours: a form's rhythm is the leads each slot usually brings. */
export const SLOT_MS = 2 * HOUR_MS;
const SLOTS = WEEK_MS / SLOT_MS;
/** When Unusually Quiet: reported once a form has missed this many leads it usually gets (a working form is that silent about once in 160,000: e^-12). */
export const MISSED_LEADS = 12;
/** How much one week's leads in a slot move what the slot usually brings. */
const LEARNING = 0.2;
/** How fast the recent level forgets, per slot: about three days. */
const RECENT_DECAY = 1 / 36;
/** Lately this many times busier than usual: a burst, not the form's rhythm. */
const BURST = 2;
/** Leads added to what the form brought and what it usually brings before the two are compared. */
const LEVEL_PRIOR = 20;
/** At the first read, the rhythm is learned from the leads of this long before. */
const HISTORY_MS = 4 * WEEK_MS;
/** A rhythm is judged once it has been learned over this long. */
export const LEARNED_MS = 2 * WEEK_MS;

export interface FormRhythm {
	/** From when the rhythm was learned: the oldest lead of its history, or its first read. */
	since: number;
	/** When a poll last brought the form a new lead (the trigger's clock); absent while it has had none. */
	last?: number;
	/** `last` of the spell already reported: once per spell. */
	alerted?: number;
	/** What each slot of the week usually brings, as learned (quantized, base64). */
	slots: string;
	/** Leads recently brought, and what the slots usually bring over the same time (both fading): the level now. */
	recent: [actual: number, usual: number];
	/** The slot in progress (number since the epoch) and the leads brought in it so far. */
	open: [slot: number, leads: number];
}

/** The workflow's time zone, and the stretches the form was not watched (they count neither way). */
export interface RhythmContext {
	timeZone: string;
	unwatched: ReadonlyArray<readonly [from: number, to: number]>;
}

/** A quiet spell due to be reported. */
export interface QuietSpell {
	last: number;
	quietMs: number;
	/** When Unusually Quiet: the leads the form usually gets in these hours. */
	usualLeads?: number;
}

/**
 * The rhythm after a poll read the form and found `arrivals` new leads.
 * The first read learns from the times of the leads there; later, a slot is
 * learned once the form brings a lead after it, and the slots of a reported
 * spell are never learned, so a break or a closure does not teach the rhythm.
 */
export function nextRhythm(
	previous: FormRhythm | undefined,
	read: { arrivals: number; times: Iterable<number | undefined> },
	nowMs: number,
	context: RhythmContext = { timeZone: 'UTC', unwatched: [] },
): FormRhythm {
	if (previous === undefined) return firstRhythm(read.times, nowMs);
	if (read.arrivals === 0) return previous;
	const slot = Math.floor(nowMs / SLOT_MS);
	const rates = decodeRates(previous.slots);
	const recent: [number, number] = [...previous.recent];
	let [open, leads] = previous.open;
	if (slot > open) {
		const learn = (at: number, count: number) => {
			// The k-th time a slot is seen it counts for 1/k, until it counts for LEARNING.
			const seen = Math.floor((at * SLOT_MS - previous.since) / WEEK_MS) + 1;
			learnSlot(rates, recent, at, count, Math.max(LEARNING, 1 / Math.max(1, seen)));
		};
		learn(open, leads);
		// A reported spell is not the form's rhythm: its slots are left out.
		// Nor are the slots the form was not watched: nobody knows what they brought.
		const watched = (quiet: number) =>
			!context.unwatched.some(([from, to]) => quiet * SLOT_MS < to && (quiet + 1) * SLOT_MS > from);
		if (previous.alerted !== previous.last)
			for (let quiet = open + 1; quiet < slot; quiet++) if (watched(quiet)) learn(quiet, 0);
		[open, leads] = [slot, 0];
	}
	return {
		since: previous.since,
		last: nowMs,
		...(previous.alerted === undefined ? {} : { alerted: previous.alerted }),
		slots: encodeRates(rates),
		recent: [round(recent[0]), round(recent[1])],
		open: [open, leads + read.arrivals],
	};
}

function firstRhythm(times: Iterable<number | undefined>, nowMs: number): FormRhythm {
	const counts = new Array<number>(SLOTS).fill(0);
	let oldest = nowMs;
	let any = false;
	for (const time of times) {
		any = true;
		if (!isTime(time) || time > nowMs || time < nowMs - HISTORY_MS) continue;
		counts[slotOfWeek(Math.floor(time / SLOT_MS))]++;
		oldest = Math.min(oldest, time);
	}
	const weeks = Math.max(1, (nowMs - oldest) / WEEK_MS);
	const rates = counts.map((count) => count / weeks);
	const usual = rates.reduce((sum, rate) => sum + rate, 0) / (SLOTS * RECENT_DECAY);
	return {
		since: oldest,
		...(any ? { last: nowMs } : {}),
		slots: encodeRates(rates),
		recent: [round(usual), round(usual)],
		open: [Math.floor(nowMs / SLOT_MS), 0],
	};
}

/** One slot's leads, learned with `weight`: what it usually brings, and the recent level against it. */
function learnSlot(
	rates: number[],
	recent: [number, number],
	slot: number,
	leads: number,
	weight: number,
): void {
	const at = slotOfWeek(slot);
	const rate = rates[at];
	recent[0] = recent[0] * (1 - RECENT_DECAY) + leads;
	recent[1] = recent[1] * (1 - RECENT_DECAY) + rate;
	if (weight > LEARNING) {
		rates[at] = rate + weight * (leads - rate);
		return;
	}
	// Once learned, a burst (a campaign: the form far busier than usual lately) does not teach the slot.
	if (recent[0] > BURST * recent[1]) return;
	rates[at] = rate + weight * (Math.min(leads, 2 * rate + 1) - rate);
}

function round(value: number): number {
	return Math.round(value * 100) / 100;
}

/** The spell to report now, if the form is quiet past the rule and this spell was not reported yet. */
export function quietSpell(
	rhythm: FormRhythm,
	rule: QuietRule,
	nowMs: number,
	context: RhythmContext = { timeZone: 'UTC', unwatched: [] },
): QuietSpell | undefined {
	const { last } = rhythm;
	if (rule.kind === 'off' || last === undefined || rhythm.alerted === last || nowMs <= last) return;
	// The time the form was not watched is no quiet time.
	const unwatchedMs = context.unwatched.reduce(
		(sum, [from, to]) => sum + Math.max(0, Math.min(to, nowMs) - Math.max(from, last)),
		0,
	);
	if (rule.kind === 'fixed')
		return nowMs - last - unwatchedMs >= rule.afterMs
			? { last, quietMs: nowMs - last - unwatchedMs }
			: undefined;
	if (nowMs - rhythm.since < LEARNED_MS) return;
	const usualLeads = usualLeadsBetween(rhythm, last, nowMs);
	return usualLeads >= MISSED_LEADS ? { last, quietMs: nowMs - last, usualLeads } : undefined;
}

/** The rhythm after the poll that reports `spell`: once per spell. */
export function markReported(rhythm: FormRhythm, spell: QuietSpell): FormRhythm {
	return { ...rhythm, alerted: spell.last };
}

/**
 * The leads the form usually gets from `from` to `to`: what those slots of
 * the week usually bring, scaled down when the form has lately brought fewer
 * than usual (never up: a campaign does not make the next days look quiet).
 */
function usualLeadsBetween(rhythm: FormRhythm, from: number, to: number): number {
	const rates = decodeRates(rhythm.slots);
	const [actual, usual] = rhythm.recent;
	// A few leads more on both sides: a sparse form's level is not moved by chance.
	const level = Math.min(1, (actual + LEVEL_PRIOR) / (usual + LEVEL_PRIOR));
	let leads = 0;
	for (let slot = Math.floor(from / SLOT_MS); slot * SLOT_MS < to; slot++) {
		const overlap = Math.min(to, (slot + 1) * SLOT_MS) - Math.max(from, slot * SLOT_MS);
		leads += (rates[slotOfWeek(slot)] * overlap) / SLOT_MS;
	}
	return leads * level;
}

function slotOfWeek(slot: number): number {
	return ((slot % SLOTS) + SLOTS) % SLOTS;
}

/** A rate in a byte: 2^(q/16) - 1, in sixteenths of a lead (4% steps, up to 4,096 leads a slot). */
function encodeRates(rates: readonly number[]): string {
	const bytes = rates.map((rate) =>
		Math.min(255, Math.max(0, Math.round(16 * Math.log2(1 + rate * 16)))),
	);
	return Buffer.from(bytes).toString('base64');
}

function decodeRates(text: string): number[] {
	return [...Buffer.from(text, 'base64')].map((q) => (2 ** (q / 16) - 1) / 16);
}

/** What keeps a stored value from being a rhythm, in words for an error; undefined if nothing. */
export function rhythmProblem(value: unknown): string | undefined {
	if (!isRecord(value)) return 'it is not an object';
	if (!isTime(value.since)) return '"since" is not a time';
	if (value.last !== undefined && !isTime(value.last)) return '"last" is not a time';
	if (value.alerted !== undefined && !isTime(value.alerted)) return '"alerted" is not a time';
	const slots = typeof value.slots === 'string' ? Buffer.from(value.slots, 'base64') : undefined;
	if (slots?.length !== SLOTS || slots.toString('base64') !== value.slots)
		return `"slots" is not ${SLOTS} rates`;
	const pair = (pair: unknown) => Array.isArray(pair) && pair.length === 2 && pair.every(isTime);
	if (!pair(value.recent)) return '"recent" is not two numbers';
	if (!pair(value.open)) return '"open" is not a slot and its leads';
	return undefined;
}
