import type { INodeExecutionData, IPollFunctions, NodeApiError, NodeOperationError } from 'n8n-workflow';

import { inquiryItem } from '../inquiries/inquiryItem';
import { asNodeError } from '../parameters/asNodeError';
import { fetchAppForms, type AppForm } from '../transport/appForms';
import type { WebServiceCallOptions } from '../transport/request';
import { DEFAULT_MAX_TRACKED, type CursorEvent, type CursorOptions, type PollPlan } from './cursor';
import { recordFailedPoll, recordSucceededPoll, type FailureStreak } from './failureStreaks';
import { fetchInquiryList } from './fetchInquiryList';
import { leftOverAfter, readingOrder } from './formOrder';
import { commitForm, planForm, recordsToKeepFor } from './formPlan';
import type { InquiryList } from './inquiryList';
import { mergedEmissions } from './mergedEmissions';
import { withItsForm } from './itemForm';
import { readForms } from './readForms';
import { formStart, nextPosition, positionScope, type FormCursor, type FormStart, type TriggerPosition } from './triggerPosition';
import type { TriggerSettings } from './triggerSettings';
import { readTriggerPosition, storedPosition, writeTriggerPosition, type TriggerStores } from './triggerState';

/** Forms of an app read at once. */
const FORM_CONCURRENCY = 4;
/** Fewest emitted keys each form's cursor tracks, however many forms an app has (see ARCHITECTURE.md). */
const MIN_TRACKED_PER_FORM = 50;
/** One quick retry inside a poll; a poll that still fails is tried again at the next tick. */
export const FETCH_ATTEMPTS = 2;

export interface PollTiming {
	startedAt: number;
	/** When no further form is started: one started later could not finish within the poll budget. */
	startFormsBefore: number | undefined;
	/** When emitting stops, leaving the rest to the next poll. */
	softDeadline: number | undefined;
	fetchOptions: WebServiceCallOptions;
}

interface FormRun {
	form: AppForm;
	cursor: FormCursor | undefined;
	start: FormStart;
	list: InquiryList;
	plan: PollPlan;
}

/**
 * One poll over the forms the trigger watches: one form, or every form of
 * the app as AppFeatures.php lists them now. Each form is read apart, so
 * one form's failure holds back only that form: it is retried at the next
 * poll, keeps its cursor, and is reported like any failure that lasts. The
 * oldest leads across forms are emitted first, within Max per Poll, and
 * each form's cursor then saves what it emitted. Nothing is saved when the
 * poll ends in an error.
 */
export async function pollForms(
	this: IPollFunctions,
	settings: TriggerSettings,
	timing: PollTiming,
	triggerKey: string,
): Promise<INodeExecutionData[][] | null> {
	const node = this.getNode();
	const stores: TriggerStores = { node: this.getWorkflowStaticData('node'), workflow: this.getWorkflowStaticData('global') };
	const scope = positionScope(settings.appId, settings.mode);
	const positionAtStart = storedPosition(node, stores);
	const saved = readTriggerPosition(node, stores);
	const kept = saved?.scope === scope ? saved : undefined;
	const allForms = settings.pageId === undefined;

	let forms: AppForm[];
	if (allForms) {
		try {
			forms = await fetchAppForms(this, settings.appId, { ...timing.fetchOptions, retry: { maxAttempts: FETCH_ATTEMPTS } });
		} catch (error) {
			failedRead(this, { error, triggerKey, settingUp: kept?.app === undefined, settings, what: "the app's forms" });
			return null;
		}
		noteRecovery(this, triggerKey, undefined);
	} else {
		forms = [{ pageId: settings.pageId as string, pageName: settings.pageId as string }];
	}

	const cursorOptions: CursorOptions = {
		mode: settings.mode,
		firstPoll: settings.firstPoll.kind === 'since' ? { kind: 'none' } : settings.firstPoll,
		maxItems: settings.maxItems,
		nowMs: Date.now(),
		// Many forms share the state's size bound (ARCHITECTURE.md, "Watching every form").
		maxTracked: Math.max(MIN_TRACKED_PER_FORM, Math.floor(DEFAULT_MAX_TRACKED / Math.max(1, forms.length))),
	};
	const startOf = (form: AppForm): { cursor: FormCursor | undefined; start: FormStart } => {
		const cursor = kept !== undefined && Object.prototype.hasOwnProperty.call(kept.forms, form.pageId) ? kept.forms[form.pageId] : undefined;
		if (cursor !== undefined) return { cursor, start: { kind: 'first-poll' } };
		if (kept?.app !== undefined) return { cursor, start: formStart(kept, form.pageId) };
		return { cursor, start: settings.firstPoll.kind === 'since' ? { kind: 'since', time: settings.firstPoll.sinceMs, keysAtTime: [] } : { kind: 'first-poll' } };
	};

	const ordered = readingOrder(forms, kept?.app?.leftOver ?? []);
	const reads = await readForms(
		ordered,
		async (form) => {
			const { cursor, start } = startOf(form);
			const reading = { mode: settings.mode, keep: recordsToKeepFor(cursor, start, cursorOptions) };
			return await fetchInquiryList.call(this, { appId: settings.appId, pageId: form.pageId }, reading, {
				...timing.fetchOptions,
				retry: { maxAttempts: FETCH_ATTEMPTS },
			});
		},
		{ concurrency: FORM_CONCURRENCY, startBefore: timing.startFormsBefore },
	);

	const runs: FormRun[] = [];
	for (const read of reads) {
		const formKey = `${triggerKey}/${read.form.pageId}`;
		if (read.kind === 'failed') {
			const { cursor } = startOf(read.form);
			// One form watched: before its first successful poll the user is still setting up, so show the error.
			const settingUp = !allForms && cursor === undefined;
			const what = allForms ? `the inquiries of form ${formLabel(read.form)}` : 'inquiries';
			failedRead(this, { error: read.error, triggerKey: formKey, settingUp, settings, what, form: allForms ? read.form : undefined });
			continue;
		}
		if (read.kind === 'not-reached') continue;
		noteRecovery(this, formKey, allForms ? read.form : undefined);
		const { cursor, start } = startOf(read.form);
		runs.push({ form: read.form, cursor, start, list: read.list, plan: planForm(cursor, start, read.list.events, cursorOptions) });
	}

	const toItem = (record: unknown, form: AppForm): INodeExecutionData => {
		const item = inquiryItem(record, settings.simplify);
		return { json: allForms ? withItsForm(item, form) : item };
	};
	const emitted = new Map<FormRun, CursorEvent[]>(runs.map((run) => [run, []]));
	const items: INodeExecutionData[] = [];
	for (const { form: run, event } of mergedEmissions(runs.map((run) => ({ form: run, toEmit: run.plan.toEmit })), settings.maxItems)) {
		if (timing.softDeadline !== undefined && items.length > 0 && Date.now() > timing.softDeadline) break;
		items.push(toItem(run.list.recordOf(event.key), run.form));
		emitted.get(run)?.push(event);
	}

	// Not one form could be read: like any failed poll, this one saves nothing.
	if (runs.length === 0 && reads.some((entry) => entry.kind === 'failed')) return null;
	// Another poll of this trigger saved a position meanwhile (one that outlived its claim, see
	// pollClaims.ts): what this one found was planned on an older position, so it emits nothing.
	if (storedPosition(node, stores) !== positionAtStart) return null;
	const read = new Map<string, FormCursor>(runs.map((run) => [run.form.pageId, commitForm(run.plan, emitted.get(run) ?? [], cursorOptions)]));
	const reached = new Set(reads.filter((entry) => entry.kind !== 'not-reached').map((entry) => entry.form.pageId));
	const next: TriggerPosition = nextPosition(
		kept,
		scope,
		{ listed: forms.map((form) => form.pageId), read, leftOver: leftOverAfter(ordered, reached) },
		{ allForms, nowMs: settings.firstPoll.kind === 'since' ? Math.min(settings.firstPoll.sinceMs, timing.startedAt) : timing.startedAt },
	);
	writeTriggerPosition(node, stores, next, Date.now());
	return items.length > 0 ? [items] : null;
}

/**
 * A read that failed: thrown while the user is still setting up, and once a
 * failure has lasted (failureStreaks.ts); else logged, and the poll goes on
 * without it.
 */
function failedRead(
	context: IPollFunctions,
	failure: { error: unknown; triggerKey: string; settingUp: boolean; settings: TriggerSettings; what: string; form?: AppForm },
): void {
	const nodeError = asNodeError(context.getNode(), failure.error);
	if (failure.settingUp) throw nodeError;
	const streak = recordFailedPoll(failure.triggerKey, Date.now(), failure.settings.reporting);
	if (streak.report) throw persistentFailure(nodeError, streak, failure.form);
	context.logger.error(
		`App Builder Trigger could not read ${failure.what} (${streak.polls} failed ${streak.polls === 1 ? 'poll' : 'polls in a row'}): ${withoutFinalDots(nodeError.message)}. Nothing was lost; the next poll tries again.`,
		{ workflowId: context.getWorkflow().id, node: context.getNode().name },
	);
}

function noteRecovery(context: IPollFunctions, streakKey: string, form: AppForm | undefined): void {
	const recovered = recordSucceededPoll(streakKey);
	if (recovered === undefined) return;
	const which = form === undefined ? '' : ` of form ${formLabel(form)}`;
	context.logger.info(
		`App Builder Trigger reads the inquiries${which} again after ${recovered.polls} failed ${recovered.polls === 1 ? 'poll' : 'polls'}; the inquiries that waited are emitted now`,
		{ workflowId: context.getWorkflow().id, node: context.getNode().name },
	);
}

/** The error a poll throws once a failure has lasted: n8n records it and runs the error workflow. */
function persistentFailure(error: NodeApiError | NodeOperationError, streak: FailureStreak, form: AppForm | undefined): NodeApiError | NodeOperationError {
	const minutes = Math.max(1, Math.round((Date.now() - streak.since) / 60_000));
	const which = form === undefined ? 'inquiries' : `the inquiries of form ${formLabel(form)}`;
	const others = form === undefined ? '' : " The app's other forms are read as usual; their new inquiries come with the next poll.";
	const lasting = `The trigger has not been able to read ${which} for ${minutes} ${minutes === 1 ? 'minute' : 'minutes'} (${streak.polls} polls in a row). No lead is lost: when the API answers again, every inquiry submitted meanwhile is emitted once. This error is reported once; the trigger keeps polling.${others}`;
	error.description = error.description ? `${lasting} ${error.description}` : lasting;
	return error;
}

function formLabel(form: AppForm): string {
	return form.pageName === form.pageId ? form.pageId : `"${form.pageName}" (${form.pageId})`;
}

function withoutFinalDots(text: string): string {
	let end = text.length;
	while (end > 0 && text[end - 1] === '.') end--;
	return text.slice(0, end);
}
