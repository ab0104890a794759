import {
	commitPoll,
	DEFAULT_MAX_TRACKED,
	type CursorOptions,
	type CursorStep,
} from '../cursor/cursor';
import { type InquiryEvent } from '../../inquiries/inquiryEvent';
import { type RecordsToKeep } from '../../inquiries/inquiryList';
import { MAX_WHOLE_CURSORS, nextPosition, type TriggerPosition } from '../saved/position';
import type { QuietRule, QuietSpell } from '../quiet/formRhythm';
import { quietForms } from '../quiet/quietForms';
import { formStep, recordsToKeepFor, type Watch } from './watch';
import { mergedEmissions } from './mergedEmissions';
import { leftOverAfter, readingOrder } from './readingOrder';

/** Fewest emitted keys each form's cursor tracks, however many forms an app has (the state's size bound). */
export const MIN_TRACKED_PER_FORM = 50;

export interface PollSetup {
	/** The saved position, if it has this scope (else undefined: the trigger starts over). */
	saved: TriggerPosition | undefined;
	scope: string;
	/** The forms read now, as listed: every form of the app (at most MAX_WHOLE_CURSORS), or the one form. */
	listed: readonly string[];
	/** The watch rule for this poll's settings and saved position. */
	watch: Watch;
	/** The cursor's options for one form (maxTracked is set here, from the number of forms). */
	cursorOptions: CursorOptions;
	/** Alert When Quiet. */
	quiet: QuietRule;
	/** The workflow's time zone, in which Alert When Quiet reads the hours of the week. */
	timeZone: string;
	nowMs: number;
}

export interface FormOutcome {
	pageId: string;
	/** The form's events as read, or why there are none. */
	events: readonly InquiryEvent[] | 'failed' | 'not-reached';
}

export interface PollPlan {
	/** What to emit, oldest first across forms, within Max per Poll. */
	emissions: Array<{ pageId: string; event: InquiryEvent }>;
	/** Per form read, about how many undated inquiries changed beyond what its cursor tells apart. */
	unresolvedUndated: Array<{ pageId: string; count: number }>;
	/** Forms quiet past Alert When Quiet, each reported once per spell (the position records it). */
	quietSpells: Array<{ pageId: string; spell: QuietSpell; away: boolean }>;
	/** The position to save once the first `emittedCount` emissions went out. */
	commit(emittedCount: number): TriggerPosition;
}

/** One poll's decisions over forms, pure so a property test drives them: what to read, emit and save. */
export class PollPlanner {
	readonly options: CursorOptions;
	readonly watch: Watch;
	private readonly ordered: string[];

	constructor(private readonly setup: PollSetup) {
		this.watch = setup.watch;
		this.options = optionsFor(setup);
		this.ordered = readingOrder(setup.listed, setup.saved?.leftOver ?? []);
	}

	/** The forms in reading order, each with the records of its answer to keep and what its plan would emit of the events read. */
	formsToRead(): Array<{
		pageId: string;
		keep: RecordsToKeep;
		toEmit: (events: readonly InquiryEvent[]) => readonly InquiryEvent[];
	}> {
		return this.ordered.map((pageId) => {
			const start = this.watch.startOf(pageId);
			return {
				pageId,
				keep: recordsToKeepFor(start, this.options),
				toEmit: (events) => formStep(start, events, this.options).toEmit,
			};
		});
	}

	plan(outcomes: readonly FormOutcome[]): PollPlan {
		const { setup, options } = this;
		const runs: Array<{ pageId: string; plan: CursorStep }> = [];
		const readEvents: Array<readonly InquiryEvent[]> = [];
		for (const { pageId, events } of outcomes) {
			if (typeof events === 'string') continue;
			runs.push({ pageId, plan: formStep(this.watch.startOf(pageId), events, options) });
			readEvents.push(events);
		}
		const listed = new Set(setup.listed);
		const quiet =
			setup.quiet.kind === 'off'
				? undefined
				: quietForms({
						saved: setup.saved?.quiet,
						// Found new now, emitted now or left for the next poll: brought by this poll.
						read: runs.map(({ pageId, plan }, index) => ({
							pageId,
							arrivals: plan.toEmit.length + (plan.waiting === undefined ? 0 : 1),
							times: eventTimes(readEvents[index]),
						})),
						unread: outcomes
							.filter(({ events }) => typeof events === 'string')
							.map(({ pageId }) => pageId),
						watchedAway: (pageId) => !listed.has(pageId) && this.watch.watches(pageId),
						rule: setup.quiet,
						timeZone: setup.timeZone,
						nowMs: setup.nowMs,
					});
		const merged = mergedEmissions(
			runs.map((run) => ({ form: run, toEmit: run.plan.toEmit })),
			options.maxItems,
		);
		return {
			emissions: merged.map(({ form, event }) => ({ pageId: form.pageId, event })),
			unresolvedUndated: runs.map((run) => ({
				pageId: run.pageId,
				count: run.plan.unresolvedUndated,
			})),
			quietSpells: quiet?.quietSpells ?? [],
			commit: (emittedCount) => {
				const emitted = new Map(runs.map((run) => [run, [] as InquiryEvent[]]));
				for (const { form, event } of merged.slice(0, emittedCount)) emitted.get(form)?.push(event);
				const read = new Map(
					runs.map((run) => [run.pageId, commitPoll(run.plan, emitted.get(run) ?? [], options)]),
				);
				const reached = new Set(
					outcomes
						.filter((outcome) => outcome.events !== 'not-reached')
						.map((outcome) => outcome.pageId),
				);
				const findings = {
					listed: setup.listed,
					read,
					leftOver: leftOverAfter(this.ordered, reached),
					quiet: quiet?.rhythms,
				};
				return nextPosition(setup.saved, setup.scope, findings, this.watch);
			},
		};
	}
}

function* eventTimes(events: readonly InquiryEvent[]): Iterable<number | undefined> {
	for (const event of events) yield event.time;
}

/** Forms share the state's size bound: each tracks a share of one form's keys, counting the forms away too. */
function optionsFor(setup: PollSetup): CursorOptions {
	const listed = new Set(setup.listed);
	const away = Object.keys(setup.saved?.forms ?? {}).filter((pageId) => !listed.has(pageId)).length;
	const cursors = Math.min(MAX_WHOLE_CURSORS, Math.max(1, listed.size + away));
	const share = Math.floor((setup.cursorOptions.maxTracked ?? DEFAULT_MAX_TRACKED) / cursors);
	return { ...setup.cursorOptions, maxTracked: Math.max(MIN_TRACKED_PER_FORM, share) };
}
