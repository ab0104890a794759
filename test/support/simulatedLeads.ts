import {
	markReported,
	nextRhythm,
	quietSpell,
	type FormRhythm,
	type QuietRule,
	type QuietSpell,
} from '../../nodes/AppBuilder/trigger/quiet/formRhythm';
import { HOUR, DAY, MINUTE } from './durations';

/**
 * Lead forms as pipelines have them, for Alert When Quiet's tests: leads per
 * hour of the form's own wall clock (office hours or day and night, weekdays
 * only or every day), changed by campaigns, blasts, bursts, holidays, growth,
 * breaks, days listed late and test leads before a launch; and a trigger
 * polling an app of such forms through the rhythm's API, each lead counted by
 * the first poll that sees it, under n8n's default saving rule (the rhythms
 * are saved when a poll emits a lead and at activation) with restarts.
 */

/** A small deterministic generator (mulberry32), so that a seed replays a run. */
export class Draw {
	private state: number;

	constructor(seed: number) {
		this.state = seed >>> 0;
	}

	next(): number {
		this.state = (this.state + 0x6d2b79f5) >>> 0;
		let t = this.state;
		t = Math.imul(t ^ (t >>> 15), t | 1);
		t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
	}

	between(min: number, max: number): number {
		return min + (max - min) * this.next();
	}

	/** Spread evenly on a log scale: as many forms of 1 to 10 a day as of 50 to 500. */
	logBetween(min: number, max: number): number {
		return min * (max / min) ** this.next();
	}

	whole(min: number, max: number): number {
		return Math.floor(this.between(min, max + 1));
	}

	pick<T>(values: readonly T[]): T {
		return values[Math.floor(this.next() * values.length)];
	}

	chance(probability: number): boolean {
		return this.next() < probability;
	}

	poisson(mean: number): number {
		if (mean > 50) {
			const normal =
				Math.sqrt(-2 * Math.log(1 - this.next())) * Math.cos(2 * Math.PI * this.next());
			return Math.max(0, Math.round(mean + Math.sqrt(mean) * normal));
		}
		let count = 0;
		for (let product = this.next(), limit = Math.exp(-mean); product > limit; count++)
			product *= this.next();
		return count;
	}
}

/** A moment on a zone's wall clock: its day (counted from the epoch), hour of the day (with fractions) and weekday (0 is Monday). */
export interface Wall {
	day: number;
	hour: number;
	weekday: number;
}

const offsetsByHour = new Map<string, number>();
const formats = new Map<string, Intl.DateTimeFormat>();

/** The wall clock of `zone`, read through Intl apart from the product's own reading. */
export function wallOf(zone: string, time: number): Wall {
	const key = `${zone} ${Math.floor(time / HOUR)}`;
	let offset = offsetsByHour.get(key);
	if (offset === undefined) {
		const hourStart = Math.floor(time / HOUR) * HOUR;
		let format = formats.get(zone);
		if (format === undefined) {
			// Swedish writes a moment as ISO 8601 does: "2026-03-29 03:00:00".
			format = new Intl.DateTimeFormat('sv-SE', {
				timeZone: zone,
				hourCycle: 'h23',
				year: 'numeric',
				month: '2-digit',
				day: '2-digit',
				hour: '2-digit',
				minute: '2-digit',
				second: '2-digit',
			});
			formats.set(zone, format);
		}
		const text = format.format(hourStart);
		offset = Date.parse(`${text.replace(' ', 'T')}Z`) - hourStart;
		if (offsetsByHour.size > 500_000) offsetsByHour.clear();
		offsetsByHour.set(key, offset);
	}
	const local = time + offset;
	const day = Math.floor(local / DAY);
	return { day, hour: (local - day * DAY) / HOUR, weekday: (day + 3) % 7 };
}

/** The moment a wall-clock time of `zone` is (the first, when the clock goes back). */
export function momentOf(zone: string, day: number, hour: number): number {
	let time = day * DAY + hour * HOUR;
	for (let step = 0; step < 3; step++) {
		const wall = wallOf(zone, time);
		time += (day - wall.day) * DAY + (hour - wall.hour) * HOUR;
	}
	return time;
}

/** When a form's leads come, over a day: its share of an ordinary day's leads per hour. */
export type DayShape =
	| {
			kind: 'office';
			/** Opening hour on the wall clock (08:30 is 8.5). */
			opens: number;
			hours: number;
			/** Working days a week, from Monday: 5 is weekdays only. */
			days: number;
			/** The share of a working day's leads that come outside its hours. */
			afterHours: number;
	  }
	| {
			kind: 'allDay';
			/** Busier from `dayFrom` to `dayTo`; the night has `night` of the day's rate. */
			dayFrom: number;
			dayTo: number;
			night: number;
			/** A weekend day brings this share of a weekday's leads. */
			weekend: number;
	  };

export function shareAt(shape: DayShape, wall: Wall): number {
	if (shape.kind === 'office') {
		if (wall.weekday >= shape.days) return 0;
		const open = wall.hour >= shape.opens && wall.hour < shape.opens + shape.hours;
		return open ? (1 - shape.afterHours) / shape.hours : shape.afterHours / (24 - shape.hours);
	}
	const dayHours = shape.dayTo - shape.dayFrom;
	const rate = 1 / (dayHours + shape.night * (24 - dayHours));
	const inDay = wall.hour >= shape.dayFrom && wall.hour < shape.dayTo;
	return rate * (inDay ? 1 : shape.night) * (wall.weekday >= 5 ? shape.weekend : 1);
}

/** A stretch the form is broken (keeps `keep` of its leads: 0 when broken whole), or closed. */
export interface Outage {
	kind: 'break' | 'closure';
	from: number;
	to: number;
	keep: number;
	/** The goal: reported by then. */
	by?: number;
}

export interface FormModel {
	/** What the form is, for a failure's message. */
	label: string;
	zone: string;
	/** Leads per hour submitted at a moment. */
	rate: (time: number, wall: Wall) => number;
	/** Leads submitted at these moments besides (test leads before a launch). */
	extra: number[];
	/** Days of the wall clock whose leads are listed late, by how much. */
	lateDays: Map<number, number>;
	outages: Outage[];
	/** Stretches in which the trigger does not watch the form (Watch set to another form). */
	unwatched: Array<[from: number, to: number]>;
}

export interface SimulatedForm {
	model: FormModel;
	/** Submission times, in the order the leads become visible. */
	submitted: number[];
	/** When each lead is first listed, ascending. */
	visible: number[];
}

/** The form's leads from `from` to `to`, drawn a quarter hour at a time. */
export function simulateForm(
	model: FormModel,
	from: number,
	to: number,
	draw: Draw,
): SimulatedForm {
	const leads: Array<[submitted: number, visible: number]> = [];
	const add = (time: number) => {
		const outage = model.outages.find((spell) => time >= spell.from && time < spell.to);
		if (outage !== undefined && !draw.chance(outage.keep)) return;
		const late = model.lateDays.get(wallOf(model.zone, time).day) ?? 0;
		leads.push([time, time + late]);
	};
	const quarter = 15 * MINUTE;
	for (let start = from; start < to; start += quarter) {
		const middle = start + quarter / 2;
		const count = draw.poisson(model.rate(middle, wallOf(model.zone, middle)) / 4);
		for (let lead = 0; lead < count; lead++) add(start + draw.next() * quarter);
	}
	for (const time of model.extra) add(time);
	leads.sort((a, b) => a[1] - b[1]);
	return {
		model,
		submitted: leads.map(([submitted]) => submitted),
		visible: leads.map(([, visible]) => visible),
	};
}

export interface Alert {
	form: number;
	at: number;
	spell: QuietSpell;
	/** Restarts before it: a spell reported again after a restart has more. */
	restarts: number;
}

export interface PollOptions {
	from: number;
	to: number;
	pollMs: number;
	/** When n8n restarts: the rhythms go back to the last saved, and the next poll is an activation. */
	restarts: number[];
	rule: QuietRule;
}

/** The submission times of the leads listed so far (a first read may learn from them). */
function* listedTimes(form: SimulatedForm, listed: number): Iterable<number> {
	for (let index = 0; index < listed; index++) yield form.submitted[index];
}

/** One trigger watching an app of forms: what it reports, and when. */
export function pollApp(forms: readonly SimulatedForm[], options: PollOptions): Alert[] {
	let rhythms: Array<FormRhythm | undefined> = forms.map(() => undefined);
	let saved = rhythms;
	const seen = forms.map(() => 0);
	const alerts: Alert[] = [];
	let restarts = 0;
	let activation = true;
	for (let now = options.from; now <= options.to; now += options.pollMs) {
		while (restarts < options.restarts.length && options.restarts[restarts] <= now) {
			rhythms = [...saved];
			activation = true;
			restarts++;
		}
		let emitted = false;
		forms.forEach((form, index) => {
			const { unwatched } = form.model;
			if (unwatched.some(([start, end]) => now >= start && now < end)) return;
			let arrivals = 0;
			while (seen[index] < form.visible.length && form.visible[seen[index]] <= now) {
				const at = form.visible[seen[index]++];
				// Listed while the form was not watched: the trigger takes it as handled when the watch comes back.
				if (!unwatched.some(([start, end]) => at >= start && at < end)) arrivals++;
			}
			const context = {
				timeZone: form.model.zone,
				unwatched: unwatched.filter(([start]) => start <= now),
			};
			const previous = rhythms[index];
			const listed = seen[index];
			let rhythm = nextRhythm(
				previous,
				{ arrivals: previous === undefined ? 0 : arrivals, times: listedTimes(form, listed) },
				now,
				context,
			);
			const spell = quietSpell(rhythm, options.rule, now, context);
			if (spell !== undefined) {
				alerts.push({ form: index, at: now, spell, restarts });
				rhythm = markReported(rhythm, spell);
			}
			rhythms[index] = rhythm;
			if (previous !== undefined && arrivals > 0) emitted = true;
		});
		if (emitted || activation) saved = [...rhythms];
		activation = false;
	}
	return alerts;
}
