import type { INodeExecutionData, IPollFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { formLabel, withItsForm } from '../acrossForms/itemForm';
import { FORM_CONCURRENCY, formsRead, readForms } from '../acrossForms/readForms';
import { inquiryItem } from '../inquiries/inquiryItem';
import { asNodeError } from '../transport/asNodeError';
import { fetchAppForms, type AppForm } from '../transport/appForms';
import type { WebServiceCallOptions } from '../transport/request';
import { awaitsHandOff, positionFingerprint, recordHandOff } from './inProcess/triggerMemory';
import { PollPlanner, type FormOutcome } from './plan/pollPlan';
import { Watch } from './plan/watch';
import {
	logContext,
	reportFailures,
	reportFormsBeyond,
	reportQuietForms,
	reportUnresolvedUndated,
	type Failure,
} from './pollReports';
import { fetchInquiryList } from './reading/fetchInquiryList';
import type { InquiryList } from '../inquiries/inquiryList';
import { positionScope, type TriggerPosition } from './saved/position';
import {
	adoptOwnerless,
	hasDurablePollCursors,
	readTriggerPosition,
	storedPosition,
	UnusablePosition,
	writeTriggerPosition,
	type TriggerStores,
} from './saved/storage';
import type { TriggerSettings } from './triggerSettings';

/** One quick retry inside a poll; a poll that still fails is tried again at the next tick. */
export const FETCH_ATTEMPTS = 2;

export interface PollTiming {
	startedAt: number;
	/** When no further form is started: one started later could not finish within the poll budget. */
	startFormsBefore: number | undefined;
	/** When emitting stops, leaving the rest to the next poll. */
	stopEmittingAt: number | undefined;
	fetchOptions: WebServiceCallOptions;
}

/** One poll over the forms watched, each read apart; nothing is saved when it ends in an error. */
export async function pollWatchedForms(
	context: IPollFunctions,
	settings: TriggerSettings,
	timing: PollTiming,
	triggerKey: string,
): Promise<INodeExecutionData[][] | null> {
	const node = context.getNode();
	const stores: TriggerStores = {
		node: context.getWorkflowStaticData('node'),
		workflow: context.getWorkflowStaticData('global'),
	};
	const scope = positionScope(settings.appId, settings.mode);
	const positionAtStart = storedPosition(node.id, stores);
	const staged = hasDurablePollCursors(stores.node);
	// Only a staged copy is handed over (durable poll cursors): its fingerprint, a pass over the whole position, serves nothing else.
	const startedFrom = staged ? positionFingerprint(positionAtStart) : undefined;
	if (startedFrom !== undefined && awaitsHandOff(triggerKey, startedFrom, Date.now())) {
		context.logger.info(
			'App Builder Trigger skipped a poll: n8n has not yet stored the position the previous poll of this trigger handed over; the next poll emits the new inquiries',
			logContext(context),
		);
		return null;
	}
	adoptOwnerless(node.id, stores);
	const saved = sameScope(readPosition(context, stores), scope);
	const pageId = settings.pageId;
	const fetchOptions = { ...timing.fetchOptions, retry: { maxAttempts: FETCH_ATTEMPTS } };
	const watch = new Watch(saved, settings, timing.startedAt);

	let forms: AppForm[];
	if (pageId === undefined) {
		let listed: AppForm[];
		try {
			listed = await fetchAppForms(context, settings.appId, fetchOptions);
		} catch (error) {
			// Until a poll saved when the watch began, a failure is shown as the user sets up.
			if (!watch.begun) throw asNodeError(node, error);
			const failure = { error, what: "the app's list of forms", cause: 'list' };
			reportFailures(context, triggerKey, settings, { failures: [failure], read: [] });
			return null;
		}
		forms = formsRead(listed);
		reportFormsBeyond(context, triggerKey, listed.length);
	} else {
		forms = [{ pageId, pageName: pageId }];
	}

	const plan = new PollPlanner({
		saved,
		scope,
		listed: forms.map((form) => form.pageId),
		watch,
		cursorOptions: {
			mode: settings.mode,
			firstPoll: settings.firstPoll,
			maxItems: settings.maxItems,
			nowMs: Date.now(),
		},
		quiet: settings.quiet,
		timeZone: context.getTimezone(),
		nowMs: timing.startedAt,
	});
	const reads = await readForms(
		plan.formsToRead(),
		async ({ pageId: form, keep, toEmit }) =>
			await fetchInquiryList(
				context,
				{ appId: settings.appId, pageId: form },
				{ mode: settings.mode, keep, toEmit },
				fetchOptions,
			),
		{ concurrency: FORM_CONCURRENCY, startBefore: timing.startFormsBefore },
	);

	const formsById = new Map(forms.map((form) => [form.pageId, form]));
	const lists = new Map<string, InquiryList>();
	const outcomes: FormOutcome[] = [];
	const failures: Failure[] = [];
	for (const read of reads) {
		const form = formsById.get(read.form.pageId) as AppForm;
		if (read.kind === 'failed') {
			// One form watched: before the watch began the user is still setting up, so show the error.
			if (pageId !== undefined && !watch.begun) throw asNodeError(node, read.error);
			failures.push({
				error: read.error,
				what: pageId === undefined ? `form ${formLabel(form)}` : 'the inquiries',
				cause: `form:${form.pageId}`,
				form: pageId === undefined ? form : undefined,
			});
		} else if (read.kind === 'read') {
			lists.set(form.pageId, read.list);
		}
		outcomes.push({
			pageId: form.pageId,
			events: read.kind === 'read' ? read.list.events : read.kind,
		});
	}
	const read = [...lists.keys()].map((form) => `form:${form}`);
	reportFailures(context, triggerKey, settings, {
		failures,
		read: pageId === undefined ? ['list', ...read] : read,
		listed: pageId === undefined ? new Set(formsById.keys()) : undefined,
	});
	const { emissions, unresolvedUndated, quietSpells, commit } = plan.plan(outcomes);
	reportUnresolvedUndated(context, triggerKey, settings, {
		forms: unresolvedUndated
			.filter(({ count }) => count > 0)
			.map(({ pageId: form, count }) => ({
				count,
				label: pageId === undefined ? formLabel(formsById.get(form) as AppForm) : undefined,
			})),
		nothingToEmit: emissions.length === 0,
	});

	const items: INodeExecutionData[] = [];
	for (const { pageId: form, event } of emissions) {
		if (
			timing.stopEmittingAt !== undefined &&
			items.length > 0 &&
			Date.now() > timing.stopEmittingAt
		)
			break;
		const record = (lists.get(form) as InquiryList).recordOf(event.key);
		// Only in an answer read again: the inquiry was deleted meanwhile, or the rest is past what a poll holds.
		if (record === undefined) break;
		const item = inquiryItem(record, settings.simplify);
		items.push({
			json: pageId === undefined ? withItsForm(item, formsById.get(form) as AppForm) : item,
		});
	}

	// Not one form read: like any failed poll this saves nothing, unless it begins or changes the watch.
	if (lists.size === 0 && failures.length > 0 && !watch.changes) return null;
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
	// Reported once the position that records the spell is saved: once per spell.
	reportQuietForms(
		context,
		settings,
		quietSpells.map(({ pageId: quietForm, spell, away }) => {
			const form = formsById.get(quietForm);
			return { label: form ? formLabel(form) : quietForm, spell, away };
		}),
	);
	return items.length > 0 ? [items] : null;
}

function readPosition(context: IPollFunctions, stores: TriggerStores): TriggerPosition | undefined {
	try {
		return readTriggerPosition(context.getNode().id, stores, Date.now());
	} catch (error) {
		if (!(error instanceof UnusablePosition)) throw asNodeError(context.getNode(), error);
		throw new NodeOperationError(context.getNode(), error.message, {
			description: error.description,
		});
	}
}

/** Another app or event starts over. */
function sameScope(
	position: TriggerPosition | undefined,
	scope: string,
): TriggerPosition | undefined {
	return position?.scope === scope ? position : undefined;
}
