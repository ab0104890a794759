import {
	LEARNED_MS,
	MISSED_LEADS,
	nextRhythm,
	quietSpell,
	rhythmProblem,
	type FormRhythm,
	type QuietRule,
} from '../../../../../nodes/AppBuilder/trigger/quiet/formRhythm';
import { MINUTE, HOUR, DAY } from '../../../../support/durations';

/** A Monday, 00:00 UTC. */
const T0 = Date.UTC(2026, 2, 2);
const UNUSUAL: QuietRule = { kind: 'unusual' };

/** A lead every `everyMinutes` on weekdays from 08:00 to 18:00 UTC, none at weekends, from `from` to `to`. */
function weekdayLeads(from: number, to: number, everyMinutes: number): number[] {
	const leads: number[] = [];
	for (let time = from; time < to; time += everyMinutes * MINUTE) {
		const date = new Date(time);
		const weekday = date.getUTCDay() >= 1 && date.getUTCDay() <= 5;
		if (weekday && date.getUTCHours() >= 8 && date.getUTCHours() < 18) leads.push(time);
	}
	return leads;
}

/** Polls every `pollMinutes` from `from` to `to`, each counting the leads visible since the last; the moments it reports. */
function pollRhythm(
	visible: number[],
	from: number,
	to: number,
	rule: QuietRule,
	start?: FormRhythm,
	pollMinutes = 10,
): { rhythm: FormRhythm; alerts: number[] } {
	let rhythm = start;
	let seen = visible.filter((time) => time <= from).length;
	const alerts: number[] = [];
	for (let now = from; now <= to; now += pollMinutes * MINUTE) {
		const before = seen;
		while (seen < visible.length && visible[seen] <= now) seen++;
		const times = rhythm === undefined ? visible.slice(0, seen) : [];
		rhythm = nextRhythm(rhythm, { arrivals: seen - before, times }, now);
		const spell = quietSpell(rhythm, rule, now);
		if (spell === undefined) continue;
		alerts.push(now);
		rhythm = { ...rhythm, alerted: spell.last };
	}
	return { rhythm: rhythm as FormRhythm, alerts };
}

describe('Alert When Quiet, judged by when leads arrive', () => {
	it('a quiet spell runs from the poll that last brought a lead, whatever the lead says of its own time', () => {
		const first = nextRhythm(undefined, { arrivals: 0, times: [T0 - DAY] }, T0);
		// A lead submitted a day ago, seen only now: the form is not quiet now.
		const late = nextRhythm(first, { arrivals: 1, times: [] }, T0 + 30 * HOUR);
		const fixed: QuietRule = { kind: 'fixed', afterMs: 24 * HOUR };
		expect(quietSpell(late, fixed, T0 + 30 * HOUR)).toBeUndefined();
		expect(quietSpell(late, fixed, T0 + 54 * HOUR - 1)).toBeUndefined();
		expect(quietSpell(late, fixed, T0 + 54 * HOUR)).toEqual({
			last: T0 + 30 * HOUR,
			quietMs: 24 * HOUR,
		});
		// A clock set back: no spell, not a negative one.
		expect(quietSpell(late, fixed, T0)).toBeUndefined();
	});

	it('a form with a lead every 10 minutes on weekday office hours, broken on a Tuesday at 10:00, is reported that Tuesday afternoon, and never over a weekend', () => {
		const history = weekdayLeads(T0 - 28 * DAY, T0, 10);
		const tuesday = T0 + 8 * DAY + 10 * HOUR;
		const leads = [...history, ...weekdayLeads(T0, tuesday, 10)];
		const { alerts } = pollRhythm(leads, T0, T0 + 10 * DAY, UNUSUAL);
		expect(alerts).toHaveLength(1);
		expect(alerts[0]).toBeGreaterThan(tuesday);
		expect(alerts[0]).toBeLessThanOrEqual(tuesday + 4 * HOUR);
	});

	it('a reported spell teaches nothing: the form broken again after it is reported as fast', () => {
		const leads: number[] = [];
		const down = [T0 + 10 * DAY + 11 * HOUR, T0 + 24 * DAY + 11 * HOUR];
		for (let time = T0 - 28 * DAY; time < T0 + 40 * DAY; time += 15 * MINUTE)
			if (!down.some((start) => time >= start && time < start + 3 * DAY)) leads.push(time);
		const { alerts } = pollRhythm(leads, T0, T0 + 40 * DAY, UNUSUAL);
		expect(alerts).toHaveLength(2);
		const delays = alerts.map((alert, index) => alert - down[index]);
		// A lead every 15 minutes: about 12 missed in three hours, both times.
		expect(delays[0]).toBeLessThanOrEqual(3 * HOUR + 10 * MINUTE);
		expect(delays[1]).toBeLessThanOrEqual(delays[0] + 10 * MINUTE);
	});

	it(`judges a new form only once its rhythm is learned (${LEARNED_MS / DAY} days), and never one without a lead`, () => {
		const leads: number[] = [];
		for (let time = T0; time < T0 + 30 * DAY; time += 15 * MINUTE) leads.push(time);
		const silent = T0 + LEARNED_MS - DAY;
		const young = pollRhythm(
			leads.filter((time) => time < silent),
			T0,
			T0 + LEARNED_MS + 2 * DAY,
			UNUSUAL,
		);
		// Silent from before the rhythm is learned: reported only once it is.
		expect(young.alerts).toHaveLength(1);
		expect(young.alerts[0]).toBeGreaterThanOrEqual(T0 + LEARNED_MS);
		const none = nextRhythm(undefined, { arrivals: 0, times: [] }, T0);
		expect(quietSpell(none, { kind: 'fixed', afterMs: HOUR }, T0 + 100 * DAY)).toBeUndefined();
		expect(quietSpell(none, UNUSUAL, T0 + 100 * DAY)).toBeUndefined();
	});

	it('reports about as fast whatever moment of the week a steady form breaks at: no week boundary shows', () => {
		const delays: number[] = [];
		for (let hour = 0; hour < 7 * 24; hour += 5) {
			const breaks = T0 + 21 * DAY + hour * HOUR;
			const leads: number[] = [];
			for (let time = T0 - 28 * DAY; time < breaks; time += 20 * MINUTE) leads.push(time);
			const { alerts } = pollRhythm(leads, T0 + 20 * DAY, breaks + DAY, UNUSUAL, undefined, 20);
			delays.push(alerts[0] - breaks);
		}
		// A lead every 20 minutes: the 12th missed one is four hours in.
		expect(Math.min(...delays)).toBeGreaterThanOrEqual(3 * HOUR);
		expect(Math.max(...delays)).toBeLessThanOrEqual(4 * HOUR + 40 * MINUTE);
	});

	it(`reports once ${MISSED_LEADS} leads the form usually gets are missing, and stays small whatever the traffic`, () => {
		const leads: number[] = [];
		for (let time = T0 - 28 * DAY; time < T0 + 30 * DAY; time += 6 * MINUTE) leads.push(time);
		const { rhythm, alerts } = pollRhythm(leads, T0, T0 + 30 * DAY + 3 * HOUR, UNUSUAL);
		expect(alerts).toHaveLength(1);
		// Ten leads an hour: the 12th missed one is 72 minutes in, and the poll after it reports.
		expect(alerts[0] - leads[leads.length - 1]).toBeGreaterThanOrEqual(70 * MINUTE);
		expect(alerts[0] - leads[leads.length - 1]).toBeLessThanOrEqual(90 * MINUTE);
		expect(JSON.stringify(rhythm).length).toBeLessThan(250);
	});

	it('names what is wrong with a damaged rhythm', () => {
		const good = nextRhythm(undefined, { arrivals: 0, times: [T0 - DAY] }, T0);
		expect(rhythmProblem(JSON.parse(JSON.stringify(good)))).toBeUndefined();
		expect(rhythmProblem({ ...good, since: 'x' })).toMatch(/since/);
		expect(rhythmProblem({ ...good, slots: 'AAAA' })).toMatch(/slots/);
		expect(rhythmProblem({ ...good, slots: `${good.slots}!` })).toMatch(/slots/);
		expect(rhythmProblem({ ...good, recent: [1] })).toMatch(/recent/);
		expect(rhythmProblem({ ...good, open: [1, 'x'] })).toMatch(/open/);
		expect(rhythmProblem({ ...good, weeks: [] })).toBeUndefined();
	});
});
