import type { IPollFunctions, NodeApiError } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { withoutFinalDots } from '../../shared/text/sentence';
import { momentText } from '../../shared/text/timeText';
import { MAX_FORMS_READ } from '../acrossForms/readForms';
import { asNodeError } from '../transport/asNodeError';
import type { AppForm } from '../transport/appForms';
import { CHANGES_TOLD_APART } from './cursor/keySetTable';
import { isCredentialError } from '../transport/failureCause';
import { recordFailedPoll, recordSucceededPoll, type FailureStreak } from './triggerMemory';
import { quietAlertText, type QuietForm } from './quiet/quietAlert';
import type { TriggerSettings } from './triggerSettings';

// What a poll tells the user beyond its items: failures, logged and thrown once they last (docs/trigger.md,
// "A check that keeps failing"), undated inquiries its cursor cannot tell apart, quiet forms, forms past the limit.

export interface Failure {
	error: unknown;
	/** What could not be read, for the log and the report. */
	what: string;
	/** Its streak: 'list', or 'form:' and the page ID (a rejected credential is one cause, whatever failed). */
	cause: string;
	form?: AppForm;
}

/** One streak for a rejected access token or API key: every call fails alike, the list's and each form's. */
const CREDENTIAL_CAUSE = 'credential';

/** What every log line of the trigger carries, so an admin finds the workflow and node it speaks of. */
export function logContext(context: IPollFunctions) {
	return { workflowId: context.getWorkflow().id, node: context.getNode().name };
}

/** Each cause of failure is a streak of its own, reported once (ARCHITECTURE.md, "Watching every form"). */
export function reportFailures(
	context: IPollFunctions,
	triggerKey: string,
	settings: TriggerSettings,
	poll: { failures: readonly Failure[]; read: readonly string[] },
): void {
	const now = Date.now();
	const failing = new Map<string, Failure[]>();
	for (const failure of poll.failures) {
		const cause = isCredentialError(failure.error) ? CREDENTIAL_CAUSE : failure.cause;
		failing.set(cause, [...(failing.get(cause) ?? []), failure]);
	}
	for (const cause of poll.read.length > 0 ? [...poll.read, CREDENTIAL_CAUSE] : []) {
		const recovered = failing.has(cause)
			? undefined
			: recordSucceededPoll(triggerKey, `read:${cause}`, now);
		if (recovered === undefined) continue;
		context.logger.info(
			`App Builder Trigger reads ${causeText(cause)} again after ${recovered.polls} failed ${recovered.polls === 1 ? 'poll' : 'polls'}; the inquiries that waited are emitted now`,
			logContext(context),
		);
	}
	if (failing.size === 0) return;
	const due: Array<{ failures: Failure[]; streak: FailureStreak }> = [];
	let longest = 0;
	for (const [cause, failures] of failing) {
		const streak = recordFailedPoll(triggerKey, `read:${cause}`, now, settings.reporting);
		longest = Math.max(longest, streak.polls);
		if (streak.report) due.push({ failures, streak });
	}
	if (due.length > 0) throw lastingFailure(context, due);
	const first = asNodeError(context.getNode(), poll.failures[0].error);
	const what = poll.failures.map((failure) => failure.what).join(', ');
	const polls = `${longest} failed ${longest === 1 ? 'poll' : 'polls in a row'}`;
	context.logger.error(
		`App Builder Trigger could not read ${what} (${polls}): ${withoutFinalDots(first.message)}. Nothing was lost; the next poll tries again.`,
		logContext(context),
	);
}

function causeText(cause: string): string {
	if (cause === CREDENTIAL_CAUSE) return 'with its credential';
	return cause === 'list' ? "the app's list of forms" : `form ${cause.slice(5)}`;
}

/** The error a poll throws once failures have lasted: n8n records it and runs the error workflow. */
function lastingFailure(
	context: IPollFunctions,
	due: ReadonlyArray<{ failures: readonly Failure[]; streak: FailureStreak }>,
): NodeApiError | NodeOperationError {
	const error = asNodeError(context.getNode(), due[0].failures[0].error);
	// Causes failing since the same poll are told together.
	const spells = new Map<string, string[]>();
	for (const { failures, streak } of due) {
		const minutes = Math.max(1, Math.round((Date.now() - streak.since) / 60_000));
		const spell = `for ${minutes} ${minutes === 1 ? 'minute' : 'minutes'} (${streak.polls} polls in a row), since the poll ${momentText(streak.since, context.getTimezone())}`;
		spells.set(spell, [...(spells.get(spell) ?? []), ...failures.map((failure) => failure.what)]);
	}
	const spelt = [...spells].map(([spell, whats]) => `${whats.join(', ')} ${spell}`);
	const others = due.some(({ failures }) => failures.some((failure) => failure.form))
		? " The app's other forms are read as usual; their new inquiries come with the next poll."
		: '';
	const lasting = `The trigger has not been able to read ${spelt.join('; nor ')}. No lead is lost: when the API answers again, every inquiry submitted meanwhile is emitted once. This error is reported once per outage; the trigger keeps polling.${others}`;
	// A copy: the first failure's own error (logged, and thrown before the watch began) stays as it was.
	const told = Object.defineProperties(
		Object.create(Object.getPrototypeOf(error) as object) as typeof error,
		Object.getOwnPropertyDescriptors(error),
	);
	told.description = error.description ? `${lasting} ${error.description}` : lasting;
	return told;
}

/** Undated inquiries the cursor cannot tell apart wait: logged, and once it lasts thrown by a poll with nothing to emit. */
export function reportUnresolvedUndated(
	context: IPollFunctions,
	triggerKey: string,
	settings: TriggerSettings,
	trouble: { forms: Array<{ count: number; label: string | undefined }>; nothingToEmit: boolean },
): void {
	if (trouble.forms.length === 0) {
		recordSucceededPoll(triggerKey, 'undated', Date.now());
		return;
	}
	const count = trouble.forms.reduce((sum, entry) => sum + entry.count, 0);
	const named = trouble.forms.flatMap((entry) => (entry.label === undefined ? [] : [entry.label]));
	const where =
		named.length === 0 ? '' : ` of ${named.length === 1 ? 'form' : 'forms'} ${named.join(', ')}`;
	const problem = `App Builder Trigger cannot tell which inquiries${where} without a submission time are new: about ${count} of them appeared or disappeared beyond what it tells apart between two polls`;
	const streak = trouble.nothingToEmit
		? recordFailedPoll(triggerKey, 'undated', Date.now(), settings.reporting)
		: undefined;
	if (streak?.report === true) {
		throw new NodeOperationError(context.getNode(), problem, {
			description: `It tells apart up to about ${CHANGES_TOLD_APART} such changes (new, deleted, or given a submission time) between two polls. Inquiries with a submission time are emitted as usual and nothing is emitted twice; new inquiries without one wait. Some of it resolves as later polls read more, or when fewer change between polls. If it lasts (hundreds deleted or imported at once), start over: duplicate this trigger node, connect the copy in its place and delete the original (the copy begins with a first poll; the App Builder node's Lead > Get Many lists the inquiries that waited). This error is reported once.`,
		});
	}
	context.logger.warn(`${problem}; new ones without a submission time wait`, logContext(context));
}

/** Quiet forms, reported beside the poll with no failure cause, which would make n8n's scheduler back off the polls. */
export function reportQuietForms(
	context: IPollFunctions,
	settings: TriggerSettings,
	quiet: readonly QuietForm[],
): void {
	if (quiet.length === 0) return;
	const { message, description } = quietAlertText(quiet, settings.quiet, context.getTimezone());
	reportBeside(context, new NodeOperationError(context.getNode(), message, { description }));
}

/** Reported without failing the poll: a failed execution and the error workflow, where n8n's context can. */
function reportBeside(context: IPollFunctions, error: NodeOperationError): void {
	if (typeof context.__emitError === 'function') context.__emitError(error);
	else context.logger.error(`${error.message}. ${error.description ?? ''}`, logContext(context));
}

/** An app that lists more forms than the trigger reads: said once, beside the poll, while it lasts. */
export function reportFormsBeyond(
	context: IPollFunctions,
	triggerKey: string,
	listed: number,
): void {
	const now = Date.now();
	if (listed <= MAX_FORMS_READ) {
		recordSucceededPoll(triggerKey, 'forms', now);
		return;
	}
	if (!recordFailedPoll(triggerKey, 'forms', now, { afterPolls: 1, afterMs: 0 }).report) return;
	const limit = MAX_FORMS_READ.toLocaleString('en');
	const error = new NodeOperationError(
		context.getNode(),
		`The app lists ${listed.toLocaleString('en')} forms; the trigger watches ${limit} of them`,
		{
			description: `It reads the last ${limit} forms of the app's list (the newest, where the app lists forms as they are added); the ${(listed - MAX_FORMS_READ).toLocaleString('en')} listed before them are not read, and their leads wait until they are among the last ${limit} again. Watch those forms with another App Builder Trigger set to Watch: One Form, or remove forms the app no longer uses. This is reported once; the trigger keeps polling.`,
		},
	);
	reportBeside(context, error);
}
