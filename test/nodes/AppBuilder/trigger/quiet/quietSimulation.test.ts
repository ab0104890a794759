/* eslint-disable @n8n/community-nodes/no-restricted-globals -- the simulation's table is printed on request (QUIET_SIMULATION_REPORT) */
import fc from 'fast-check';

import { DAY, HOUR, MINUTE, WEEK } from '../../../../support/durations';
import {
	Draw,
	momentOf,
	pollApp,
	shareAt,
	simulateForm,
	wallOf,
	type Alert,
	type DayShape,
	type FormModel,
	type Outage,
	type SimulatedForm,
} from '../../../../support/simulatedLeads';
import { caseCount, itInLongRuns } from '../../../../support/testSize';

/**
 * When Unusually Quiet, simulated over 90 days on rhythms drawn at random per
 * run from classes of what lead forms ordinarily do, each run an app of forms
 * in one workflow time zone, polled every 1, 5 or 15 minutes, n8n restarted
 * every day under its default saving rule, a form now and then not watched
 * for a few days. Runs per class: caseCount (QUIET_SIMULATION_RUNS,
 * TEST_SIZE=long; the quick loop's one run a class, an app of 5 forms and
 * no poll every minute keep it well under 20 seconds); run r of a class draws from the printed seed
 * plus r (PROPERTY_SEED replays it). QUIET_SIMULATION_REPORT=1 prints the
 * table docs/trigger.md shows.
 */
const RUNS = caseCount('QUIET_SIMULATION', 1, 60);
const LONG = process.env.TEST_SIZE === 'long';
const APP_FORMS = LONG ? 20 : 5;
/** Minutes between polls; a poll every minute is the long size's alone. */
const POLL_MINUTES = [5, 5, 15];
const SEED = fc.readConfigureGlobal().seed ?? 0;
const DAYS = 90;
const HISTORY = 4 * WEEK;

const ZONES_WITH_A_CLOCK_CHANGE = [
	'Europe/London',
	'Europe/Berlin',
	'America/New_York',
	'America/Los_Angeles',
	'Australia/Sydney',
];
const ZONES_WITHOUT = ['UTC', 'Asia/Kolkata', 'Asia/Tokyo', 'America/Sao_Paulo', 'Asia/Kathmandu'];

interface Run {
	draw: Draw;
	zone: string;
	/** When the trigger starts: a Monday, 00:00 UTC, from January to October. */
	start: number;
	end: number;
}

/** What a form's leads follow, before breaks, lateness and the trigger. */
interface Plan {
	shape: DayShape;
	perDay: number;
	/** How many times busier at the end of the run than at its start. */
	growth?: number;
	/** Days of the wall clock with a share of their usual leads. */
	holidays?: Map<number, number>;
	/** E-mail blasts: `size` leads from `at`, fading over `fadeMs`. */
	blasts?: Array<{ at: number; size: number; fadeMs: number }>;
	/** Campaigns: `perDay` leads a day (day and night) from `from` to `to`. */
	campaigns?: Array<{ from: number; to: number; perDay: number }>;
	/** Bursts: `times` busier at `at`, fading over `fadeMs`. */
	bursts?: Array<{ at: number; times: number; fadeMs: number }>;
	/** A new form: no lead before its launch (but `extra`). */
	launch?: number;
}

const CAMPAIGN_SHAPE: DayShape = { kind: 'allDay', dayFrom: 8, dayTo: 22, night: 0.2, weekend: 1 };

function rateOf(run: Run, plan: Plan): FormModel['rate'] {
	return (time, wall) => {
		if (plan.launch !== undefined && time < plan.launch) return 0;
		const campaign = plan.campaigns?.find(({ from, to }) => time >= from && time < to);
		let rate = campaign
			? campaign.perDay * shareAt(CAMPAIGN_SHAPE, wall)
			: plan.perDay * shareAt(plan.shape, wall);
		rate *= (plan.growth ?? 1) ** ((time - run.start) / (DAYS * DAY));
		rate *= plan.holidays?.get(wall.day) ?? 1;
		for (const { at, times, fadeMs } of plan.bursts ?? [])
			if (time >= at) rate *= 1 + (times - 1) * Math.exp(-(time - at) / fadeMs);
		for (const { at, size, fadeMs } of plan.blasts ?? [])
			if (time >= at && time < at + 8 * fadeMs)
				rate += ((size * HOUR) / fadeMs) * Math.exp(-(time - at) / fadeMs);
		return rate;
	};
}

function model(run: Run, plan: Plan, more: Partial<FormModel> = {}): FormModel {
	return {
		label: '',
		zone: run.zone,
		rate: rateOf(run, plan),
		extra: [],
		lateDays: new Map(),
		outages: [],
		unwatched: [],
		...more,
	};
}

function officeShape(draw: Draw, days = draw.chance(0.6) ? 5 : draw.pick([6, 7])): DayShape {
	return {
		kind: 'office',
		opens: draw.whole(6, 10) + (draw.chance(0.25) ? 0.5 : 0),
		hours: draw.whole(8, 11),
		days,
		afterHours: draw.chance(0.5) ? 0 : draw.between(0, 0.1),
	};
}

function allDayShape(draw: Draw, night = draw.between(0.05, 1)): DayShape {
	return {
		kind: 'allDay',
		dayFrom: draw.between(6, 10),
		dayTo: draw.between(19, 23),
		night,
		weekend: draw.between(0.3, 1.2),
	};
}

const anyShape = (draw: Draw) => (draw.chance(0.5) ? officeShape(draw) : allDayShape(draw));

/**
 * A moment in the run, between `fromDay` and `toDay` days after its start;
 * with an office `shape`, on a working day, `hours` (from, to) after opening.
 */
function momentIn(
	run: Run,
	fromDay: number,
	toDay: number,
	shape?: DayShape,
	hours?: [number, number],
): number {
	for (;;) {
		const time = run.start + run.draw.between(fromDay, toDay) * DAY;
		if (shape?.kind !== 'office') return time;
		const wall = wallOf(run.zone, time);
		const [from, to] = hours ?? [-24, 24];
		if (
			wall.weekday < shape.days &&
			wall.hour >= shape.opens + from &&
			wall.hour < shape.opens + to
		)
			return time;
	}
}

type Kind = 'ordinary' | 'closure' | 'break' | 'partial';

interface RhythmClass {
	name: string;
	kind: Kind;
	form: (run: Run) => FormModel;
}

const ORDINARY: RhythmClass[] = [
	{
		name: 'office hours, 5-500 a day',
		kind: 'ordinary',
		form: (run) =>
			model(run, { shape: officeShape(run.draw), perDay: run.draw.logBetween(5, 500) }),
	},
	{
		name: 'day and night, 1-500 a day',
		kind: 'ordinary',
		form: (run) =>
			model(run, { shape: allDayShape(run.draw), perDay: run.draw.logBetween(1, 500) }),
	},
	{
		name: 'newsletter, e-mail blasts',
		kind: 'ordinary',
		form: (run) => {
			const blasts: Plan['blasts'] = [];
			for (let week = run.start - HISTORY; week < run.end; week += WEEK)
				for (let blast = run.draw.whole(1, 2); blast > 0; blast--)
					blasts.push({
						at: week + run.draw.between(0, WEEK),
						size: run.draw.logBetween(10, 80),
						fadeMs: run.draw.between(1, 6) * HOUR,
					});
			return model(run, { shape: allDayShape(run.draw), perDay: run.draw.between(2, 5), blasts });
		},
	},
	{
		name: 'monthly campaigns, silence between',
		kind: 'ordinary',
		form: (run) => {
			const campaigns: Plan['campaigns'] = [];
			for (
				let from = run.start - HISTORY + run.draw.between(0, 30) * DAY;
				from < run.end;
				from += run.draw.between(25, 35) * DAY
			)
				campaigns.push({
					from,
					to: from + run.draw.between(2, 5) * DAY,
					perDay: run.draw.logBetween(20, 200),
				});
			return model(run, {
				shape: allDayShape(run.draw),
				perDay: run.draw.between(0.1, 1),
				campaigns,
			});
		},
	},
	{
		name: 'bursts 3-20 times busier',
		kind: 'ordinary',
		form: (run) =>
			model(run, {
				shape: anyShape(run.draw),
				perDay: run.draw.logBetween(5, 200),
				bursts: Array.from({ length: run.draw.whole(1, 3) }, () => ({
					at: momentIn(run, -28, DAYS),
					times: run.draw.between(3, 20),
					fadeMs: run.draw.between(0.5, 3) * DAY,
				})),
			}),
	},
	{
		name: 'listed 4-8 h late, 1 day in 5',
		kind: 'ordinary',
		form: (run) => {
			const lateDays = new Map<number, number>();
			const first = wallOf(run.zone, run.start - HISTORY).day;
			for (let day = first; day <= first + 28 + DAYS; day++)
				if (run.draw.chance(0.2)) lateDays.set(day, run.draw.between(4, 8) * HOUR);
			return model(
				run,
				{ shape: anyShape(run.draw), perDay: run.draw.logBetween(20, 200) },
				{ lateDays },
			);
		},
	},
	{
		name: 'new form, test leads before launch',
		kind: 'ordinary',
		form: (run) => {
			const launch = momentIn(run, 0, 30);
			const testDay = launch - run.draw.between(14, 35) * DAY;
			return model(
				run,
				{ shape: anyShape(run.draw), perDay: run.draw.logBetween(5, 200), launch },
				{
					extra: Array.from(
						{ length: run.draw.whole(1, 5) },
						() => testDay + run.draw.between(0, 4) * HOUR,
					),
				},
			);
		},
	},
	{
		name: 'holidays at 80-95%',
		kind: 'ordinary',
		form: (run) => {
			const shape = officeShape(run.draw);
			const holidays = new Map<number, number>();
			for (let count = run.draw.whole(3, 6); count > 0; count--)
				holidays.set(
					wallOf(run.zone, momentIn(run, -28, DAYS, shape)).day,
					run.draw.between(0.8, 0.95),
				);
			return model(run, { shape, perDay: run.draw.logBetween(5, 300), holidays });
		},
	},
	{
		name: 'growth or decline up to 10x',
		kind: 'ordinary',
		form: (run) =>
			model(run, {
				shape: anyShape(run.draw),
				perDay: run.draw.logBetween(5, 200),
				growth: run.draw.logBetween(0.1, 10),
			}),
	},
	{
		name: 'one lead a week',
		kind: 'ordinary',
		form: (run) => model(run, { shape: allDayShape(run.draw), perDay: 1 / 7 }),
	},
];

const MIXED_APP: RhythmClass = {
	name: `an app of ${APP_FORMS} forms of these`,
	kind: 'ordinary',
	form: (run) => {
		const rhythm = run.draw.pick(ORDINARY);
		return { ...rhythm.form(run), label: rhythm.name };
	},
};

/**
 * A form broken (keeping `keep` of its leads) from a moment of days 35 to 80
 * (with an office shape, in its first three office hours), for `days`; the
 * goal is to report it within `goalMs`, or the same office day.
 */
function broken(run: Run, plan: Plan, keep: number, days: number, goalMs?: number): FormModel {
	const { shape } = plan;
	const from = momentIn(run, 35, 80, shape, [0, 3]);
	const wall = wallOf(run.zone, from);
	const by =
		goalMs !== undefined || shape.kind !== 'office'
			? from + (goalMs ?? Infinity)
			: momentOf(run.zone, wall.day, shape.opens + shape.hours);
	return model(run, plan, { outages: [{ kind: 'break', from, to: from + days * DAY, keep, by }] });
}

const BROKEN: RhythmClass[] = [
	{
		name: 'closed 1-14 days',
		kind: 'closure',
		form: (run) => {
			const shape = officeShape(run.draw, 5);
			const from = momentOf(run.zone, wallOf(run.zone, momentIn(run, 35, 80, shape)).day, 0);
			const outages: Outage[] = [
				{ kind: 'closure', from, to: from + run.draw.whole(1, 14) * DAY, keep: 0 },
			];
			return model(run, { shape, perDay: run.draw.logBetween(10, 200) }, { outages });
		},
	},
	{
		name: 'a day at 10-80%',
		kind: 'closure',
		form: (run) => {
			const shape = officeShape(run.draw);
			const from = momentOf(run.zone, wallOf(run.zone, momentIn(run, 35, 80, shape)).day, 0);
			const outages: Outage[] = [
				{ kind: 'closure', from, to: from + DAY, keep: run.draw.between(0.1, 0.8) },
			];
			return model(run, { shape, perDay: run.draw.logBetween(10, 300) }, { outages });
		},
	},
	{
		name: 'busy (150-250 a day)',
		kind: 'break',
		form: (run) =>
			broken(
				run,
				{
					shape: { ...allDayShape(run.draw, run.draw.between(0.4, 1)), weekend: 1 } as DayShape,
					perDay: run.draw.between(150, 250),
				},
				0,
				2,
				2 * HOUR,
			),
	},
	{
		name: 'office hours, weekdays, 40-200 a day',
		kind: 'break',
		form: (run) =>
			broken(run, { shape: officeShape(run.draw, 5), perDay: run.draw.logBetween(40, 200) }, 0, 3),
	},
	{
		name: 'about 3 a day',
		kind: 'break',
		form: (run) =>
			broken(
				run,
				{ shape: allDayShape(run.draw), perDay: run.draw.between(2.5, 3.5) },
				0,
				10,
				5 * DAY,
			),
	},
	...[0.5, 0.2, 0.1, 0.05].map(
		(keep): RhythmClass => ({
			name: `loses ${Math.round((1 - keep) * 100)}% for 14 days`,
			kind: 'partial',
			form: (run) =>
				broken(run, { shape: anyShape(run.draw), perDay: run.draw.logBetween(20, 200) }, keep, 14),
		}),
	),
	{
		name: 'about 30 a weekday',
		kind: 'break',
		form: (run) =>
			broken(run, { shape: officeShape(run.draw, 5), perDay: run.draw.between(25, 35) }, 0, 3),
	},
];

const CLASSES = [...ORDINARY, MIXED_APP, ...BROKEN];

interface FormOutcome {
	label: string;
	falseAlarms: Alert[];
	/** Alerts after a silence the form's own rate made a less than one-in-a-million chance. */
	chanceSilences: number;
	lateDayAlerts: number;
	lateDays: number;
	closureAlerts: number;
	/** Per break or closure: how long until it was first reported (undefined: never), how often, and whether by its goal. */
	outages: Array<{ delay?: number; alerts: number; inTime: boolean }>;
	/** Alerts of a spell already reported, without a restart between: never allowed. */
	twice: Alert[];
}

/** A run of `rhythm` drawn from `seed`, at the long size's settings with `long` (a seed that once failed replays so). */
function runOf(
	rhythm: RhythmClass,
	seed: number,
	long = LONG,
): { seed: number; forms: FormOutcome[] } {
	const draw = new Draw(seed ^ Math.imul(CLASSES.indexOf(rhythm) + 1, 0x9e3779b1));
	const start = Date.UTC(2026, 0, 5) + draw.whole(0, 42) * WEEK;
	const run: Run = {
		draw,
		zone: draw.pick(draw.chance(0.5) ? ZONES_WITH_A_CLOCK_CHANGE : ZONES_WITHOUT),
		start,
		end: start + DAYS * DAY,
	};
	const appForms = rhythm === MIXED_APP ? (long ? 20 : APP_FORMS) : undefined;
	const models = Array.from({ length: appForms ?? draw.whole(1, 3) }, () => {
		const form = rhythm.form(run);
		if (draw.chance(0.25)) {
			// Watch set to another form for a few days, before any break.
			const from = momentIn(run, 2, rhythm.kind === 'ordinary' ? 85 : 25);
			form.unwatched.push([from, from + draw.between(1, 4) * DAY]);
		}
		return form;
	});
	const forms: SimulatedForm[] = models.map((form) =>
		simulateForm(form, run.start - HISTORY, run.end, draw),
	);
	const alerts = pollApp(forms, {
		from: run.start,
		to: run.end,
		pollMs: draw.pick(long ? [1, 5, 15] : POLL_MINUTES) * MINUTE,
		restarts: Array.from({ length: DAYS }, (_, day) => run.start + (day + draw.next()) * DAY),
		rule: { kind: 'unusual' },
	});
	return {
		seed,
		forms: models.map((form, index) =>
			outcomeOf(
				form,
				alerts.filter((alert) => alert.form === index),
			),
		),
	};
}

/**
 * A silence in which a working form's own rate expected this many leads
 * (e^-14, under one chance in a million) is one no rule can tell from a
 * broken form: an alert after it is not a false alarm (docs/trigger.md).
 */
const CHANCE_SILENCE_LEADS = 14;

/** The leads the form's rate expects from `from` to `to`, outside the stretches it was not watched. */
function expectedLeads(form: FormModel, from: number, to: number): number {
	const step = 5 * MINUTE;
	let leads = 0;
	for (let at = from; at < to; at += step) {
		const middle = at + step / 2;
		if (form.unwatched.some(([start, end]) => middle >= start && middle < end)) continue;
		leads += (form.rate(middle, wallOf(form.zone, middle)) * Math.min(step, to - at)) / HOUR;
	}
	return leads;
}

function outcomeOf(form: FormModel, alerts: Alert[]): FormOutcome {
	const outcome: FormOutcome = {
		label: form.label,
		falseAlarms: [],
		chanceSilences: 0,
		lateDayAlerts: 0,
		lateDays: form.lateDays.size,
		closureAlerts: 0,
		outages: form.outages.map(() => ({ alerts: 0, inTime: false })),
		twice: alerts.filter(
			(alert, index) =>
				index > 0 &&
				alerts[index - 1].spell.last === alert.spell.last &&
				alerts[index - 1].restarts === alert.restarts,
		),
	};
	for (const alert of alerts) {
		// An outage the silence reaches into: reported for it.
		const outage = form.outages.findIndex(
			({ from, to }) => from < alert.at && to > alert.spell.last,
		);
		if (outage >= 0) {
			if (form.outages[outage].kind === 'closure') outcome.closureAlerts++;
			outcome.outages[outage].alerts++;
			const { from, by = Infinity } = form.outages[outage];
			outcome.outages[outage].delay ??= alert.at - from;
			outcome.outages[outage].inTime ||= alert.at <= by;
		} else if (form.lateDays.has(wallOf(form.zone, alert.at).day)) outcome.lateDayAlerts++;
		else if (expectedLeads(form, alert.spell.last, alert.at) >= CHANCE_SILENCE_LEADS)
			outcome.chanceSilences++;
		else outcome.falseAlarms.push(alert);
	}
	return outcome;
}

const hours = (ms: number) => `${(ms / HOUR).toFixed(1)} h`;

function median(values: number[]): number {
	const sorted = [...values].sort((a, b) => a - b);
	return sorted[Math.floor(sorted.length / 2)];
}

function summary(runs: ReadonlyArray<{ forms: FormOutcome[] }>) {
	const forms = runs.flatMap((run) => run.forms);
	const outages = forms.flatMap((form) => form.outages);
	const delays = outages.flatMap(({ delay }) => (delay === undefined ? [] : [delay]));
	const total = (count: (form: FormOutcome) => number) =>
		forms.reduce((sum, form) => sum + count(form), 0);
	return {
		forms: forms.length,
		falseAlarms: total((form) => form.falseAlarms.length),
		outages,
		delays,
		lateDays: total((form) => form.lateDays),
		lateDayAlerts: total((form) => form.lateDayAlerts),
		chanceSilences: total((form) => form.chanceSilences),
	};
}

/** The tables docs/trigger.md shows: false alarms of the forms never broken; how soon the others were reported. */
function report(
	results: Array<{ rhythm: RhythmClass; runs: Array<{ forms: FormOutcome[] }> }>,
): string {
	const ordinary = results.flatMap(({ rhythm, runs }) => {
		if (rhythm.kind !== 'ordinary') return [];
		const { forms, falseAlarms, lateDays, lateDayAlerts, chanceSilences } = summary(runs);
		const late = lateDays > 0 ? ` (${lateDayAlerts} alerts on ${lateDays} late days)` : '';
		const chance = chanceSilences > 0 ? ` (${chanceSilences} after a chance silence)` : '';
		return [`| ${rhythm.name} | ${forms} | ${(falseAlarms / forms).toFixed(2)}${late}${chance} |`];
	});
	const broken = results.flatMap(({ rhythm, runs }) => {
		if (rhythm.kind === 'ordinary') return [];
		const { outages, delays } = summary(runs);
		const alerts = outages.reduce((sum, { alerts }) => sum + alerts, 0) / outages.length;
		const inTime = outages.filter(({ inTime }) => inTime).length;
		const goal = rhythm.kind === 'break' ? `, ${inTime} in goal` : '';
		const after =
			delays.length === 0
				? '-'
				: `${hours(median(delays))} / ${hours(Math.max(...delays))}`.replaceAll(' h /', ' /');
		return [
			`| ${rhythm.name} | ${delays.length}/${outages.length}${goal} (${alerts.toFixed(1)}) | ${after} |`,
		];
	});
	return [
		`Seeds ${SEED} to ${SEED + RUNS - 1}, ${RUNS} runs a class`,
		`| never broken | forms | false alarms per form per ${DAYS} days |`,
		'| --- | --- | --- |',
		...ordinary,
		'',
		'| broken or closed | reported (alerts each) | after (median / worst) |',
		'| --- | --- | --- |',
		...broken,
	].join('\n');
}

/**
 * How soon a break is reported, as docs/trigger.md says ("How soon will I
 * hear?"): at the latest in any run; over 10 breaks or more (the long size;
 * one or two breaks say nothing of a median or a share), at the median, and
 * the share reported before the break ends (a sparse form's break may end
 * first: the rule is chosen for no false alarm).
 */
const PROMISED: Record<string, { median: number; worst: number; reported: number }> = {
	// At 150 a day with nights at 40% of the day, a night brings 3 an hour: 15 leads missed take 5 to 8 hours.
	busy: { median: 3 * HOUR, worst: 9 * HOUR, reported: 1 },
	'office hours, weekdays': { median: 3 * HOUR, worst: 10 * HOUR, reported: 1 },
	// Broken on a Friday morning with too few leads left that day: reported in Monday's hours.
	'about 30 a weekday': { median: 8 * HOUR, worst: 4 * DAY, reported: 0.9 },
	// A break of 10 days may end before a form of 3 a day is told from its quiet weeks.
	'about 3 a day': { median: 6 * DAY, worst: 11 * DAY, reported: 0.9 },
};

describe(`When Unusually Quiet, simulated over ${DAYS} days, ${RUNS} runs a class from seed ${SEED}`, () => {
	const results = CLASSES.map((rhythm) => ({
		rhythm,
		runs: Array.from({ length: RUNS }, (_, index) => runOf(rhythm, (SEED + index) | 0)),
	}));
	if (process.env.QUIET_SIMULATION_REPORT !== undefined)
		process.stdout.write(`${report(results)}\n`);

	it.each(results.map((result) => [result.rhythm.name, result] as const))(
		'%s: no false alarm, and no spell reported twice without a restart',
		(_, { runs }) => {
			const described = (alert: Alert, seed: number, form: string) => ({
				seed,
				form,
				at: new Date(alert.at).toISOString(),
				since: new Date(alert.spell.last).toISOString(),
				usual: alert.spell.usualLeads,
			});
			const each = (pick: (form: FormOutcome) => Alert[]) =>
				runs.flatMap(({ seed, forms }) =>
					forms.flatMap((form, index) =>
						pick(form).map((alert) => described(alert, seed, `${index} ${form.label}`)),
					),
				);
			expect(each((form) => form.twice)).toEqual([]);
			// Outside its breaks and closures every form is an ordinary one: never reported.
			expect(each((form) => form.falseAlarms)).toEqual([]);
		},
	);

	it.each(Object.keys(PROMISED))('%s, broken: reported as soon as the docs say', (name) => {
		const result = results.find(({ rhythm }) => rhythm.name.startsWith(name));
		const { outages, delays } = summary(result?.runs ?? []);
		const promise = PROMISED[name];
		expect(outages.length).toBeGreaterThan(0);
		if (promise.reported === 1) expect(delays).toHaveLength(outages.length);
		if (delays.length > 0) expect(Math.max(...delays)).toBeLessThanOrEqual(promise.worst);
		if (outages.length < 10) return;
		expect(delays.length / outages.length).toBeGreaterThanOrEqual(promise.reported);
		expect(median(delays)).toBeLessThanOrEqual(promise.median);
	});

	it('a weekday form broken in its first office hours is reported the same office day', () => {
		const result = results.find(({ rhythm }) => rhythm.name.startsWith('office hours, weekdays'));
		const outages = summary(result?.runs ?? []).outages;
		expect(outages.filter(({ inTime }) => !inTime)).toEqual([]);
	});
});

describe('When Unusually Quiet, simulated: seeds that once failed, replayed at the size they failed at', () => {
	const outcomes = (name: string, seed: number, long = true) => {
		const rhythm = CLASSES.find((candidate) => candidate.name.startsWith(name));
		if (rhythm === undefined) throw new Error(`no class "${name}"`);
		return runOf(rhythm, seed, long).forms;
	};
	const falseAlarms = (name: string, seed: number) =>
		outcomes(name, seed).flatMap((form) => form.falseAlarms);

	it('busy, seed 1797634154 at the quick size: a break reported after 6.7 hours, past the 6 once promised, within the 9 the docs say', () => {
		const { delays } = summary([{ forms: outcomes('busy', 1797634154, false) }]);
		expect(delays.length).toBeGreaterThan(0);
		expect(Math.max(...delays)).toBeGreaterThan(6 * HOUR);
		expect(Math.max(...delays)).toBeLessThanOrEqual(PROMISED.busy.worst);
	});

	it("about 30 a weekday, seed 424266 at the quick size: a break on a Friday morning reported 72.3 hours later, in Monday's hours, within the 4 days the docs say", () => {
		const { delays } = summary([{ forms: outcomes('about 30 a weekday', 424266, false) }]);
		expect(Math.max(...delays)).toBeGreaterThan(3 * DAY);
		expect(Math.max(...delays)).toBeLessThanOrEqual(PROMISED['about 30 a weekday'].worst);
	});

	// Forty runs: longer than the quick loop allows.
	itInLongRuns(
		'about 3 a day, seeds 424242 to 424281 at the quick size: 74 of 79 ten-day breaks reported within them, at least the 9 in 10 the docs say',
		() => {
			const runs = Array.from({ length: 40 }, (_, index) => ({
				forms: outcomes('about 3 a day', 424242 + index, false),
			}));
			const { outages, delays } = summary(runs);
			expect(delays.length / outages.length).toBeLessThan(0.95);
			expect(delays.length / outages.length).toBeGreaterThanOrEqual(
				PROMISED['about 3 a day'].reported,
			);
		},
	);

	it('holidays at 80-95%, seed 1581441600 at the quick size: 91 minutes without a lead where 12 an hour come is told, as a chance silence', () => {
		const forms = outcomes('holidays at 80-95%', 1581441600, false);
		expect(forms.flatMap((form) => form.falseAlarms)).toEqual([]);
		expect(forms.map((form) => form.chanceSilences)).toEqual([0, 1]);
	});

	it('listed 4-8 h late, seed 1883890528: four Tuesdays late in a row teach no evening leads', () => {
		expect(falseAlarms('listed 4-8 h late', 1883890528)).toEqual([]);
	});

	// Twenty forms polled as often as every minute: longer than the quick loop allows.
	itInLongRuns(
		'an app of 20 forms, seed 1883890502: a newsletter whose three known weeks each had a blast on Monday',
		() => {
			expect(falseAlarms('an app of', 1883890502)).toEqual([]);
		},
	);
});
