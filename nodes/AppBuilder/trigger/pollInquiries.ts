import type { INodeExecutionData, IPollFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { validateFormTarget } from '../descriptions/appAndForm';
import { DEFAULT_TIMEOUT_SECONDS, timeoutMsFrom } from '../descriptions/timeoutOption';
import { fetchInquiries } from '../inquiries/fetchInquiries';
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
	toCursorEvent,
	type CursorEvent,
	type CursorOptions,
	type EventMode,
} from './cursor';
import { fetchInquiryList } from './fetchInquiryList';
import type { InquiryList } from './inquiryList';
import { readCursorState, writeCursorState } from './triggerState';

export const DEFAULT_FIRST_POLL_COUNT = 5;
export const DEFAULT_MAX_ITEMS_PER_POLL = 500;

/** Share of n8n's poll budget after which emitting stops early; the answer itself may take all of it. */
const BUDGET_SHARE = 0.8;

/** The trigger's Options read as a whole; the number options are read and checked one by one. */
interface TriggerOptions {
	firstPoll?: 'none' | 'latest';
}

/**
 * One poll: fetch every inquiry of the form, ask the cursor which are new,
 * flatten those, and only then save the cursor. A poll that fails saves
 * nothing, so the next successful poll emits whatever this one missed.
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
	const options = this.getNodeParameter('options', {}) as TriggerOptions;
	const toItem = (record: unknown): INodeExecutionData => ({ json: inquiryItem(record, simplify) });

	// Every answer must end by the Timeout option, and a poll by n8n's poll budget where that is sooner.
	const fetchOptions: WebServiceCallOptions = {
		answerTimeoutMs: timeoutMsFrom(this.getNode(), this.getNodeParameter('options.timeout', DEFAULT_TIMEOUT_SECONDS)),
		deadlineAt: pollDeadline(this, startedAt, 1),
	};

	if (this.getMode() === 'manual') return [[toItem(await latestInquiry.call(this, target, mode, fetchOptions))]];

	const staticData = this.getWorkflowStaticData('node');
	const scope = `${target.appId}/${target.pageId}/${mode}`;
	const state = readCursorState(this.getNode(), staticData);

	const cursorOptions: CursorOptions = {
		mode,
		firstPoll:
			options.firstPoll === 'latest'
				? { kind: 'latest', count: wholeOption(this, FIRST_POLL_COUNT, DEFAULT_FIRST_POLL_COUNT, MAX_FIRST_POLL_COUNT) }
				: { kind: 'none' },
		maxItems: wholeOption(this, MAX_ITEMS_PER_POLL, DEFAULT_MAX_ITEMS_PER_POLL),
		nowMs: Date.now(),
	};

	let inquiries: InquiryList;
	try {
		// Only records the cursor may emit are kept from the answer; one quick retry
		// inside the poll, and a poll that still fails is simply tried again next time.
		const reading = { mode, keep: recordsToKeepGiven(state, cursorOptions, scope) };
		inquiries = await fetchInquiryList.call(this, target, reading, { ...fetchOptions, retry: { maxAttempts: 2 } });
	} catch (error) {
		// Before the first successful poll the user is still setting up: show the error.
		// After it, do as n8n's own polling triggers do: log it and try again next poll.
		if (state === undefined || state.scope !== scope) throw asNodeError(this.getNode(), error);
		this.logger.error(
			`App Builder Trigger could not read inquiries: ${withoutFinalDots((error as Error).message)}. Nothing was lost; the next poll tries again.`,
			{ workflowId: this.getWorkflow().id, node: this.getNode().name },
		);
		return null;
	}

	const plan = planPoll(state, inquiries.events, cursorOptions, scope);
	const deadline = pollDeadline(this, startedAt, BUDGET_SHARE);
	const emitted: CursorEvent[] = [];
	const items: INodeExecutionData[] = [];
	for (const event of plan.toEmit) {
		if (deadline !== undefined && emitted.length > 0 && Date.now() > deadline) break;
		items.push(toItem(inquiries.recordOf(event.key)));
		emitted.push(event);
	}

	writeCursorState(staticData, commitPoll(plan.baseline, emitted, cursorOptions, scope));
	return items.length > 0 ? [items] : null;
}

/** "Fetch Test Event": the form's latest inquiry, without touching the trigger's state. */
async function latestInquiry(
	this: IPollFunctions,
	target: { appId: string; pageId: string },
	mode: EventMode,
	fetchOptions: WebServiceCallOptions,
): Promise<unknown> {
	const records = await fetchInquiries.call(this, target, fetchOptions);
	let latest: { record: unknown; time: number } | undefined;
	for (const record of records) {
		const time = toCursorEvent(record, mode).time ?? -Infinity;
		if (latest === undefined || time >= latest.time) latest = { record, time };
	}
	if (latest === undefined) {
		throw new NodeOperationError(this.getNode(), 'This form has no inquiries yet', {
			description:
				'Submit the form once in your app (or pick another form), then fetch a test event again.',
		});
	}
	return latest.record;
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

/** A whole-number option; from an expression, NaN or 2.5 is an error rather than clamped into something else. */
function wholeOption(context: IPollFunctions, field: ParameterField, fallback: number, max?: number): number {
	const value = context.getNodeParameter(field.path, fallback);
	return checkedParameter(context.getNode(), field, wholeNumberFrom(value, { min: 1, max }));
}
