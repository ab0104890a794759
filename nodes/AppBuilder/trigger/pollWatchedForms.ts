import type { INodeExecutionData, IPollFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { formLabel, withItsForm } from '../acrossForms/itemForm';
import { FORM_CONCURRENCY, formsRead, MAX_FORMS_READ, readForms } from '../acrossForms/readForms';
import { inquiryItem } from '../inquiries/inquiryItem';
import { asNodeError } from '../transport/asNodeError';
import { fetchAppForms, type AppForm } from '../transport/appForms';
import type { WebServiceCallOptions } from '../transport/request';
import { awaitsHandOff, positionFingerprint, recordHandOff } from './triggerMemory';
import { PollPlanner } from './plan/pollPlan';
import {
	logContext,
	reportFailures,
	reportFormsBeyond,
	reportQuietForms,
	reportUnresolvedUndated,
	type Failure,
} from './pollReports';
import { fetchInquiryList } from './reading/fetchInquiryList';
import type { InquiryList } from './events/inquiryList';
import { UnusablePosition } from './saved/migrations';
import { positionScope, type TriggerPosition } from './saved/position';
import {
	adoptOwnerless,
	hasDurablePollCursors,
	readTriggerPosition,
	storedPosition,
	writeTriggerPosition,
	type TriggerStores,
} from './saved/storage';
import type { TriggerSettings } from './triggerSettings';

/** One quick retry inside a poll; a poll that still fails is tried again at the next tick. */
export const FETCH_ATTEMPTS = 2;

/** Share of n8n's poll budget after which emitting stops early; the answers themselves may take all of it. */
const BUDGET_SHARE = 0.8;
/** Share of the budget after which no further form of an app is started, so each started one has time to end. */
const START_FORMS_SHARE = 0.5;

/** One poll over the forms watched (ARCHITECTURE.md, "Watching every form"); nothing is saved when it throws. */
export async function pollWatchedForms(
	context: IPollFunctions,
	settings: TriggerSettings,
	triggerKey: string,
	timing: { startedAt: number; fetchOptions: WebServiceCallOptions },
): Promise<INodeExecutionData[][] | null> {
	const { startedAt } = timing;
	const startFormsBefore = pollDeadline(context, startedAt, START_FORMS_SHARE);
	const stopEmittingAt = pollDeadline(context, startedAt, BUDGET_SHARE) ?? Infinity;
	const node = context.getNode();
	const stores: TriggerStores = {
		node: context.getWorkflowStaticData('node'),
		workflow: context.getWorkflowStaticData('global'),
	};
	const positionAtStart = storedPosition(node.id, stores);
	// Only a staged copy is handed over (durable poll cursors): its fingerprint, a pass over the whole position, serves nothing else.
	const startedFrom = hasDurablePollCursors(stores.node)
		? positionFingerprint(positionAtStart)
		: undefined;
	if (startedFrom !== undefined && awaitsHandOff(triggerKey, startedFrom, Date.now())) {
		context.logger.info(
			'App Builder Trigger skipped a poll: n8n has not yet stored the position the previous poll of this trigger handed over; the next poll emits the new inquiries',
			logContext(context),
		);
		return null;
	}
	adoptOwnerless(node.id, stores);
	const scope = positionScope(settings.appId, settings.mode);
	const saved = readPosition(context, stores);
	const { watch } = settings;
	const fetchOptions = { ...timing.fetchOptions, retry: { maxAttempts: FETCH_ATTEMPTS } };
	const setup = {
		...settings,
		saved: saved?.scope === scope ? saved : undefined,
		scope,
		nowMs: startedAt,
	};

	// List: every form of the app (the one form is known by its page ID).
	const formsById = new Map<string, AppForm>();
	let listing: { read: string[]; before: string[] } | undefined;
	if (watch.kind === 'all') {
		try {
			const listed = await fetchAppForms(context, settings.appId, fetchOptions);
			for (const form of listed) formsById.set(form.pageId, form);
			const ids = [...formsById.keys()];
			listing = { read: formsRead(ids), before: ids.slice(0, -MAX_FORMS_READ) };
			reportFormsBeyond(context, triggerKey, listed.length);
		} catch (error) {
			// Until the saved position watches what the settings ask, a failure is shown as the user sets up.
			if (!new PollPlanner(setup).begun) throw asNodeError(node, error);
			const failure = { error, what: "the app's list of forms", cause: 'list' };
			reportFailures(context, triggerKey, settings, { failures: [failure], read: [] });
			return null;
		}
	}

	// Resolve each form's start, read, step.
	const plan = new PollPlanner({ ...setup, listing });
	const reads = await readForms(
		plan.formsToRead(),
		async ({ pageId, ...reading }) =>
			await fetchInquiryList(context, { appId: settings.appId, pageId }, reading, fetchOptions),
		{ concurrency: FORM_CONCURRENCY, startBefore: startFormsBefore },
	);
	const formOf = (pageId: string) => formsById.get(pageId) ?? { pageId, pageName: pageId };
	const lists = new Map<string, InquiryList>();
	const failures: Failure[] = [];
	for (const read of reads) {
		const { pageId } = read.form;
		if (read.kind === 'read') lists.set(pageId, read.list);
		else if (read.kind === 'failed') {
			const one = watch.kind === 'one';
			// One form watched: before the watch began the user is still setting up, so show the error.
			if (one && !plan.begun) throw asNodeError(node, read.error);
			failures.push({
				error: read.error,
				what: one ? 'the inquiries' : `form ${formLabel(formOf(pageId))}`,
				cause: `form:${pageId}`,
				form: one ? undefined : formOf(pageId),
			});
		}
	}
	const read = [...lists.keys()].map((form) => `form:${form}`);
	reportFailures(context, triggerKey, settings, {
		failures,
		read: watch.kind === 'all' ? ['list', ...read] : read,
	});

	// Merge, emit.
	const { emissions, unresolvedUndated, quietSpells, commit } = plan.plan(reads);
	reportUnresolvedUndated(context, triggerKey, settings, {
		forms: unresolvedUndated
			.filter(({ count }) => count > 0)
			.map(({ pageId, count }) => ({
				count,
				label: watch.kind === 'all' ? formLabel(formOf(pageId)) : undefined,
			})),
		nothingToEmit: emissions.length === 0,
	});
	const items: INodeExecutionData[] = [];
	for (const { pageId, event } of emissions) {
		if (items.length > 0 && Date.now() > stopEmittingAt) break;
		const record = (lists.get(pageId) as InquiryList).recordOf(event.key);
		// Only in an answer read again: the inquiry was deleted meanwhile, or the rest is past what a poll holds.
		if (record === undefined) break;
		const item = inquiryItem(record, settings.simplify);
		items.push({ json: watch.kind === 'all' ? withItsForm(item, formOf(pageId)) : item });
	}

	// Save: not one form read saves nothing, like any failed poll, unless it begins or changes the watch.
	if (lists.size === 0 && failures.length > 0 && !plan.changes) return null;
	// Another poll of this trigger saved meanwhile (one that outlived its claim): this one planned on an older position.
	if (storedPosition(node.id, stores) !== positionAtStart) return null;
	writeTriggerPosition(node.id, stores, commit(items.length), Date.now());
	if (startedFrom !== undefined)
		recordHandOff(
			triggerKey,
			startedFrom,
			positionFingerprint(storedPosition(node.id, stores)),
			Date.now(),
		);

	// Report: quiet forms, once the position that records their spell is saved (once per spell).
	const labelled = quietSpells.map(({ pageId, ...quiet }) => ({
		...quiet,
		label: formLabel(formOf(pageId)),
	}));
	reportQuietForms(context, settings, labelled);
	return items.length > 0 ? [items] : null;
}

/** n8n 2.40+ tells a poll how long it may take; older versions do not, and then there is no deadline. */
export function pollDeadline(
	context: IPollFunctions,
	startedAt: number,
	share: number,
): number | undefined {
	const getBudget = (context as Partial<Pick<IPollFunctions, 'getPollBudgetMs'>>).getPollBudgetMs;
	if (typeof getBudget !== 'function') return undefined;
	const budget = getBudget.call(context);
	return Number.isFinite(budget) && budget > 0 ? startedAt + budget * share : undefined;
}

function readPosition(context: IPollFunctions, stores: TriggerStores): TriggerPosition | undefined {
	try {
		return readTriggerPosition(context.getNode().id, stores);
	} catch (error) {
		if (!(error instanceof UnusablePosition)) throw asNodeError(context.getNode(), error);
		throw new NodeOperationError(context.getNode(), error.message, {
			description: error.description,
		});
	}
}
