import type { INodeExecutionData, IPollFunctions } from 'n8n-workflow';

import { DEFAULT_RETRY_POLICY } from '../../shared/http/retryPolicy';
import type { WebServiceCallOptions } from '../transport/request';
import { claimPoll } from './triggerMemory';
import { FETCH_ATTEMPTS, pollDeadline, pollWatchedForms } from './pollWatchedForms';
import { logContext } from './pollReports';
import { testEvent } from './testEvent';
import { readTriggerSettings } from './triggerSettings';

/** How long past its own deadlines a poll's claim on its trigger holds. */
const CLAIM_MARGIN_MS = 60_000;

/** One poll of the trigger, one at a time (docs/trigger-internals.md, "Overlapping polls"), or "Fetch Test Event". */
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
		return await pollWatchedForms(this, settings, triggerKey, { startedAt, fetchOptions });
	} finally {
		release();
	}
}

/** The trigger in this n8n: its workflow and its node ID, which a rename keeps. */
function triggerKeyOf(context: IPollFunctions): string {
	const node = context.getNode();
	return `${context.getWorkflow().id ?? ''}:${node.id ?? `name:${node.name}`}`;
}
