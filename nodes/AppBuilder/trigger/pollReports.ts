import type { IPollFunctions, NodeApiError } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { withoutFinalDots } from '../../shared/text/sentence';
import { durationText, momentText } from '../../shared/text/timeText';
import { asNodeError } from '../parameters/asNodeError';
import type { AppForm } from '../transport/appForms';
import { UNDATED_CHANGES_TOLD_APART } from './cursor/undatedTable';
import {
	recordFailedPoll,
	recordSucceededPoll,
	type FailureStreak,
} from './inProcess/triggerMemory';
import type { QuietSpell } from './quiet/formRhythm';
import type { TriggerSettings } from './triggerSettings';

/**
 * What a poll tells the user beyond its items: a failure, logged and thrown
 * once it lasts (docs/trigger.md, "A poll that keeps failing"), and undated
 * inquiries its cursor cannot tell apart.
 */
export interface Failure {
	error: unknown;
	/** What could not be read, for the log and the report. */
	what: string;
	form?: AppForm;
}

/** What every log line of the trigger carries, so an admin finds the workflow and node it speaks of. */
export function logContext(context: IPollFunctions): {
	workflowId: string | undefined;
	node: string;
} {
	return { workflowId: context.getWorkflow().id, node: context.getNode().name };
}

/** A poll's failures, whatever failed, are one failure of the trigger; a poll without failures ends the streak. */
export function reportFailures(
	context: IPollFunctions,
	triggerKey: string,
	settings: TriggerSettings,
	failures: readonly Failure[],
): void {
	// Built only for a line logged: n8n hands out a copy of the node on every getNode().
	const where = () => logContext(context);
	if (failures.length === 0) {
		const recovered = recordSucceededPoll(triggerKey, 'reads', Date.now());
		if (recovered === undefined) return;
		context.logger.info(
			`App Builder Trigger reads every form it watches again after ${recovered.polls} failed ${recovered.polls === 1 ? 'poll' : 'polls'}; the inquiries that waited are emitted now`,
			where(),
		);
		return;
	}
	const first = asNodeError(context.getNode(), failures[0].error);
	const streak = recordFailedPoll(triggerKey, 'reads', Date.now(), settings.reporting);
	if (streak.report) throw lastingFailure(first, streak, failures);
	const what = failures.map((failure) => failure.what).join(', ');
	const polls = `${streak.polls} failed ${streak.polls === 1 ? 'poll' : 'polls in a row'}`;
	context.logger.error(
		`App Builder Trigger could not read ${what} (${polls}): ${withoutFinalDots(first.message)}. Nothing was lost; the next poll tries again.`,
		where(),
	);
}

/** The error a poll throws once a failure has lasted: n8n records it and runs the error workflow. */
function lastingFailure(
	error: NodeApiError | NodeOperationError,
	streak: FailureStreak,
	failures: readonly Failure[],
): NodeApiError | NodeOperationError {
	const minutes = Math.max(1, Math.round((Date.now() - streak.since) / 60_000));
	const which = failures.map((failure) => failure.what).join(', ');
	const others = failures.some((failure) => failure.form !== undefined)
		? " The app's other forms are read as usual; their new inquiries come with the next poll."
		: '';
	const lasting = `The trigger has not been able to read ${which} for ${minutes} ${minutes === 1 ? 'minute' : 'minutes'} (${streak.polls} polls in a row). No lead is lost: when the API answers again, every inquiry submitted meanwhile is emitted once. This error is reported once; the trigger keeps polling.${others}`;
	error.description = error.description ? `${lasting} ${error.description}` : lasting;
	return error;
}

/**
 * Undated inquiries a form's cursor cannot tell apart wait: logged on every
 * poll and, once it lasts as a failure would, thrown once by a poll with
 * nothing to emit, so nothing is lost by throwing.
 */
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
			description: `It tells apart up to about ${UNDATED_CHANGES_TOLD_APART} such changes (new, deleted, or given a submission time) between two polls. Inquiries with a submission time are emitted as usual and nothing is emitted twice; new inquiries without one wait. Some of it resolves as later polls read more, or when fewer change between polls. If it lasts (hundreds deleted or imported at once), start over: duplicate this trigger node, connect the copy in its place and delete the original (the copy begins with a first poll; App Builder > Get Many Inquiries lists the inquiries that waited). This error is reported once.`,
		});
	}
	context.logger.warn(`${problem}; new ones without a submission time wait`, logContext(context));
}

/**
 * Forms quiet past Alert When Quiet, reported once per spell as a lasting
 * failure is (a failed execution, the error workflow), without failing the
 * poll: its leads are emitted and its position saved as usual. No failure
 * cause is set: none of n8n's fits a form that stopped sending, and one
 * would make n8n's scheduler back off the polls.
 */
export function reportQuietForms(
	context: IPollFunctions,
	settings: TriggerSettings,
	quiet: ReadonlyArray<{ label: string; spell: QuietSpell; away: boolean }>,
): void {
	if (quiet.length === 0) return;
	const node = context.getNode();
	const fixed = settings.quiet.kind === 'fixed';
	const named = quiet.map(
		({ label, spell }) => `${label ?? 'The form'} (${durationText(spell.quietMs)})`,
	);
	const message =
		quiet.length === 1
			? `Form ${quiet[0].label} has had no new lead for ${durationText(quiet[0].spell.quietMs)}`
			: `${quiet.length} forms have had no new lead for too long: ${named.join(', ')}`;
	const details = quiet.map(({ label, spell, away }) => {
		const usual = fixed
			? `Alert When Quiet is set to ${durationText(spell.thresholdMs)}`
			: `it is usually never quiet for more than ${durationText(spell.usualMs)} (its longest gap of the last four weeks), and is reported after ${durationText(spell.thresholdMs)}`;
		const gone = away
			? " It is no longer in the app's list of forms: it may have been unpublished or deleted."
			: '';
		return `${label}: its last lead came ${momentText(spell.last, context.getTimezone())}; ${usual}.${gone}`;
	});
	const error = new NodeOperationError(node, message, {
		description: `${details.join(' ')} Check that the form still works in the app (a field made required, the page unpublished, the submit button). This is reported once; the next lead ends the quiet spell. No lead is lost: the trigger keeps polling and emits every lead as usual.`,
	});
	// n8n's poll context reports an error without failing the poll (a failed execution, the error workflow).
	if (typeof context.__emitError === 'function') context.__emitError(error);
	else context.logger.error(`${message}. ${error.description ?? ''}`, logContext(context));
}
