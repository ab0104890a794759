import type { CursorEvent, CursorOptions, PollPlan, RecordsToKeep } from '../cursor/cursor';
import { DEFAULT_MAX_TRACKED } from '../cursor/cursor';
import { leftOverAfter, readingOrder } from './readingOrder';
import { commitForm, planForm, recordsToKeepFor } from './formCursor';
import { mergedEmissions } from './mergedEmissions';
import { formStart, MAX_WHOLE_CURSORS, nextPosition, type FormStart, type TriggerPosition } from '../saved/position';

/**
 * The decisions of one poll over the forms a trigger watches, without any
 * I/O (pollForms.ts does the reading): which forms to read first, how each
 * starts, what to emit across them, and the position to save after a
 * prefix of that went out. Pure, so that a property test can drive it
 * through forms coming, going and failing (see ARCHITECTURE.md).
 */

/** Fewest emitted keys each form's cursor tracks, however many forms an app has (the state's size bound). */
export const MIN_TRACKED_PER_FORM = 50;

export interface AppPollSetup {
	/** The saved position, if it has this scope (else undefined: the trigger starts over). */
	kept: TriggerPosition | undefined;
	scope: string;
	/** The forms watched now, as listed: every form of the app, or the one form. */
	listed: readonly string[];
	allForms: boolean;
	/** On First Poll set to a date: Since (epoch ms). */
	firstPollSince: number | undefined;
	/** The cursor's options for one form (maxTracked is set here, from the number of forms). */
	cursorOptions: CursorOptions;
	nowMs: number;
}

export interface FormOutcome {
	pageId: string;
	/** The form's events as read, or why there are none: its read failed, or the poll did not reach it. */
	events: readonly CursorEvent[] | 'failed' | 'not-reached';
}

export interface AppPollPlan {
	/** What to emit, oldest first across forms, within Max per Poll. */
	emissions: Array<{ pageId: string; event: CursorEvent }>;
	/** Per form read, about how many undated inquiries changed beyond what its cursor tells apart (see cursorUndated.ts). */
	unresolvedUndated: Array<{ pageId: string; count: number }>;
	/** The position to save once the first `emittedCount` emissions went out. */
	commit(emittedCount: number): TriggerPosition;
}

/**
 * The forms in the order to read them, each with how it starts, which
 * records of its answer to keep, and what its plan would emit of the events
 * read (for an answer read again, see fetchInquiryList.ts).
 */
export function formsToRead(setup: AppPollSetup): Array<{
	pageId: string;
	start: FormStart;
	keep: RecordsToKeep;
	toEmit: (events: readonly CursorEvent[]) => readonly CursorEvent[];
}> {
	const options = optionsFor(setup);
	const startOf = starts(setup);
	return readingOrder(
		setup.listed.map((pageId) => ({ pageId })),
		setup.kept?.leftOver ?? [],
	).map(({ pageId }) => {
		const start = startOf(pageId);
		return { pageId, start, keep: recordsToKeepFor(start, options), toEmit: (events) => planForm(start, events, options).toEmit };
	});
}

export function planAppPoll(setup: AppPollSetup, outcomes: readonly FormOutcome[]): AppPollPlan {
	const options = optionsFor(setup);
	const startOf = starts(setup);
	const runs: Array<{ pageId: string; plan: PollPlan }> = [];
	for (const { pageId, events } of outcomes) {
		if (typeof events === 'string') continue;
		runs.push({ pageId, plan: planForm(startOf(pageId), events, options) });
	}
	const merged = mergedEmissions(
		runs.map((run) => ({ form: run, toEmit: run.plan.toEmit })),
		options.maxItems,
	);
	return {
		emissions: merged.map(({ form, event }) => ({ pageId: form.pageId, event })),
		unresolvedUndated: runs.map((run) => ({ pageId: run.pageId, count: run.plan.unresolvedUndated })),
		commit: (emittedCount) => {
			const emitted = new Map(runs.map((run) => [run, [] as CursorEvent[]]));
			for (const { form, event } of merged.slice(0, emittedCount)) emitted.get(form)?.push(event);
			const read = new Map(runs.map((run) => [run.pageId, commitForm(run.plan, emitted.get(run) ?? [], options)]));
			const reached = new Set(outcomes.filter((outcome) => outcome.events !== 'not-reached').map((outcome) => outcome.pageId));
			const ordered = readingOrder(setup.listed.map((pageId) => ({ pageId })), setup.kept?.leftOver ?? []);
			// Forms whose first reads fail start from when the watch began: Since, when On First Poll gives an earlier one.
			const allFormsSince = Math.min(setup.firstPollSince ?? setup.nowMs, setup.nowMs);
			return nextPosition(setup.kept, setup.scope, { listed: setup.listed, read, leftOver: leftOverAfter(ordered, reached) }, { allForms: setup.allForms, nowMs: setup.nowMs, allFormsSince });
		},
	};
}

/** How each form starts this poll (formStart, the one rule). */
function starts(setup: AppPollSetup): (pageId: string) => FormStart {
	const unknown = new Set(setup.kept?.undatedUnknown ?? []);
	const watch = { allForms: setup.allForms, firstPollSince: setup.firstPollSince };
	return (pageId) => formStart(setup.kept, pageId, watch, unknown);
}

/**
 * Many forms share the state's size bound: each tracks a share of the keys
 * one form may, counting the forms away, whose cursors are kept too.
 */
function optionsFor(setup: AppPollSetup): CursorOptions {
	const listed = new Set(setup.listed);
	const away = Object.keys(setup.kept?.forms ?? {}).filter((pageId) => !listed.has(pageId)).length;
	const cursors = Math.min(MAX_WHOLE_CURSORS, Math.max(1, listed.size + away));
	const share = Math.floor((setup.cursorOptions.maxTracked ?? DEFAULT_MAX_TRACKED) / cursors);
	return { ...setup.cursorOptions, maxTracked: Math.max(MIN_TRACKED_PER_FORM, share) };
}
