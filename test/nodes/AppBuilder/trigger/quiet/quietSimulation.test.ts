/* eslint-disable @n8n/community-nodes/no-restricted-globals -- the simulation's report is printed on request (QUIET_SIMULATION_REPORT) */
import type { InquiryEvent } from '../../../../../nodes/AppBuilder/trigger/events/inquiryEvent';
import { PollPlanner } from '../../../../../nodes/AppBuilder/trigger/plan/pollPlan';
import type { TriggerPosition } from '../../../../../nodes/AppBuilder/trigger/saved/position';
import {
	nextRhythm,
	quietSpell,
	type FormRhythm,
	type QuietRule,
} from '../../../../../nodes/AppBuilder/trigger/quiet/formRhythm';
import { MINUTE, HOUR, DAY } from '../../../../support/durations';

/**
 * Alert When Quiet, When Unusually Quiet, simulated over 90 days on rhythms
 * it was not tuned on, ten seeds each: each lead counted when a poll (every 15
 * minutes) first sees it. Leads of the four weeks before the
 * trigger starts are its history. QUIET_SIMULATION_REPORT=1 prints the table
 * docs/trigger.md shows.
 */
/** A Monday, 00:00 UTC. */
const T0 = Date.UTC(2026, 2, 2);
const POLL = 15 * MINUTE;
const DAYS = 90;
const SEEDS = 10;
const UNUSUAL: QuietRule = { kind: 'unusual' };

/** A small deterministic generator (mulberry32), so the simulation is the same on every run. */
function random(seed: number): () => number {
	let state = seed >>> 0;
	return () => {
		state = (state + 0x6d2b79f5) >>> 0;
		let t = state;
		t = Math.imul(t ^ (t >>> 15), t | 1);
		t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
	};
}

interface Life {
	/** When each lead becomes visible to a poll (its submission time, or later when late). */
	visible: number[];
	/** Spells the form is broken or closed: no lead from `from` to `to`. */
	breaks: Array<{ from: number; to: number; closure?: boolean }>;
}

/** Leads of an inhomogeneous Poisson process with `perHour(time)`, from 28 days before T0 to DAYS after. */
function arrivals(next: () => number, perHour: (time: number) => number): number[] {
	const leads: number[] = [];
	for (let hour = -28 * 24; hour < DAYS * 24; hour++) {
		const start = T0 + hour * HOUR;
		const rate = perHour(start);
		if (rate <= 0) continue;
		for (let at = -Math.log(1 - next()) / rate; at < 1; at += -Math.log(1 - next()) / rate)
			leads.push(start + at * HOUR);
	}
	return leads;
}

const hourOf = (time: number) => new Date(time).getUTCHours();
const weekday = (time: number) => {
	const day = new Date(time).getUTCDay();
	return day >= 1 && day <= 5;
};
/** Day and night: busier from 08:00 to 22:00, a little at night. */
const dayShape = (time: number) => (hourOf(time) >= 8 && hourOf(time) < 22 ? 1.5 : 0.15);

/** A break at a random moment between day 30 and day 80, lasting to the end. */
function breakAt(next: () => number, pick?: (time: number) => boolean): number {
	for (;;) {
		const time = T0 + (30 + next() * 50) * DAY;
		if (pick === undefined || pick(time)) return time;
	}
}

interface Rhythm {
	name: string;
	/** Whether it breaks: then the simulation measures how long until it is reported. */
	breaks: boolean;
	life: (next: () => number) => Life;
}

function withBreaks(leads: number[], breaks: Life['breaks'], lateMs = 0): Life {
	const visible = leads
		.filter((time) => !breaks.some((spell) => time >= spell.from && time < spell.to))
		.map((time) => time + lateMs)
		.sort((a, b) => a - b);
	return { visible, breaks };
}

const businessHours = (perHour: number) => (time: number) =>
	weekday(time) && hourOf(time) >= 8 && hourOf(time) < 18 ? perHour : 0;

const RHYTHMS: Rhythm[] = [
	{
		name: 'weekday business hours (20 a day), weekends off, a 10-day closure',
		breaks: false,
		life: (next) => {
			const closure = T0 + (40 + Math.floor(next() * 20)) * DAY;
			return withBreaks(arrivals(next, businessHours(2)), [
				{ from: closure, to: closure + 10 * DAY, closure: true },
			]);
		},
	},
	{
		name: 'monthly campaigns (about 100 a day for 2-3 days), 2 a day between',
		breaks: false,
		life: (next) => {
			const campaigns = [0, 30, 60].map((day) => T0 + (day + 5 + next() * 15) * DAY);
			const lengths = campaigns.map(() => (2 + next()) * DAY);
			const rate = (time: number) =>
				campaigns.some((start, index) => time >= start && time < start + lengths[index])
					? 100 / 24
					: (2 / 24) * dayShape(time);
			return withBreaks(arrivals(next, rate), []);
		},
	},
	{
		name: 'one lead a week',
		breaks: false,
		life: (next) =>
			withBreaks(
				arrivals(next, () => 1 / (7 * 24)),
				[],
			),
	},
	{
		name: 'growth 10x over the 90 days (5 to 50 a day)',
		breaks: false,
		life: (next) =>
			withBreaks(
				arrivals(
					next,
					(time) => ((5 * 10 ** Math.max(0, (time - T0) / (DAYS * DAY))) / 24) * dayShape(time),
				),
				[],
			),
	},
	{
		name: 'decline 10x over the 90 days (50 to 5 a day)',
		breaks: false,
		life: (next) =>
			withBreaks(
				arrivals(
					next,
					(time) => (50 / 10 ** Math.max(0, (time - T0) / (DAYS * DAY)) / 24) * dayShape(time),
				),
				[],
			),
	},
	{
		name: 'a new form, weekday business hours, no history before the trigger',
		breaks: false,
		life: (next) =>
			withBreaks(
				arrivals(next, businessHours(2)).filter((time) => time >= T0),
				[],
			),
	},
	{
		name: 'weekday business hours, each lead visible 3 hours late',
		breaks: false,
		life: (next) => withBreaks(arrivals(next, businessHours(2)), [], 3 * HOUR),
	},
	{
		name: 'busy (about 200 a day) that breaks',
		breaks: true,
		life: (next) =>
			withBreaks(
				arrivals(next, (time) => (200 / 24) * (hourOf(time) >= 7 ? 1.2 : 0.6)),
				[{ from: breakAt(next), to: Infinity }],
			),
	},
	{
		name: 'weekday business hours (20 a day) that breaks in the morning',
		breaks: true,
		life: (next) =>
			withBreaks(arrivals(next, businessHours(2)), [
				{
					from: breakAt(next, (time) => weekday(time) && hourOf(time) >= 9 && hourOf(time) < 11),
					to: Infinity,
				},
			]),
	},
	{
		name: 'quiet (about 3 a day) that breaks',
		breaks: true,
		life: (next) =>
			withBreaks(
				arrivals(next, (time) => (3 / 24) * dayShape(time)),
				[{ from: breakAt(next), to: Infinity }],
			),
	},
];

interface Outcome {
	falseAlarms: number;
	closureAlerts: number;
	/** From the break to its report; undefined when it was never reported. */
	delay?: number;
}

/** One trigger polling one form from T0 for DAYS days: what it reported, and when. */
function run(life: Life): Outcome {
	let rhythm: FormRhythm | undefined;
	let seen = 0;
	const outcome: Outcome = { falseAlarms: 0, closureAlerts: 0 };
	for (let now = T0; now <= T0 + DAYS * DAY; now += POLL) {
		const before = seen;
		while (seen < life.visible.length && life.visible[seen] <= now) seen++;
		const times = rhythm === undefined ? life.visible.slice(0, seen) : [];
		rhythm = nextRhythm(rhythm, { arrivals: rhythm === undefined ? 0 : seen - before, times }, now);
		const spell = quietSpell(rhythm, UNUSUAL, now);
		if (spell === undefined) continue;
		rhythm = { ...rhythm, alerted: spell.last };
		const during = life.breaks.find((spell) => now >= spell.from && now < spell.to);
		if (during?.closure) outcome.closureAlerts++;
		else if (during === undefined) outcome.falseAlarms++;
		else outcome.delay ??= now - during.from;
	}
	return outcome;
}

function median(values: number[]): number {
	const sorted = [...values].sort((a, b) => a - b);
	return sorted[Math.floor(sorted.length / 2)];
}

const hours = (ms: number) => `${(ms / HOUR).toFixed(1)} h`;

describe('Alert When Quiet, When Unusually Quiet, simulated over 90 days on rhythms it was not tuned on', () => {
	const results = RHYTHMS.map((rhythm) => ({
		rhythm,
		outcomes: Array.from({ length: SEEDS }, (_, seed) =>
			run(rhythm.life(random(1000 * (RHYTHMS.indexOf(rhythm) + 1) + seed))),
		),
	}));

	if (process.env.QUIET_SIMULATION_REPORT !== undefined) {
		const rows = results.map(({ rhythm, outcomes }) => {
			const delays = outcomes.flatMap((outcome) =>
				outcome.delay === undefined ? [] : [outcome.delay],
			);
			const falseAlarms = outcomes.reduce((sum, outcome) => sum + outcome.falseAlarms, 0) / SEEDS;
			const closure = outcomes.reduce((sum, outcome) => sum + outcome.closureAlerts, 0);
			const detection = rhythm.breaks
				? `${hours(median(delays))} / ${hours(Math.max(...delays))} (${delays.length} of ${SEEDS} reported)`
				: closure > 0
					? `closure reported ${closure} times in ${SEEDS} runs`
					: '-';
			return `| ${rhythm.name} | ${falseAlarms.toFixed(1)} | ${detection} |`;
		});
		process.stdout.write(
			`| rhythm | false alarms per 90 days | break reported after (median / max) |\n| --- | --- | --- |\n${rows.join('\n')}\n`,
		);
	}

	it.each(
		results.filter(({ rhythm }) => !rhythm.breaks).map((result) => [result.rhythm.name, result]),
	)('%s: no false alarm in %#', (_, { outcomes }) => {
		expect(outcomes.map((outcome) => outcome.falseAlarms)).toEqual(outcomes.map(() => 0));
	});

	it('reports a busy form within about an hour and a half, a business-hours form the same working day, a quiet one within about four days, and never falsely', () => {
		const delays = (name: string) => {
			const result = results.find(({ rhythm }) => rhythm.name.startsWith(name));
			expect(result?.outcomes.every((outcome) => outcome.falseAlarms === 0)).toBe(true);
			return (result?.outcomes ?? []).map((outcome) => outcome.delay ?? Infinity);
		};
		expect(median(delays('busy'))).toBeLessThanOrEqual(1.75 * HOUR);
		expect(Math.max(...delays('busy'))).toBeLessThanOrEqual(3 * HOUR);
		// Broken between 09:00 and 11:00 on a weekday: reported before the working day ends.
		expect(
			Math.max(...delays('weekday business hours (20 a day) that breaks')),
		).toBeLessThanOrEqual(9 * HOUR);
		expect(median(delays('quiet'))).toBeLessThanOrEqual(4.5 * DAY);
		expect(Math.max(...delays('quiet'))).toBeLessThanOrEqual(6 * DAY);
	});

	it('a form too sparse to tell (one lead a week) is never reported', () => {
		const sparse = results.find(({ rhythm }) => rhythm.name === 'one lead a week');
		expect(sparse?.outcomes.every((outcome) => outcome.falseAlarms === 0)).toBe(true);
	});

	it('all forms of an app, 20 of mixed rhythms of which 2 break, polled every hour through the poll plan: each break reported once, nothing else', () => {
		const next = random(20261128);
		const normal = RHYTHMS.filter((rhythm) => !rhythm.breaks);
		const broken = RHYTHMS.filter((rhythm) => rhythm.breaks);
		const lives = Array.from({ length: 20 }, (_, index) =>
			(index < 2 ? broken[index] : normal[index % normal.length]).life(next),
		);
		const pageIds = lives.map((_, index) => `formbuilder_1_${index}`);
		const alerts = new Map(pageIds.map((pageId) => [pageId, [] as number[]]));
		let saved: TriggerPosition | undefined;
		const from = lives.map(() => 0);
		const to = lives.map(() => 0);
		for (let now = T0; now <= T0 + DAYS * DAY; now += HOUR) {
			// After the first poll, a form's answer from two days back is enough: the cursor took the rest as handled.
			const outcomes = lives.map((life, form) => {
				while (life.visible[from[form]] <= now - 2 * DAY && saved !== undefined) from[form]++;
				while (life.visible[to[form]] <= now) to[form]++;
				const events: InquiryEvent[] = [];
				for (let index = from[form]; index < to[form]; index++)
					events.push({ key: `${form}-${index}`, time: life.visible[index] });
				return { pageId: pageIds[form], kind: 'read' as const, events };
			});
			const plan = new PollPlanner({
				saved,
				scope: 'app/new',
				watch: { kind: 'all' },
				listing: { read: pageIds, before: [] },
				firstPoll: { kind: 'none' },
				cursor: { mode: 'new', maxItems: 100_000 },
				quiet: UNUSUAL,
				timeZone: 'UTC',
				nowMs: now,
			}).plan(outcomes);
			for (const { pageId } of plan.quietSpells) alerts.get(pageId)?.push(now);
			saved = JSON.parse(JSON.stringify(plan.commit(plan.emissions.length))) as TriggerPosition;
		}
		lives.forEach((life, form) => {
			const reported = alerts.get(pageIds[form]) ?? [];
			const inBreaks = (time: number) =>
				life.breaks.some((spell) => time >= spell.from && time < spell.to);
			expect({ form, falseAlarms: reported.filter((time) => !inBreaks(time)) }).toEqual({
				form,
				falseAlarms: [],
			});
			if (form < 2) expect({ form, reported: reported.length }).toEqual({ form, reported: 1 });
		});
	});
});
