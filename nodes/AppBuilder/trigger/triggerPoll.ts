import type { INodeExecutionData, IPollFunctions } from 'n8n-workflow';

import { DEFAULT_RETRY_POLICY } from '../../shared/http/retryPolicy';
import type { WebServiceCallOptions } from '../transport/request';
import { claimPoll } from './triggerMemory';
import { FETCH_ATTEMPTS, pollWatchedForms } from './pollWatchedForms';
import { logContext } from './pollReports';
import { testEvent } from './testEvent';
import { readTriggerSettings } from './triggerSettings';

/** Share of n8n's poll budget after which emitting stops early; the answers themselves may take all of it. */
const BUDGET_SHARE = 0.8;
/** Share of the budget after which no further form of an app is started, so each started one has time to end. */
const START_FORMS_SHARE = 0.5;
/** How long past its own deadlines a poll's claim on its trigger holds. */
const CLAIM_MARGIN_MS = 60_000;

/**
 * One poll of the trigger, or "Fetch Test Event". One poll of a trigger runs
 * at a time in this n8n: a poll that finds another under way returns at once
 * and leaves the leads to it (docs/trigger-internals.md, "Overlapping polls").
 */
export async function triggerPoll(this: IPollFunctions): Promise<INodeExecutionData[][] | null> {
	const startedAt = Date.now();
	const settings = readTriggerSettings(this);
	// Every answer must end by the Timeout option, and a poll by n8n's poll budget where that is sooner.
	const fetchOptions: WebServiceCallOptions = {
		answerTimeoutMs: settings.answerTimeoutMs,
		deadlineAt: pollDeadline(this, startedAt, 1),
	};

	if (this.getMode() === 'manual')
		return [[{ json: await testEvent(this, settings, fetchOptions) }]];

	const triggerKey = triggerKeyOf(this);
	const longestRun =
		FETCH_ATTEMPTS * settings.answerTimeoutMs + DEFAULT_RETRY_POLICY.rateLimitBudgetMs;
	const release = claimPoll(
		triggerKey,
		startedAt,
		(fetchOptions.deadlineAt ?? startedAt + longestRun) + CLAIM_MARGIN_MS,
	);
	if (release === undefined) {
		this.logger.info(
			'App Builder Trigger skipped a poll: the previous poll of this trigger is still running and emits the new inquiries',
			logContext(this),
		);
		return null;
	}
	try {
		const timing = {
			startedAt,
			startFormsBefore: pollDeadline(this, startedAt, START_FORMS_SHARE),
			stopEmittingAt: pollDeadline(this, startedAt, BUDGET_SHARE),
			fetchOptions,
		};
		return await pollWatchedForms(this, settings, timing, triggerKey);
	} finally {
		release();
	}
}

/** n8n 2.40+ tells a poll how long it may take; older versions do not, and then there is no deadline. */
function pollDeadline(
	context: IPollFunctions,
	startedAt: number,
	share: number,
): number | undefined {
	const getBudget = (context as Partial<Pick<IPollFunctions, 'getPollBudgetMs'>>).getPollBudgetMs;
	if (typeof getBudget !== 'function') return undefined;
	const budget = getBudget.call(context);
	return Number.isFinite(budget) && budget > 0 ? startedAt + budget * share : undefined;
}

/** The trigger in this n8n: its workflow and its node ID, which a rename keeps. */
function triggerKeyOf(context: IPollFunctions): string {
	const node = context.getNode();
	return `${context.getWorkflow().id ?? ''}:${node.id ?? `name:${node.name}`}`;
}
