import {
	markReported,
	nextRhythm,
	quietSpell,
	rhythmProblem,
	type FormRhythm,
	type QuietRule,
	type RhythmContext,
} from '../../../../../nodes/AppBuilder/trigger/quiet/formRhythm';
import { MINUTE, HOUR, DAY, WEEK } from '../../../../support/durations';
import {
	Draw,
	pollApp,
	shareAt,
	simulateForm,
	wallOf,
	type DayShape,
	type FormModel,
	type Outage,
} from '../../../../support/simulatedLeads';

/** A Monday, 00:00 UTC. */
const T0 = Date.UTC(2026, 2, 2);
const UNUSUAL: QuietRule = { kind: 'unusual' };
const IN_UTC: RhythmContext = { timeZone: 'UTC', unwatched: [] };

const OFFICE: DayShape = { kind: 'office', opens: 8, hours: 10, days: 5, afterHours: 0 };
const ALL_DAY: DayShape = { kind: 'allDay', dayFrom: 8, dayTo: 22, night: 0.2, weekend: 1 };

/** A form whose leads follow `shape`, `perDay` a day on the wall clock of `zone`. */
function form(
	zone: string,
	shape: DayShape,
	perDay: number,
	more: Partial<FormModel> = {},
): FormModel {
	return {
		label: '',
		zone,
		rate: (_, wall) => perDay * shareAt(shape, wall),
		extra: [],
		lateDays: new Map(),
		outages: [],
		unwatched: [],
		...more,
	};
}

/** The moments a trigger polling `model` every 5 minutes from `from` to `to` reports it (its leads drawn from a fixed seed, from four weeks before). */
function alertsOf(model: FormModel, from: number, to: number): number[] {
	const leads = simulateForm(model, from - 4 * WEEK, to, new Draw(61));
	const alerts = pollApp([leads], { from, to, pollMs: 5 * MINUTE, restarts: [], rule: UNUSUAL });
	return alerts.map(({ at }) => at);
}

/** Polls every `pollMinutes` from `from` to `to`, each counting the leads visible since the last; the moments it reports. */
function pollRhythm(
	visible: number[],
	from: number,
	to: number,
	rule: QuietRule,
	pollMinutes = 10,
): { rhythm: FormRhythm; alerts: number[] } {
	let rhythm: FormRhythm | undefined;
	let seen = visible.filter((time) => time <= from).length;
	const alerts: number[] = [];
	for (let now = from; now <= to; now += pollMinutes * MINUTE) {
		const before = seen;
		while (seen < visible.length && visible[seen] <= now) seen++;
		const times = rhythm === undefined ? visible.slice(0, seen) : [];
		rhythm = nextRhythm(rhythm, { arrivals: seen - before, times }, now, IN_UTC);
		const spell = quietSpell(rhythm, rule, now, IN_UTC);
		if (spell === undefined) continue;
		alerts.push(now);
		rhythm = markReported(rhythm, spell);
	}
	return { rhythm: rhythm as FormRhythm, alerts };
}

/** A lead every `everyMinutes` from `from` to `to` in the hours `pick` keeps. */
function leadsEvery(
	from: number,
	to: number,
	everyMinutes: number,
	pick: (time: number) => boolean = () => true,
): number[] {
	const leads: number[] = [];
	for (let time = from; time < to; time += everyMinutes * MINUTE) if (pick(time)) leads.push(time);
	return leads;
}

const officeHours = (time: number) => shareAt(OFFICE, wallOf('UTC', time)) > 0;

describe('When Unusually Quiet on the rhythms lead forms have: no false alarm', () => {
	it('a form of 200 a weekday opening at 07:00 UTC (08:00 in Berlin, in winter), 21 days', () => {
		const from = Date.UTC(2026, 0, 12);
		expect(alertsOf(form('Europe/Berlin', OFFICE, 200), from, from + 21 * DAY)).toEqual([]);
	});

	it('a form of 200 a weekday opening at 08:00 in London, across the March clock change, 21 days', () => {
		const from = Date.UTC(2026, 2, 16);
		expect(alertsOf(form('Europe/London', OFFICE, 200), from, from + 21 * DAY)).toEqual([]);
	});

	it('a newsletter form, about 2 a day and two e-mail blasts a week of 20 to 60 leads, 60 days', () => {
		const draw = new Draw(2);
		const blasts = Array.from({ length: 20 }, (_, index) => ({
			at: T0 - 4 * WEEK + (index / 2) * WEEK + draw.between(0, WEEK / 2),
			size: draw.between(20, 60),
			fadeMs: draw.between(1, 4) * HOUR,
		}));
		const newsletter = form('UTC', ALL_DAY, 2);
		const rate = newsletter.rate;
		newsletter.rate = (time, wall) =>
			blasts.reduce(
				(sum, { at, size, fadeMs }) =>
					time < at ? sum : sum + ((size * HOUR) / fadeMs) * Math.exp(-(time - at) / fadeMs),
				rate(time, wall),
			);
		expect(alertsOf(newsletter, T0, T0 + 60 * DAY)).toEqual([]);
	});

	it('monthly campaigns of three days at 100 a day, with near silence between (one lead in two days), 60 days', () => {
		const campaigns = [-20, 10, 40].map((day) => T0 + day * DAY);
		const campaign = form('UTC', ALL_DAY, 100);
		const quiet = form('UTC', ALL_DAY, 0.5);
		const model = form('UTC', ALL_DAY, 0, {
			rate: (time, wall) =>
				campaigns.some((start) => time >= start && time < start + 3 * DAY)
					? campaign.rate(time, wall)
					: quiet.rate(time, wall),
		});
		expect(alertsOf(model, T0, T0 + 60 * DAY)).toEqual([]);
	});

	it('a form of 200 a weekday in London listed 4 to 8 hours late on one day in five: no alert on the days without lag, 60 days across the clock change', () => {
		const draw = new Draw(5);
		const lateDays = new Map<number, number>();
		for (let day = T0 / DAY - 28; day < T0 / DAY + 60; day++)
			if (draw.chance(0.2)) lateDays.set(day, draw.between(4, 8) * HOUR);
		const late = form('Europe/London', OFFICE, 200, { lateDays });
		const alerts = alertsOf(late, T0, T0 + 60 * DAY);
		expect(alerts.filter((at) => !lateDays.has(wallOf('Europe/London', at).day))).toEqual([]);
	});
});

describe('When Unusually Quiet: breaks reported', () => {
	it('a new form with three test leads three weeks before its launch, broken on day 36, is reported within a day', () => {
		const launch = T0 + 21 * DAY;
		const broken: Outage = {
			kind: 'break',
			from: T0 + 36 * DAY + 10 * HOUR,
			to: Infinity,
			keep: 0,
		};
		const model = form('UTC', ALL_DAY, 50, {
			rate: (time, wall) => (time < launch ? 0 : 50 * shareAt(ALL_DAY, wall)),
			extra: [0, 20, 40].map((minutes) => T0 + 10 * HOUR + minutes * MINUTE),
			outages: [broken],
		});
		const alerts = alertsOf(model, T0, T0 + 40 * DAY);
		expect(alerts).toHaveLength(1);
		expect(alerts[0] - broken.from).toBeGreaterThan(0);
		expect(alerts[0] - broken.from).toBeLessThanOrEqual(DAY);
	});

	// Its weeks before the first read are learned from the leads' times: judged from that read on.
	it.each([
		['a week after its first read', T0 + 8 * DAY + 10 * HOUR],
		['the day after its first read', T0 + DAY + 10 * HOUR],
	])(
		'a form with a lead every 10 minutes on weekday office hours, broken on a Tuesday at 10:00 %s, is reported that Tuesday, never over a weekend',
		(_, tuesday) => {
			const leads = leadsEvery(T0 - 28 * DAY, tuesday, 10, officeHours);
			const { alerts } = pollRhythm(leads, T0, tuesday + 2 * DAY, UNUSUAL);
			expect(alerts).toHaveLength(1);
			expect(alerts[0]).toBeGreaterThan(tuesday);
			expect(alerts[0]).toBeLessThanOrEqual(tuesday + 3 * HOUR);
		},
	);

	it('a reported spell teaches nothing: the form broken again two weeks later, in the same hours, is reported within the same morning', () => {
		const down = [T0 + 10 * DAY + 11 * HOUR, T0 + 24 * DAY + 11 * HOUR];
		const leads = leadsEvery(
			T0 - 28 * DAY,
			T0 + 40 * DAY,
			15,
			(time) => !down.some((start) => time >= start && time < start + 3 * DAY),
		);
		const { alerts } = pollRhythm(leads, T0, T0 + 40 * DAY, UNUSUAL);
		expect(alerts).toHaveLength(2);
		const delays = alerts.map((alert, index) => alert - down[index]);
		expect(delays[0]).toBeLessThanOrEqual(4 * HOUR);
		// Learned as quiet, those hours would hold it off for the whole break; left out, three weeks judge it (so a little later).
		expect(delays[1]).toBeLessThanOrEqual(delays[0] * (4 / 3) + 10 * MINUTE);
	});

	it('hours reported quiet and quiet again a week later are the rhythm: reported once, then learned', () => {
		// Mondays from 08:00 to 12:00 go quiet for good from the fifth week on.
		const mornings = (time: number) => {
			const wall = wallOf('UTC', time);
			return time < T0 + 7 * DAY || wall.weekday !== 0 || wall.hour < 8 || wall.hour >= 12;
		};
		const leads = leadsEvery(T0 - 28 * DAY, T0 + 35 * DAY, 10, mornings);
		const { alerts } = pollRhythm(leads, T0, T0 + 35 * DAY, UNUSUAL);
		expect(alerts).toHaveLength(1);
		expect(wallOf('UTC', alerts[0]).weekday).toBe(0);
	});

	it('judges no form before its rhythm begins (three weeks of leads), and never one without a lead', () => {
		const leads = leadsEvery(T0, T0 + 30 * DAY, 15).filter((time) => time < T0 + 10 * DAY);
		const young = pollRhythm(leads, T0, T0 + 30 * DAY, UNUSUAL);
		// Silent from day 10: its rhythm never began (three weeks of leads), so it is not judged.
		expect(young.alerts).toEqual([]);
		const none = nextRhythm(undefined, { arrivals: 0, times: [] }, T0, IN_UTC);
		expect(
			quietSpell(none, { kind: 'fixed', afterMs: HOUR }, T0 + 100 * DAY, IN_UTC),
		).toBeUndefined();
		expect(quietSpell(none, UNUSUAL, T0 + 100 * DAY, IN_UTC)).toBeUndefined();
	});
});

describe('a quiet spell', () => {
	it('runs from the poll that last brought a lead, whatever the lead says of its own time, and is reported once', () => {
		const first = nextRhythm(undefined, { arrivals: 0, times: [T0 - DAY] }, T0, IN_UTC);
		// A lead submitted a day ago, seen only now: the form is not quiet now.
		const late = nextRhythm(first, { arrivals: 1, times: [] }, T0 + 30 * HOUR, IN_UTC);
		const fixed: QuietRule = { kind: 'fixed', afterMs: 24 * HOUR };
		expect(quietSpell(late, fixed, T0 + 30 * HOUR, IN_UTC)).toBeUndefined();
		expect(quietSpell(late, fixed, T0 + 54 * HOUR - 1, IN_UTC)).toBeUndefined();
		const spell = { last: T0 + 30 * HOUR, quietMs: 24 * HOUR };
		expect(quietSpell(late, fixed, T0 + 54 * HOUR, IN_UTC)).toEqual(spell);
		expect(quietSpell(markReported(late, spell), fixed, T0 + 60 * HOUR, IN_UTC)).toBeUndefined();
		// A clock set back: no spell, not a negative one.
		expect(quietSpell(late, fixed, T0, IN_UTC)).toBeUndefined();
	});

	it('leaves out the time the form was not watched', () => {
		const rhythm = nextRhythm(undefined, { arrivals: 0, times: [T0 - DAY] }, T0, IN_UTC);
		const away: RhythmContext = { timeZone: 'UTC', unwatched: [[T0 + HOUR, T0 + 21 * HOUR]] };
		const fixed: QuietRule = { kind: 'fixed', afterMs: 24 * HOUR };
		expect(quietSpell(rhythm, fixed, T0 + 30 * HOUR, away)).toBeUndefined();
		expect(quietSpell(rhythm, fixed, T0 + 44 * HOUR, away)).toEqual({
			last: T0,
			quietMs: 24 * HOUR,
		});
	});

	it('a form not watched for days is not reported for them, nor learns them as quiet', () => {
		const gone: [number, number] = [T0 + 20 * DAY, T0 + 23 * DAY];
		const context: RhythmContext = { timeZone: 'UTC', unwatched: [gone] };
		// Polls every 10 minutes, but none while the form is not watched; the leads listed then are not new after.
		const alertsUntil = (leads: number[], to: number) => {
			let rhythm: FormRhythm | undefined;
			const alerts: number[] = [];
			let seen = 0;
			for (let now = T0; now <= to; now += 10 * MINUTE) {
				const before = seen;
				while (seen < leads.length && leads[seen] <= now) seen++;
				if (now >= gone[0] && now < gone[1]) continue;
				const arrivals = leads
					.slice(before, seen)
					.filter((time) => time < gone[0] || time >= gone[1]).length;
				rhythm = nextRhythm(rhythm, { arrivals, times: leads.slice(0, seen) }, now, context);
				const spell = quietSpell(rhythm, UNUSUAL, now, context);
				if (spell === undefined) continue;
				alerts.push(now);
				rhythm = markReported(rhythm, spell);
			}
			return alerts;
		};
		expect(alertsUntil(leadsEvery(T0 - 28 * DAY, T0 + 40 * DAY, 10), T0 + 40 * DAY)).toEqual([]);
		// Broken a week after the form was not watched: those hours are not known quiet, the other weeks say it is unusual.
		const broken = T0 + 27 * DAY + 12 * HOUR;
		const alerts = alertsUntil(leadsEvery(T0 - 28 * DAY, broken, 10), T0 + 29 * DAY);
		expect(alerts).toHaveLength(1);
		expect(alerts[0] - broken).toBeLessThanOrEqual(4 * HOUR);
	});
});

describe('a rhythm as it is stored', () => {
	it('takes at most 770 bytes of JSON whatever the traffic: 1 or 1,000 leads a day, 100,000 in an hour, a spell reported', () => {
		const sizes = [24 * 60, 2].map((everyMinutes) => {
			const leads = leadsEvery(T0 - 28 * DAY, T0 + 30 * DAY, everyMinutes);
			const { rhythm } = pollRhythm(leads, T0, T0 + 30 * DAY, UNUSUAL);
			const burst = nextRhythm(rhythm, { arrivals: 100_000, times: [] }, T0 + 31 * DAY, IN_UTC);
			return JSON.stringify(markReported(burst, { last: T0 + 31 * DAY, quietMs: 0 })).length;
		});
		// docs/trigger-internals.md, "Alert When Quiet: what it remembers".
		expect(Math.max(...sizes)).toBeLessThanOrEqual(770);
		expect(Math.min(...sizes)).toBeGreaterThan(740);
	});

	it('an unknown time zone reads as UTC, without an error', () => {
		const context: RhythmContext = { timeZone: 'Nowhere/Else', unwatched: [] };
		const rhythm = nextRhythm(undefined, { arrivals: 0, times: [T0 - HOUR] }, T0, context);
		expect(rhythm).toEqual(nextRhythm(undefined, { arrivals: 0, times: [T0 - HOUR] }, T0, IN_UTC));
	});

	it('names what is wrong with a damaged rhythm', () => {
		const good = nextRhythm(undefined, { arrivals: 0, times: [T0 - DAY] }, T0, IN_UTC);
		expect(rhythmProblem(JSON.parse(JSON.stringify(good)))).toBeUndefined();
		expect(rhythmProblem('x')).toMatch(/not an object/);
		expect(rhythmProblem({ ...good, last: 'x' })).toMatch(/"last"/);
		expect(rhythmProblem({ ...good, open: [1, 'x'] })).toMatch(/"open"/);
		expect(rhythmProblem({ ...good, weeks: 'AAAA' })).toMatch(/"weeks" is not 672 hours/);
		expect(rhythmProblem({ ...good, weeks: `${good.weeks.slice(1)}"` })).toMatch(/character/);
		expect(rhythmProblem({ ...good, more: [] })).toBeUndefined();
	});
});
