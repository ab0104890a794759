import type { INode, IPollFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { validateAppId, validateFormTarget } from '../descriptions/appAndForm';
import { DEFAULT_TIMEOUT_SECONDS, timeoutMsFrom } from '../descriptions/timeoutOption';
import {
	choiceFrom,
	dateFrom,
	positiveNumberFrom,
	wholeNumberFrom,
} from '../parameters/parameterValues';
import { checkedParameter, type ParameterField } from '../parameters/readParameter';
import type { QuietRule } from './quiet/formRhythm';
import { MAX_FIRST_POLL_COUNT, type EventMode, type FirstPoll } from './cursor/cursor';
import {
	DEFAULT_ERROR_AFTER_MINUTES,
	DEFAULT_ERROR_AFTER_POLLS,
	type FailureReporting,
} from './inProcess/triggerMemory';

export const DEFAULT_FIRST_POLL_COUNT = 5;
export const DEFAULT_MAX_ITEMS_PER_POLL = 500;

export type Watch = 'form' | 'allForms';

/** The trigger's parameters, read and checked once per poll; every problem names its field. */
export interface TriggerSettings {
	appId: string;
	/** The one form watched; undefined when every form of the app is. */
	pageId: string | undefined;
	mode: EventMode;
	simplify: boolean;
	firstPoll: FirstPoll;
	maxItems: number;
	answerTimeoutMs: number;
	reporting: FailureReporting;
	quiet: QuietRule;
}

const WATCH: ParameterField = { label: 'Watch', path: 'watch' };
const EVENT: ParameterField = { label: 'Event', path: 'event' };
const FIRST_POLL: ParameterField = { label: 'On First Poll', path: 'options.firstPoll' };
const FIRST_POLL_COUNT: ParameterField = { label: 'Latest Count', path: 'options.firstPollCount' };
const FIRST_POLL_SINCE: ParameterField = { label: 'Since', path: 'options.firstPollSince' };
const MAX_ITEMS_PER_POLL: ParameterField = {
	label: 'Max Inquiries per Poll',
	path: 'options.maxItemsPerPoll',
};
const ERROR_AFTER_POLLS: ParameterField = {
	label: 'Error After Failed Polls',
	path: 'options.errorAfterPolls',
};
const QUIET_ALERT: ParameterField = { label: 'Alert When Quiet', path: 'options.quietAlert' };
const QUIET_HOURS: ParameterField = { label: 'Quiet Hours', path: 'options.quietHours' };
export const DEFAULT_QUIET_HOURS = 24;
/** A year: a longer quiet is not an alert anyone waits for. */
const MAX_QUIET_HOURS = 24 * 366;
const ERROR_AFTER_MINUTES: ParameterField = {
	label: 'Error After Minutes',
	path: 'options.errorAfterMinutes',
};

/** The poll's context and its node, read once: n8n hands out a copy of the node on every getNode(). */
interface Reading {
	context: IPollFunctions;
	node: INode;
}

export function readTriggerSettings(context: IPollFunctions): TriggerSettings {
	const node = context.getNode();
	const reading: Reading = { context, node };
	const watch = choiceOption(reading, WATCH, ['form', 'allForms'] as const);
	let appId: string;
	let pageId: string | undefined;
	if (watch === 'form') {
		({ appId, pageId } = validateFormTarget(
			node,
			context.getNodeParameter('appId', ''),
			context.getNodeParameter('pageId', '', { extractValue: true }),
		));
	} else {
		appId = validateAppId(node, context.getNodeParameter('appId', ''));
	}
	const mode = choiceOption(reading, EVENT, ['new', 'newOrUpdated'] as const);
	const firstPollChoice = choiceOption(reading, FIRST_POLL, ['none', 'latest', 'since'] as const);
	const quietChoice = choiceOption(reading, QUIET_ALERT, ['off', 'fixed', 'unusual'] as const);
	return {
		appId,
		pageId,
		mode,
		simplify: context.getNodeParameter('simplify', true) as boolean,
		firstPoll: firstPollOf(reading, firstPollChoice),
		maxItems: wholeOption(reading, MAX_ITEMS_PER_POLL, DEFAULT_MAX_ITEMS_PER_POLL),
		answerTimeoutMs: timeoutMsFrom(
			node,
			context.getNodeParameter('options.timeout', DEFAULT_TIMEOUT_SECONDS),
		),
		reporting: {
			afterPolls: wholeOption(reading, ERROR_AFTER_POLLS, DEFAULT_ERROR_AFTER_POLLS),
			afterMs:
				wholeOption(reading, ERROR_AFTER_MINUTES, DEFAULT_ERROR_AFTER_MINUTES, undefined, 0) *
				60_000,
		},
		quiet: quietRuleOf(reading, quietChoice),
	};
}

function firstPollOf(reading: Reading, choice: 'none' | 'latest' | 'since'): FirstPoll {
	const { context, node } = reading;
	if (choice === 'latest')
		return {
			kind: 'latest',
			count: wholeOption(reading, FIRST_POLL_COUNT, DEFAULT_FIRST_POLL_COUNT, MAX_FIRST_POLL_COUNT),
		};
	if (choice === 'none') return { kind: 'none' };
	const sinceMs = checkedParameter(
		node,
		FIRST_POLL_SINCE,
		dateFrom(context.getNodeParameter(FIRST_POLL_SINCE.path, ''), context.getTimezone()),
	);
	if (sinceMs === undefined) {
		throw new NodeOperationError(
			node,
			'On First Poll is "Send Leads Since a Date", but Since is empty',
			{
				description:
					'Set Options > Since to the date and time from which inquiries are emitted on the first poll, such as 2026-01-31T09:00:00Z.',
			},
		);
	}
	// A first poll would emit nothing until then, and forms read later would not wait for it: refused, so every form starts alike.
	if (sinceMs > Date.now()) {
		throw new NodeOperationError(node, 'Since is in the future', {
			description: `On First Poll is "Send Leads Since a Date" and Options > Since is ${new Date(sinceMs).toISOString()}, which has not come yet. Set Since to a moment in the past (inquiries submitted from then on are emitted once), or set On First Poll to Only New Leads to start with the inquiries that arrive from now on.`,
		});
	}
	return { kind: 'since', sinceMs };
}

function quietRuleOf({ context, node }: Reading, choice: QuietRule['kind']): QuietRule {
	if (choice !== 'fixed') return { kind: choice };
	const value = context.getNodeParameter(QUIET_HOURS.path, DEFAULT_QUIET_HOURS);
	const hours = checkedParameter(node, QUIET_HOURS, positiveNumberFrom(value, MAX_QUIET_HOURS));
	return { kind: 'fixed', afterMs: hours * 3_600_000 };
}

/** One of `choices`, the first by default; any other value is an error naming the field. */
function choiceOption<T extends string>(
	{ context, node }: Reading,
	field: ParameterField,
	choices: readonly [T, ...T[]],
): T {
	const value = context.getNodeParameter(field.path, choices[0]);
	return checkedParameter(node, field, choiceFrom(value, choices));
}

/** A whole-number option; from an expression, NaN or 2.5 is an error rather than clamped into something else. */
function wholeOption(
	{ context, node }: Reading,
	field: ParameterField,
	fallback: number,
	max?: number,
	min = 1,
): number {
	const value = context.getNodeParameter(field.path, fallback);
	return checkedParameter(node, field, wholeNumberFrom(value, { min, max }));
}
