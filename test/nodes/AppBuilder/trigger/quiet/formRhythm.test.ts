import fc from 'fast-check';

import type { CursorEvent } from '../../../../../nodes/AppBuilder/trigger/cursor/cursor';
import { FormsPoll, type FormOutcome } from '../../../../../nodes/AppBuilder/trigger/plan/pollPlan';
import { Watch } from '../../../../../nodes/AppBuilder/trigger/plan/watch';
import {
	nextRhythm,
	quietSpell,
	RHYTHM_WEEKS,
	UNUSUAL_FLOOR_MS,
	UNUSUAL_MARGIN,
	type FormRhythm,
	type QuietRule,
} from '../../../../../nodes/AppBuilder/trigger/quiet/formRhythm';
import type { TriggerPosition } from '../../../../../nodes/AppBuilder/trigger/saved/position';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
/** A Monday, 00:00 UTC. */
const T0 = Date.UTC(2026, 2, 2);

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

interface FormLife {
	pageId: string;
	leads: number[];
	/** Spells the form is broken: no lead from `from` to `to`. */
	breaks: Array<{ from: number; to: number }>;
}

/**
 * 90 days of leads for one form: busy on weekday office hours, quieter in the
 * evening, none at night, few or none at weekends and on a public holiday,
 * and a burst now and then; no lead while the form is broken.
 */
function formLife(pageId: string, next: () => number, breaks: FormLife['breaks']): FormLife {
	const perHour = 0.6 + next() * 4;
	const weekendShare = next() < 0.5 ? 0 : 0.05;
	const holiday = 45;
	const leads: number[] = [];
	for (let day = 0; day < 90; day++) {
		const weekday = day % 7 < 5 && day !== holiday;
		for (let hour = 0; hour < 24; hour++) {
			const base = hour >= 8 && hour < 18 ? perHour : hour >= 18 && hour < 22 ? perHour / 5 : 0;
			const rate = weekday ? base : base * weekendShare;
			// Poisson arrivals within the hour.
			let at = -Math.log(1 - next()) / rate;
			while (rate > 0 && at < 1) {
				leads.push(T0 + day * DAY + (hour + at) * HOUR);
				at += -Math.log(1 - next()) / rate;
			}
		}
		if (weekday && next() < 0.1) {
			const start = T0 + day * DAY + (9 + next() * 8) * HOUR;
			for (let index = 0; index < 12; index++) leads.push(start + next() * 10 * MINUTE);
		}
	}
	const kept = leads
		.filter((time) => !breaks.some((spell) => time >= spell.from && time < spell.to))
		.sort((a, b) => a - b);
	return { pageId, leads: kept, breaks };
}

/** The longest gap between two leads of a form before `until`. */
function longestGapBefore(leads: number[], until: number): number {
	let longest = 0;
	for (let index = 1; index < leads.length && leads[index] < until; index++) {
		longest = Math.max(longest, leads[index] - leads[index - 1]);
	}
	return longest;
}

/**
 * Runs a trigger watching every form through the pure poll plan, activated
 * on day 28 (it learns the forms' rhythm from their leads so far), then one
 * poll an hour to day 90, the position JSON between polls as n8n keeps it;
 * returns, per form, the times it was reported quiet.
 */
function simulate(forms: FormLife[], rule: QuietRule): Map<string, number[]> {
	let saved: TriggerPosition | undefined;
	const alerts = new Map(forms.map((form) => [form.pageId, [] as number[]]));
	const next = forms.map(() => 0);
	for (let now = T0 + 28 * DAY; now <= T0 + 90 * DAY; now += HOUR) {
		const outcomes: FormOutcome[] = forms.map((form, index) => {
			// The rhythm reads only what is newer than what it knows: a day of leads is enough after the first poll.
			while (next[index] < form.leads.length && form.leads[next[index]] <= now - DAY) next[index]++;
			const present = saved === undefined ? form.leads.filter((time) => time <= now) : [];
			if (saved !== undefined)
				for (let at = next[index]; at < form.leads.length && form.leads[at] <= now; at++)
					present.push(form.leads[at]);
			const events: CursorEvent[] = present.map((time) => ({
				key: `${form.pageId}-${time}`,
				time,
			}));
			return { pageId: form.pageId, events };
		});
		const poll = new FormsPoll({
			saved,
			scope: 'app/new',
			listed: forms.map((form) => form.pageId),
			watch: new Watch(saved, { pageId: undefined, firstPoll: { kind: 'none' } }, now),
			cursorOptions: { mode: 'new', firstPoll: { kind: 'none' }, maxItems: 10_000, nowMs: now },
			quiet: rule,
			nowMs: now,
		});
		const plan = poll.plan(outcomes);
		for (const { pageId } of plan.quietSpells) alerts.get(pageId)?.push(now);
		saved = JSON.parse(JSON.stringify(plan.commit(plan.emissions.length))) as TriggerPosition;
	}
	return alerts;
}

/** Every break is reported once, within 3 times the form's usual longest gap; nothing else is. */
function expectAlertsOnlyForBreaks(forms: FormLife[], alerts: Map<string, number[]>): void {
	for (const form of forms) {
		const reported = alerts.get(form.pageId) ?? [];
		const expected: number[] = [];
		for (const spell of form.breaks) {
			const last = Math.max(...form.leads.filter((time) => time < spell.from));
			const usual = longestGapBefore(form.leads, spell.from);
			const inSpell = reported.filter((time) => time > last && time < spell.to);
			expect({ form: form.pageId, spell: spell.from, alerts: inSpell.length }).toEqual({
				form: form.pageId,
				spell: spell.from,
				alerts: 1,
			});
			expect(inSpell[0] - last).toBeLessThanOrEqual(3 * usual);
			expected.push(inSpell[0]);
		}
		// No alert in any normal spell.
		expect({ form: form.pageId, alerts: reported }).toEqual({
			form: form.pageId,
			alerts: expected,
		});
	}
}

describe('Alert When Quiet, over 90 days of leads', () => {
	const next = random(20261126);
	const forms = Array.from({ length: 20 }, (_, index) => {
		// Most forms break once for six days, at a known time after their first five weeks; some never do.
		const breaksAt = T0 + (36 + Math.floor(next() * 40)) * DAY + 10 * HOUR;
		const breaks = index % 4 === 3 ? [] : [{ from: breaksAt, to: breaksAt + 6 * DAY }];
		return formLife(`form_${index}`, next, breaks);
	});

	it('When Unusually Quiet: every break is reported once, within 3 times the usual longest gap, and no normal spell is (20 forms)', () => {
		expectAlertsOnlyForBreaks(forms, simulate(forms, { kind: 'unusual' }));
	});

	it('After a Fixed Time: every break is reported once and no normal spell is (20 forms, 100 hours)', () => {
		expectAlertsOnlyForBreaks(forms, simulate(forms, { kind: 'fixed', afterMs: 100 * HOUR }));
	});
});

describe('a form rhythm', () => {
	it("judges a form out of the app's list, but not one taken out of the watch by Watch: One Form", () => {
		const quietSince = T0 - 30 * DAY;
		const saved: TriggerPosition = {
			scope: 'app/new',
			forms: {
				a: { floor: { time: 0, key: '' }, seen: {}, undated: '' },
				b: { floor: { time: 0, key: '' }, seen: {}, undated: '' },
			},
			away: {},
			undatedUnknown: [],
			leftOver: [],
			quiet: { b: { since: quietSince, last: quietSince, weeks: [] } },
		};
		const spellsWhen = (allForms: boolean) =>
			new FormsPoll({
				saved,
				scope: 'app/new',
				listed: ['a'],
				watch: new Watch(
					saved,
					{ pageId: allForms ? undefined : 'a', firstPoll: { kind: 'none' } },
					T0,
				),
				cursorOptions: { mode: 'new', firstPoll: { kind: 'none' }, maxItems: 10, nowMs: T0 },
				quiet: { kind: 'fixed', afterMs: DAY },
				nowMs: T0,
			}).plan([{ pageId: 'a', events: [] }]).quietSpells;
		expect(spellsWhen(true)).toEqual([expect.objectContaining({ pageId: 'b', away: true })]);
		expect(spellsWhen(false)).toEqual([]);
	});

	it('waits a full period after activation, however old the last lead', () => {
		const rhythm = nextRhythm(undefined, [T0 - 30 * DAY], T0);
		expect(quietSpell(rhythm, { kind: 'fixed', afterMs: DAY }, T0 + DAY - 1)).toBeUndefined();
		expect(quietSpell(rhythm, { kind: 'fixed', afterMs: DAY }, T0 + DAY)).toMatchObject({
			last: T0 - 30 * DAY,
			quietMs: 31 * DAY,
		});
	});

	it('does not judge a form with no lead yet, nor one with too little history when unusually quiet', () => {
		const none = nextRhythm(undefined, [undefined], T0);
		expect(quietSpell(none, { kind: 'fixed', afterMs: HOUR }, T0 + 100 * DAY)).toBeUndefined();
		const few = nextRhythm(undefined, [T0 - 20 * DAY, T0 - 10 * DAY, T0 - DAY], T0);
		expect(quietSpell(few, { kind: 'unusual' }, T0 + 100 * DAY)).toBeUndefined();
	});

	it('takes no time from the future: a record dated next year counts as now', () => {
		const rhythm = nextRhythm(undefined, [T0 + 365 * DAY], T0);
		expect(rhythm.last).toBe(T0);
	});

	it('stays small: at most one entry per week of the last weeks, whatever the traffic', () => {
		let rhythm: FormRhythm | undefined;
		for (let day = 0; day < 200; day++) {
			const times = Array.from({ length: 500 }, (_, index) => T0 + day * DAY + index * MINUTE);
			rhythm = nextRhythm(rhythm, times, T0 + (day + 1) * DAY);
		}
		expect(rhythm?.weeks.length).toBeLessThanOrEqual(RHYTHM_WEEKS + 1);
		expect(JSON.stringify(rhythm).length).toBeLessThan(200);
	});

	it('property: one report per quiet spell; never before the spell outlasts the floor and every gap of the last four weeks; always once past twice the longest gap', () => {
		fc.assert(
			fc.property(
				fc.array(fc.integer({ min: 1, max: 72 * 60 }), { minLength: 12, maxLength: 150 }),
				fc.integer({ min: 1, max: 30 * 24 }),
				fc.integer({ min: 15, max: 6 * 60 }),
				(gapsInMinutes, breakHours, pollMinutes) => {
					const leads: number[] = [];
					let time = T0;
					for (const gap of gapsInMinutes) leads.push((time += gap * MINUTE));
					const end = leads[leads.length - 1] + breakHours * HOUR;
					let rhythm: FormRhythm | undefined;
					const reportedFor: number[] = [];
					let seen = 0;
					let now = T0;
					for (; now <= end; now += pollMinutes * MINUTE) {
						const fresh: number[] = [];
						while (seen < leads.length && leads[seen] <= now) fresh.push(leads[seen++]);
						rhythm = nextRhythm(rhythm, fresh, now);
						const spell = quietSpell(rhythm, { kind: 'unusual' }, now);
						if (spell === undefined) continue;
						reportedFor.push(spell.last);
						rhythm = { ...rhythm, alerted: spell.last };
						const recentGaps = leads
							.map((lead, index) =>
								index > 0 && lead > now - 4 * 7 * DAY ? lead - leads[index - 1] : 0,
							)
							.filter((gap, index) => leads[index] <= now && gap > 0);
						expect(spell.quietMs).toBeGreaterThanOrEqual(UNUSUAL_FLOOR_MS);
						expect(spell.quietMs).toBeGreaterThanOrEqual(Math.max(0, ...recentGaps) - MINUTE);
					}
					expect(new Set(reportedFor).size).toBe(reportedFor.length);
					// The last spell: once the rule judges it and it has lasted its threshold and a poll more, it was reported.
					const judged = quietSpell(
						{ ...(rhythm as FormRhythm), alerted: undefined },
						{ kind: 'unusual' },
						end,
					);
					if (judged !== undefined && judged.quietMs >= judged.thresholdMs + pollMinutes * MINUTE) {
						expect(reportedFor).toContain(leads[leads.length - 1]);
						expect(UNUSUAL_MARGIN * longestGapBefore(leads, end)).toBeGreaterThanOrEqual(
							judged.usualMs,
						);
					}
				},
			),
			{ numRuns: 300 },
		);
	});
});
