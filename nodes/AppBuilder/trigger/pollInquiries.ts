import type { INodeExecutionData, IPollFunctions, NodeApiError } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { FormTarget } from '../../shared/appBuilderApi';
import { DEFAULT_RETRY_POLICY } from '../../shared/http/retryPolicy';
import { validateFormTarget } from '../descriptions/appAndForm';
import { DEFAULT_TIMEOUT_SECONDS, timeoutMsFrom } from '../descriptions/timeoutOption';
import { inquiryItem } from '../inquiries/inquiryItem';
import { asNodeError } from '../parameters/asNodeError';
import { wholeNumberFrom } from '../parameters/parameterValues';
import { checkedParameter, type ParameterField } from '../parameters/readParameter';
import type { WebServiceCallOptions } from '../transport/request';
import {
	commitPoll,
	MAX_FIRST_POLL_COUNT,
	planPoll,
	recordsToKeepGiven,
	type CursorEvent,
	type CursorOptions,
	type EventMode,
	type PollPlan,
} from './cursor';
import {
	DEFAULT_ERROR_AFTER_MINUTES,
	DEFAULT_ERROR_AFTER_POLLS,
	recordFailedPoll,
	recordSucceededPoll,
	type FailureReporting,
	type FailureStreak,
} from './failureStreaks';
import { fetchInquiryList } from './fetchInquiryList';
import { awaitsHandOff, positionFingerprint, recordHandOff } from './handOffs';
import { latestInquiry } from './latestInquiry';
import type { InquiryList } from './inquiryList';
import { claimPoll } from './pollClaims';
import { isStagedCopy, readCursorState, storedPosition, writeCursorState, type TriggerStores } from './triggerState';
import { UNDATED_CHANGES_TOLD_APART } from './undatedTable';

export const DEFAULT_FIRST_POLL_COUNT = 5;
export const DEFAULT_MAX_ITEMS_PER_POLL = 500;

/** Share of n8n's poll budget after which emitting stops early; the answer itself may take all of it. */
const BUDGET_SHARE = 0.8;
/** One quick retry inside a poll; a poll that still fails is tried again at the next tick. */
const FETCH_ATTEMPTS = 2;
/** How long past its own deadlines a poll's claim on its trigger holds (pollClaims.ts). */
const CLAIM_MARGIN_MS = 60_000;

/** The trigger's Options read as a whole; the number options are read and checked one by one. */
interface TriggerOptions {
	firstPoll?: 'none' | 'latest';
}

/**
 * One poll: fetch every inquiry of the form, ask the cursor which are new,
 * flatten those, and only then save the cursor. A poll that fails saves
 * nothing, so the next successful poll emits whatever this one missed.
 * Only one poll of a trigger runs at a time (pollClaims.ts), and one whose
 * position another poll moved meanwhile emits nothing.
 */
export async function pollInquiries(this: IPollFunctions): Promise<INodeExecutionData[][] | null> {
	const startedAt = Date.now();
	const target = validateFormTarget(
		this.getNode(),
		this.getNodeParameter('appId', ''),
		this.getNodeParameter('pageId', '', { extractValue: true }),
	);
	const mode = this.getNodeParameter('event', 'new') as EventMode;
	const simplify = this.getNodeParameter('simplify', true) as boolean;
	const toItem = (record: unknown): INodeExecutionData => ({ json: inquiryItem(record, simplify) });

	// Every answer must end by the Timeout option, and a poll by n8n's poll budget where that is sooner.
	const answerTimeoutMs = timeoutMsFrom(this.getNode(), this.getNodeParameter('options.timeout', DEFAULT_TIMEOUT_SECONDS));
	const fetchOptions: WebServiceCallOptions = { answerTimeoutMs, deadlineAt: pollDeadline(this, startedAt, 1) };

	if (this.getMode() === 'manual') return [[toItem(await latestInquiry.call(this, target, mode, fetchOptions))]];

	const triggerKey = triggerKeyOf(this);
	const lapsesAt = (fetchOptions.deadlineAt ?? startedAt + FETCH_ATTEMPTS * answerTimeoutMs + DEFAULT_RETRY_POLICY.rateLimitBudgetMs) + CLAIM_MARGIN_MS;
	const release = claimPoll(triggerKey, startedAt, lapsesAt);
	if (release === undefined) {
		this.logger.info('App Builder Trigger skipped a poll: the previous poll of this trigger is still running and emits the new inquiries', {
			workflowId: this.getWorkflow().id,
			node: this.getNode().name,
		});
		return null;
	}
	try {
		return await pollOnce.call(this, { target, mode, toItem, fetchOptions, startedAt, triggerKey });
	} finally {
		release();
	}
}

interface PollSetting {
	target: FormTarget;
	mode: EventMode;
	toItem: (record: unknown) => INodeExecutionData;
	fetchOptions: WebServiceCallOptions;
	startedAt: number;
	triggerKey: string;
}

async function pollOnce(this: IPollFunctions, setting: PollSetting): Promise<INodeExecutionData[][] | null> {
	const { target, mode, toItem, fetchOptions, startedAt, triggerKey } = setting;
	const node = this.getNode();
	const options = this.getNodeParameter('options', {}) as TriggerOptions;
	const stores: TriggerStores = { node: this.getWorkflowStaticData('node'), workflow: this.getWorkflowStaticData('global') };
	const scope = `${target.appId}/${target.pageId}/${mode}`;
	const positionAtStart = storedPosition(node, stores);
	const state = readCursorState(node, stores);

	const cursorOptions: CursorOptions = {
		mode,
		firstPoll:
			options.firstPoll === 'latest'
				? { kind: 'latest', count: wholeOption(this, FIRST_POLL_COUNT, DEFAULT_FIRST_POLL_COUNT, MAX_FIRST_POLL_COUNT) }
				: { kind: 'none' },
		maxItems: wholeOption(this, MAX_ITEMS_PER_POLL, DEFAULT_MAX_ITEMS_PER_POLL),
		nowMs: Date.now(),
	};
	const reporting: FailureReporting = {
		afterPolls: wholeOption(this, ERROR_AFTER_POLLS, DEFAULT_ERROR_AFTER_POLLS),
		afterMs: wholeOption(this, ERROR_AFTER_MINUTES, DEFAULT_ERROR_AFTER_MINUTES, undefined, 0) * 60_000,
	};

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

	let inquiries: InquiryList;
	try {
		// Only records the cursor may emit are kept from the answer; one quick retry
		// inside the poll, and a poll that still fails is tried again next time.
		const reading = {
			mode,
			keep: recordsToKeepGiven(state, cursorOptions, scope),
			// When more records than a poll may hold are new, those the plan emits are read again.
			toEmit: (events: readonly CursorEvent[]) => planPoll(state, events, cursorOptions, scope).toEmit,
		};
		inquiries = await fetchInquiryList.call(this, target, reading, { ...fetchOptions, retry: { maxAttempts: FETCH_ATTEMPTS } });
	} catch (error) {
		const nodeError = asNodeError(node, error);
		// Before the first successful poll the user is still setting up: show the error.
		if (state === undefined || state.scope !== scope) throw nodeError;
		const streak = recordFailedPoll(triggerKey, Date.now(), reporting);
		if (streak.report) throw persistentFailure(nodeError, streak);
		this.logger.error(
			`App Builder Trigger could not read inquiries (${streak.polls} failed ${streak.polls === 1 ? 'poll' : 'polls in a row'}): ${withoutFinalDots(nodeError.message)}. Nothing was lost; the next poll tries again.`,
			{ workflowId: this.getWorkflow().id, node: node.name },
		);
		return null;
	}
	const recovered = recordSucceededPoll(triggerKey);
	if (recovered !== undefined) {
		this.logger.info(
			`App Builder Trigger reads inquiries again after ${recovered.polls} failed ${recovered.polls === 1 ? 'poll' : 'polls'}; the inquiries that waited are emitted now`,
			{ workflowId: this.getWorkflow().id, node: node.name },
		);
	}

	const plan = planPoll(state, inquiries.events, cursorOptions, scope);
	reportUnresolvedUndated(this, plan, `${triggerKey}:undated`, reporting);
	const deadline = pollDeadline(this, startedAt, BUDGET_SHARE);
	const emitted: CursorEvent[] = [];
	const items: INodeExecutionData[] = [];
	for (const event of plan.toEmit) {
		if (deadline !== undefined && emitted.length > 0 && Date.now() > deadline) break;
		const record = inquiries.recordOf(event.key);
		// Only in an answer read again: the inquiry was deleted meanwhile, or the rest is past what a poll holds.
		if (record === undefined) break;
		items.push(toItem(record));
		emitted.push(event);
	}

	// Another poll of this trigger saved a position meanwhile (one that outlived its claim, see
	// pollClaims.ts): what this one found was planned on an older position, so it emits nothing.
	if (storedPosition(node, stores) !== positionAtStart) return null;
	writeCursorState(node, stores, commitPoll(plan, emitted, cursorOptions, scope), Date.now());
	if (staged) recordHandOff(triggerKey, startedFrom, positionFingerprint(storedPosition(node, stores)), Date.now());
	return items.length > 0 ? [items] : null;
}

/**
 * Undated inquiries whose changes the cursor cannot tell apart (cursorUndated.ts) wait: logged on
 * every poll, and once it lasts (as a failed poll would), thrown once by a poll that has nothing
 * to emit, so nothing is lost by throwing.
 */
function reportUnresolvedUndated(context: IPollFunctions, plan: PollPlan, streakKey: string, reporting: FailureReporting): void {
	if (plan.unresolvedUndated === 0) {
		recordSucceededPoll(streakKey);
		return;
	}
	const problem = `App Builder Trigger cannot tell which inquiries without a submission time are new: about ${plan.unresolvedUndated} of them appeared or disappeared beyond what it tells apart between two polls`;
	const streak = plan.toEmit.length === 0 ? recordFailedPoll(streakKey, Date.now(), reporting) : undefined;
	if (streak?.report === true) {
		throw new NodeOperationError(context.getNode(), problem, {
			description: `It tells apart up to about ${UNDATED_CHANGES_TOLD_APART} such changes (new, deleted, or given a submission time) between two polls. Inquiries with a submission time are emitted as usual and nothing is emitted twice; new inquiries without one wait. If many were deleted or imported at once, the trigger cannot catch up by itself: to start over, duplicate this trigger node, connect the copy in its place and delete the original (the copy begins with a first poll; App Builder > Get Many Inquiries lists the inquiries that waited). This error is reported once.`,
		});
	}
	context.logger.warn(`${problem}; new ones without a submission time wait`, { workflowId: context.getWorkflow().id, node: context.getNode().name });
}

/** The error a poll throws once a failure has lasted: n8n records it and runs the error workflow. */
function persistentFailure(error: NodeApiError | NodeOperationError, streak: FailureStreak): NodeApiError | NodeOperationError {
	const minutes = Math.max(1, Math.round((Date.now() - streak.since) / 60_000));
	const lasting = `The trigger has not been able to read inquiries for ${minutes} ${minutes === 1 ? 'minute' : 'minutes'} (${streak.polls} polls in a row). No lead is lost: when the API answers again, every inquiry submitted meanwhile is emitted once. This error is reported once; the trigger keeps polling.`;
	error.description = error.description ? `${lasting} ${error.description}` : lasting;
	return error;
}

/** The trigger in this n8n: its workflow and its node ID, which a rename keeps. */
function triggerKeyOf(context: IPollFunctions): string {
	const node = context.getNode();
	return `${context.getWorkflow().id ?? ''}:${node.id ?? `name:${node.name}`}`;
}

/** n8n 2.40+ tells a poll how long it may take; older versions do not, and then there is no deadline. */
function pollDeadline(context: IPollFunctions, startedAt: number, share: number): number | undefined {
	const getBudget = (context as Partial<Pick<IPollFunctions, 'getPollBudgetMs'>>).getPollBudgetMs;
	if (typeof getBudget !== 'function') return undefined;
	const budget = getBudget.call(context);
	return Number.isFinite(budget) && budget > 0 ? startedAt + budget * share : undefined;
}

function withoutFinalDots(text: string): string {
	let end = text.length;
	while (end > 0 && text[end - 1] === '.') end--;
	return text.slice(0, end);
}

const FIRST_POLL_COUNT = { label: 'Latest Count', path: 'options.firstPollCount' };
const MAX_ITEMS_PER_POLL = { label: 'Max Inquiries per Poll', path: 'options.maxItemsPerPoll' };
const ERROR_AFTER_POLLS = { label: 'Error After Failed Polls', path: 'options.errorAfterPolls' };
const ERROR_AFTER_MINUTES = { label: 'Error After Minutes', path: 'options.errorAfterMinutes' };

/** A whole-number option; from an expression, NaN or 2.5 is an error rather than clamped into something else. */
function wholeOption(context: IPollFunctions, field: ParameterField, fallback: number, max?: number, min = 1): number {
	const value = context.getNodeParameter(field.path, fallback);
	return checkedParameter(context.getNode(), field, wholeNumberFrom(value, { min, max }));
}
