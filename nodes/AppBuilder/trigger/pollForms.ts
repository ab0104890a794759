import type { INodeExecutionData, IPollFunctions, NodeApiError } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { inquiryItem } from '../inquiries/inquiryItem';
import { asNodeError } from '../parameters/asNodeError';
import { fetchAppForms, type AppForm } from '../transport/appForms';
import type { WebServiceCallOptions } from '../transport/request';
import { recordFailedPoll, recordSucceededPoll, type FailureStreak } from './failureStreaks';
import { fetchInquiryList } from './reading/fetchInquiryList';
import { awaitsHandOff, positionFingerprint, recordHandOff } from './handOffs';
import { formsToRead, planAppPoll, type AppPollSetup, type FormOutcome } from './plan/pollPlan';
import type { InquiryList } from './reading/inquiryList';
import { withItsForm } from './reading/itemForm';
import { FORM_CONCURRENCY, readForms } from './reading/readForms';
import { positionScope } from './saved/position';
import { UNDATED_CHANGES_TOLD_APART } from './cursor/undatedTable';
import type { TriggerSettings } from './triggerSettings';
import { isStagedCopy, readTriggerPosition, storedPosition, writeTriggerPosition, type TriggerStores } from './saved/storage';

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

/**
 * One poll over the forms the trigger watches: one form, or every form of
 * the app as AppFeatures.php lists them now. Each form is read apart, so
 * one form's failure holds back only that form: it is retried at the next
 * poll and keeps its cursor. The oldest leads across forms are emitted
 * first, within Max per Poll, and each form's cursor then saves what it
 * emitted. Whatever failed in a poll (the list, any number of forms) is one
 * failure of the trigger, reported once it lasts. Nothing is saved when the
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
	// Under durable poll cursors, a copy of the position from before n8n stored the previous poll's hand-over (handOffs.ts).
	const staged = isStagedCopy(stores.node);
	const startedFrom = positionFingerprint(positionAtStart);
	if (staged && awaitsHandOff(triggerKey, startedFrom, Date.now())) {
		this.logger.info('App Builder Trigger skipped a poll: n8n has not yet stored the position the previous poll of this trigger handed over; the next poll emits the new inquiries', {
			workflowId: this.getWorkflow().id,
			node: node.name,
		});
		return null;
	}
	const saved = readTriggerPosition(node, stores);
	const kept = saved?.scope === scope ? saved : undefined;
	const allForms = settings.pageId === undefined;
	// The watch of every form has begun once a poll saved when: until then, a failure is shown as the user sets up.
	const watchBegan = allForms ? kept?.allFormsSince !== undefined : kept !== undefined && Object.prototype.hasOwnProperty.call(kept.forms, settings.pageId as string);

	let forms: AppForm[];
	if (allForms) {
		try {
			forms = await fetchAppForms(this, settings.appId, { ...timing.fetchOptions, retry: { maxAttempts: FETCH_ATTEMPTS } });
		} catch (error) {
			if (!watchBegan) throw asNodeError(node, error);
			reportFailures(this, triggerKey, settings, [{ error, what: "the app's list of forms" }]);
			return null;
		}
	} else {
		forms = [{ pageId: settings.pageId as string, pageName: settings.pageId as string }];
	}

	const setup: AppPollSetup = {
		kept,
		scope,
		listed: forms.map((form) => form.pageId),
		allForms,
		firstPollSince: settings.firstPoll.kind === 'since' ? settings.firstPoll.sinceMs : undefined,
		cursorOptions: {
			mode: settings.mode,
			firstPoll: settings.firstPoll.kind === 'since' ? { kind: 'none' } : settings.firstPoll,
			maxItems: settings.maxItems,
			nowMs: Date.now(),
		},
		nowMs: timing.startedAt,
	};
	const formsById = new Map(forms.map((form) => [form.pageId, form]));
	const reads = await readForms(
		formsToRead(setup),
		async ({ pageId, keep, toEmit }) =>
			await fetchInquiryList.call(this, { appId: settings.appId, pageId }, { mode: settings.mode, keep, toEmit }, {
				...timing.fetchOptions,
				retry: { maxAttempts: FETCH_ATTEMPTS },
			}),
		{ concurrency: FORM_CONCURRENCY, startBefore: timing.startFormsBefore },
	);

	const lists = new Map<string, InquiryList>();
	const outcomes: FormOutcome[] = [];
	const failures: Failure[] = [];
	for (const read of reads) {
		const form = formsById.get(read.form.pageId) as AppForm;
		if (read.kind === 'failed') {
			// One form watched: before its first successful poll the user is still setting up, so show the error.
			if (!allForms && !watchBegan) throw asNodeError(node, read.error);
			failures.push({ error: read.error, what: allForms ? `form ${formLabel(form)}` : 'the inquiries', form: allForms ? form : undefined });
			outcomes.push({ pageId: form.pageId, events: 'failed' });
		} else if (read.kind === 'not-reached') {
			outcomes.push({ pageId: form.pageId, events: 'not-reached' });
		} else {
			lists.set(form.pageId, read.list);
			outcomes.push({ pageId: form.pageId, events: read.list.events });
		}
	}
	reportFailures(this, triggerKey, settings, failures);
	const plan = planAppPoll(setup, outcomes);
	reportUnresolvedUndated(this, {
		forms: plan.unresolvedUndated.filter(({ count }) => count > 0).map(({ pageId, count }) => ({ count, form: allForms ? formsById.get(pageId) : undefined })),
		nothingToEmit: plan.emissions.length === 0,
		streakKey: `${triggerKey}:undated`,
		settings,
	});

	const items: INodeExecutionData[] = [];
	for (const { pageId, event } of plan.emissions) {
		if (timing.softDeadline !== undefined && items.length > 0 && Date.now() > timing.softDeadline) break;
		const record = (lists.get(pageId) as InquiryList).recordOf(event.key);
		// Only in an answer read again: the inquiry was deleted meanwhile, or the rest is past what a poll holds.
		if (record === undefined) break;
		const item = inquiryItem(record, settings.simplify);
		items.push({ json: allForms ? withItsForm(item, formsById.get(pageId) as AppForm) : item });
	}

	// Not one form could be read: like any failed poll, this one saves nothing, unless it must record when the watch began.
	if (lists.size === 0 && failures.length > 0 && watchBegan) return null;
	// Another poll of this trigger saved a position meanwhile (one that outlived its claim, see
	// pollClaims.ts): what this one found was planned on an older position, so it emits nothing.
	if (storedPosition(node, stores) !== positionAtStart) return null;
	writeTriggerPosition(node, stores, plan.commit(items.length), Date.now());
	if (staged) recordHandOff(triggerKey, startedFrom, positionFingerprint(storedPosition(node, stores)), Date.now());
	return items.length > 0 ? [items] : null;
}

interface Failure {
	error: unknown;
	/** What could not be read, for the log and the report. */
	what: string;
	form?: AppForm;
}

/**
 * A poll's failures, whatever failed, are one failure of the trigger
 * (failureStreaks.ts): logged, and thrown once they last; a poll without
 * failures ends the streak.
 */
function reportFailures(context: IPollFunctions, triggerKey: string, settings: TriggerSettings, failures: readonly Failure[]): void {
	if (failures.length === 0) {
		noteRecovery(context, triggerKey);
		return;
	}
	const node = context.getNode();
	const first = asNodeError(node, failures[0].error);
	const streak = recordFailedPoll(triggerKey, Date.now(), settings.reporting);
	if (streak.report) throw persistentFailure(first, streak, failures);
	const what = failures.map((failure) => failure.what).join(', ');
	context.logger.error(
		`App Builder Trigger could not read ${what} (${streak.polls} failed ${streak.polls === 1 ? 'poll' : 'polls in a row'}): ${withoutFinalDots(first.message)}. Nothing was lost; the next poll tries again.`,
		{ workflowId: context.getWorkflow().id, node: node.name },
	);
}

/**
 * Undated inquiries whose changes a form's cursor cannot tell apart
 * (cursorUndated.ts) wait: logged on every poll, and once it lasts (as a
 * failed poll would), thrown once by a poll that has nothing to emit, so
 * nothing is lost by throwing.
 */
function reportUnresolvedUndated(
	context: IPollFunctions,
	trouble: { forms: Array<{ count: number; form: AppForm | undefined }>; nothingToEmit: boolean; streakKey: string; settings: TriggerSettings },
): void {
	if (trouble.forms.length === 0) {
		recordSucceededPoll(trouble.streakKey);
		return;
	}
	const count = trouble.forms.reduce((sum, entry) => sum + entry.count, 0);
	const named = trouble.forms.flatMap((entry) => (entry.form === undefined ? [] : [formLabel(entry.form)]));
	const where = named.length === 0 ? '' : ` of ${named.length === 1 ? 'form' : 'forms'} ${named.join(', ')}`;
	const problem = `App Builder Trigger cannot tell which inquiries${where} without a submission time are new: about ${count} of them appeared or disappeared beyond what it tells apart between two polls`;
	const streak = trouble.nothingToEmit ? recordFailedPoll(trouble.streakKey, Date.now(), trouble.settings.reporting) : undefined;
	if (streak?.report === true) {
		throw new NodeOperationError(context.getNode(), problem, {
			description: `It tells apart up to about ${UNDATED_CHANGES_TOLD_APART} such changes (new, deleted, or given a submission time) between two polls. Inquiries with a submission time are emitted as usual and nothing is emitted twice; new inquiries without one wait. If many were deleted or imported at once, the trigger cannot catch up by itself: to start over, duplicate this trigger node, connect the copy in its place and delete the original (the copy begins with a first poll; App Builder > Get Many Inquiries lists the inquiries that waited). This error is reported once.`,
		});
	}
	context.logger.warn(`${problem}; new ones without a submission time wait`, { workflowId: context.getWorkflow().id, node: context.getNode().name });
}

function noteRecovery(context: IPollFunctions, streakKey: string): void {
	const recovered = recordSucceededPoll(streakKey);
	if (recovered === undefined) return;
	context.logger.info(
		`App Builder Trigger reads every form it watches again after ${recovered.polls} failed ${recovered.polls === 1 ? 'poll' : 'polls'}; the inquiries that waited are emitted now`,
		{ workflowId: context.getWorkflow().id, node: context.getNode().name },
	);
}

/** The error a poll throws once a failure has lasted: n8n records it and runs the error workflow. */
function persistentFailure(error: NodeApiError | NodeOperationError, streak: FailureStreak, failures: readonly Failure[]): NodeApiError | NodeOperationError {
	const minutes = Math.max(1, Math.round((Date.now() - streak.since) / 60_000));
	const which = failures.map((failure) => failure.what).join(', ');
	const others = failures.some((failure) => failure.form !== undefined) ? " The app's other forms are read as usual; their new inquiries come with the next poll." : '';
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
