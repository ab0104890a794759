import type { FormRead } from '../../acrossForms/readForms';
import {
	commitPoll,
	DEFAULT_MAX_TRACKED,
	firstRead,
	recordsToKeep,
	stepCursor,
	withUndatedHandled,
	type CursorOptions,
	type CursorStep,
} from '../cursor/cursor';
import type { EventMode, InquiryEvent } from '../events/inquiryEvent';
import type { RecordsToKeep } from '../events/inquiryList';
import { applyEvents, type FormEvent } from '../forms/formEvents';
import type { FormRecord } from '../forms/formRecord';
import {
	markReported,
	nextRhythm,
	quietSpell,
	type FormRhythm,
	type QuietRule,
} from '../quiet/formRhythm';
import type { TriggerPosition, Watched } from '../saved/position';
import { boundedRecords, MAX_WHOLE_CURSORS } from './formsBound';
import { mergedEmissions } from './mergedEmissions';
import { leftOverAfter, readingOrder } from './readingOrder';
import { watchChange, type FirstPoll } from './watchChange';

/** Fewest emitted keys each form's cursor tracks, however many forms an app has (the state's size bound). */
export const MIN_TRACKED_PER_FORM = 50;

export interface PollSetup {
	/** The saved position, if it has this scope (else undefined: the trigger starts over). */
	saved: TriggerPosition | undefined;
	scope: string;
	watch: Watched;
	/** Under All Forms, the app's list: the forms read (the last ones listed) and those listed before them. */
	listing?: { read: readonly string[]; before: readonly string[] };
	firstPoll: FirstPoll;
	mode: EventMode;
	maxItems: number;
	quiet: QuietRule;
	timeZone: string;
	nowMs: number;
}

/** A form the poll set out to read, and what came of it. */
export type FormOutcome = FormRead<{ pageId: string }, { events: readonly InquiryEvent[] }>;

/** Why a form with a record is not read by this poll. */
type Unread = 'leftList' | 'pastReadLimit' | 'outOfSettings';

/** One poll's decisions over forms, pure so property tests drive it; every change of a record is a form event. */
export class PollPlanner {
	/** The saved position already watches what the settings ask; before, a failure is shown at once (setting up). */
	readonly begun: boolean;
	/** This poll begins the watch or changes it: saved even when no form is read. */
	readonly changes: boolean;
	private readonly change: ReturnType<typeof watchChange>;
	private readonly options: CursorOptions;
	private readonly ordered: string[];
	private readonly unread: Map<string, Unread>;

	constructor(private readonly setup: PollSetup) {
		this.change = watchChange(setup);
		({ begun: this.begun, changes: this.changes } = this.change);
		const reading = setup.watch.kind === 'one' ? [setup.watch.pageId] : (setup.listing?.read ?? []);
		this.ordered = readingOrder(reading, setup.saved?.leftOver ?? []);
		this.unread = unreadForms(this.change.records, new Set(this.ordered), setup);
		const { mode, maxItems, nowMs } = setup;
		this.options = { mode, maxItems, nowMs, maxTracked: this.trackedPerForm() };
	}

	/** The forms in reading order, each with how to read its answer: what to keep, what its step would emit. */
	formsToRead() {
		return this.ordered.map((pageId) => ({
			pageId,
			mode: this.options.mode,
			keep: this.keepOf(pageId),
			toEmit: (events: readonly InquiryEvent[]) => this.step(pageId, events).toEmit,
		}));
	}

	/** What to emit (oldest first across forms), what to report, and the position to save once `emittedCount` went out. */
	plan(outcomes: readonly FormOutcome[]) {
		const runs = outcomes.flatMap(({ form: { pageId }, ...outcome }) =>
			outcome.kind === 'read'
				? [{ pageId, events: outcome.list.events, step: this.step(pageId, outcome.list.events) }]
				: [],
		);
		const merged = mergedEmissions(
			runs.map((run) => ({ form: run.pageId, toEmit: run.step.toEmit })),
			this.setup.maxItems,
		);
		const rhythms = new Map(
			runs.map((run) => [run.pageId, this.learned(run.pageId, run.events, run.step)]),
		);
		const quietSpells = this.quietSpells(rhythms);
		return {
			emissions: merged.map(({ form, event }) => ({ pageId: form, event })),
			unresolvedUndated: runs.map(({ pageId, step }) => ({
				pageId,
				count: step.unresolvedUndated,
			})),
			quietSpells,
			commit: (emittedCount: number): TriggerPosition => {
				const events = new Map<string, FormEvent[]>();
				const add = (pageId: string, event: FormEvent) =>
					events.set(pageId, [...(events.get(pageId) ?? []), event]);
				const emitted = merged.slice(0, emittedCount);
				for (const { pageId, step } of runs) {
					const mine = emitted.filter(({ form }) => form === pageId).map(({ event }) => event);
					const cursor = commitPoll(step, mine, this.options);
					add(pageId, { kind: 'readSucceeded', cursor, quiet: rhythms.get(pageId) });
				}
				for (const { form, kind } of outcomes)
					if (kind !== 'read')
						add(form.pageId, { kind: kind === 'failed' ? 'readFailed' : 'notReached' });
				for (const [pageId, kind] of this.unread) add(pageId, { kind, at: this.setup.nowMs });
				for (const { pageId, spell } of quietSpells) {
					const rhythm = rhythms.get(pageId) ?? this.change.records.get(pageId)?.quiet;
					if (rhythm) add(pageId, { kind: 'quietReported', quiet: markReported(rhythm, spell) });
				}
				return this.position(events, outcomes);
			},
		};
	}

	/** The records after this poll's events; a form read for the first time gets its own, taken from the others'. */
	private position(events: ReadonlyMap<string, FormEvent[]>, outcomes: readonly FormOutcome[]) {
		const { records, others } = this.change;
		const forms = new Map<string, FormRecord>();
		for (const [pageId, record] of records)
			forms.set(pageId, applyEvents(record, events.get(pageId) ?? []) as FormRecord);
		for (const [pageId, happened] of events)
			if (!records.has(pageId) && happened.some(({ kind }) => kind === 'readSucceeded'))
				forms.set(pageId, applyEvents(others, happened) as FormRecord);
		const bounded = boundedRecords(forms, others, this.setup.nowMs);
		const reached = new Set(
			outcomes.filter((outcome) => outcome.kind !== 'not-reached').map((o) => o.form.pageId),
		);
		return {
			scope: this.setup.scope,
			watch: this.setup.watch,
			forms: Object.fromEntries(bounded.forms),
			...(bounded.others === undefined ? {} : { others: bounded.others }),
			leftOver: leftOverAfter(this.ordered, reached),
		};
	}

	/** A form's record before this poll's reads: its own, else the others' (every form not named yet). */
	private recordOf(pageId: string): FormRecord {
		return (this.change.records.get(pageId) ?? this.change.others) as FormRecord;
	}

	private keepOf(pageId: string): RecordsToKeep {
		const start = this.change.startOf(pageId);
		if (start?.kind === 'latest') return { kind: 'newest', count: start.count };
		const record = this.recordOf(pageId);
		return recordsToKeep(record.cursor, this.options, record.out);
	}

	/** What the read of a form brings: a first read where this poll begins its watch, else its cursor's step. */
	private step(pageId: string, events: readonly InquiryEvent[]): CursorStep {
		const record = this.recordOf(pageId);
		const start = this.change.startOf(pageId);
		if (start?.kind === 'latest')
			return firstRead(record.cursor, events, this.options, start.count);
		const cursor =
			start !== undefined || record.undatedUnknown
				? withUndatedHandled(record.cursor, events, this.options)
				: record.cursor;
		return stepCursor(cursor, events, this.options, record.out);
	}

	/** The rhythm after a read, while Alert When Quiet is on: what was found new now is brought by this poll. */
	private learned(pageId: string, events: readonly InquiryEvent[], step: CursorStep) {
		if (this.setup.quiet.kind === 'off') return undefined;
		const record = this.recordOf(pageId);
		const arrivals = step.toEmit.length + (step.waiting === undefined ? 0 : 1);
		const read = { arrivals, times: events.map((event) => event.time) };
		return nextRhythm(record.quiet, read, this.setup.nowMs, this.rhythmContext(record));
	}

	/** Forms read and watched forms out of the app's list are judged; forms failing, past the forms read or left out are not. */
	private quietSpells(rhythms: ReadonlyMap<string, FormRhythm | undefined>) {
		const { quiet, nowMs } = this.setup;
		const judged = [...rhythms].map(([pageId, rhythm]) => ({ pageId, rhythm, unlisted: false }));
		for (const [pageId, why] of this.unread)
			if (why === 'leftList')
				judged.push({ pageId, rhythm: this.recordOf(pageId).quiet, unlisted: true });
		return judged.flatMap(({ pageId, rhythm, unlisted }) => {
			const spell =
				rhythm && quietSpell(rhythm, quiet, nowMs, this.rhythmContext(this.recordOf(pageId)));
			return spell ? [{ pageId, spell, unlisted }] : [];
		});
	}

	private rhythmContext(record: FormRecord) {
		return { timeZone: this.setup.timeZone, unwatched: record.out ?? [] };
	}

	/** Forms share the state's size bound: each tracks a share of one form's keys, counting every form with a record. */
	private trackedPerForm(): number {
		const named = new Set([...this.change.records.keys(), ...this.ordered]).size;
		const share = Math.floor(DEFAULT_MAX_TRACKED / Math.max(1, Math.min(named, MAX_WHOLE_CURSORS)));
		return Math.max(MIN_TRACKED_PER_FORM, share);
	}
}

/** The forms with a record this poll does not read, and why. */
function unreadForms(
	records: ReadonlyMap<string, FormRecord>,
	reading: ReadonlySet<string>,
	setup: Pick<PollSetup, 'watch' | 'listing'>,
): Map<string, Unread> {
	const before = new Set(setup.listing?.before);
	const unread = new Map<string, Unread>();
	for (const pageId of records.keys()) {
		if (reading.has(pageId)) continue;
		if (setup.watch.kind === 'one') unread.set(pageId, 'outOfSettings');
		else unread.set(pageId, before.has(pageId) ? 'pastReadLimit' : 'leftList');
	}
	return unread;
}
