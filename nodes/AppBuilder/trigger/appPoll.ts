import type { CursorEvent, CursorOptions, PollPlan, RecordsToKeep } from './cursor';
import { DEFAULT_MAX_TRACKED } from './cursor';
import { leftOverAfter, readingOrder } from './formOrder';
import { commitForm, planForm, recordsToKeepFor } from './formPlan';
import { mergedEmissions } from './mergedEmissions';
import { formStart, nextPosition, type FormCursor, type FormStart, type TriggerPosition } from './triggerPosition';

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
	/** A first poll from a date, for forms read for the first time in the trigger's first poll. */
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
	cursor: FormCursor | undefined;
	start: FormStart;
	keep: RecordsToKeep;
	toEmit: (events: readonly CursorEvent[]) => readonly CursorEvent[];
}> {
	const options = optionsFor(setup);
	return readingOrder(
		setup.listed.map((pageId) => ({ pageId })),
		setup.kept?.app?.leftOver ?? [],
	).map(({ pageId }) => {
		const { cursor, start } = startOf(setup, pageId);
		return { pageId, cursor, start, keep: recordsToKeepFor(cursor, start, options), toEmit: (events) => planForm(cursor, start, events, options).toEmit };
	});
}

export function planAppPoll(setup: AppPollSetup, outcomes: readonly FormOutcome[]): AppPollPlan {
	const options = optionsFor(setup);
	const runs: Array<{ pageId: string; plan: PollPlan }> = [];
	for (const { pageId, events } of outcomes) {
		if (typeof events === 'string') continue;
		const { cursor, start } = startOf(setup, pageId);
		runs.push({ pageId, plan: planForm(cursor, start, events, options) });
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
			const ordered = readingOrder(setup.listed.map((pageId) => ({ pageId })), setup.kept?.app?.leftOver ?? []);
			const since = setup.firstPollSince === undefined ? setup.nowMs : Math.min(setup.firstPollSince, setup.nowMs);
			return nextPosition(setup.kept, setup.scope, { listed: setup.listed, read, leftOver: leftOverAfter(ordered, reached) }, { allForms: setup.allForms, nowMs: since });
		},
	};
}

/** A form's saved cursor, or, with none, how it starts (see triggerPosition.ts). */
function startOf(setup: AppPollSetup, pageId: string): { cursor: FormCursor | undefined; start: FormStart } {
	const { kept } = setup;
	const cursor = kept !== undefined && Object.prototype.hasOwnProperty.call(kept.forms, pageId) ? kept.forms[pageId] : undefined;
	if (cursor !== undefined) return { cursor, start: { kind: 'first-poll' } };
	if (kept?.app !== undefined) return { cursor, start: formStart(kept, pageId) };
	if (setup.firstPollSince !== undefined) return { cursor, start: { kind: 'since', time: setup.firstPollSince, keysAtTime: [] } };
	return { cursor, start: { kind: 'first-poll' } };
}

/** Many forms share the state's size bound: each tracks a share of the keys one form may. */
function optionsFor(setup: AppPollSetup): CursorOptions {
	const share = Math.floor((setup.cursorOptions.maxTracked ?? DEFAULT_MAX_TRACKED) / Math.max(1, setup.listed.length));
	return { ...setup.cursorOptions, maxTracked: Math.max(MIN_TRACKED_PER_FORM, share) };
}
