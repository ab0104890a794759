import type { INodeProperties, IPollFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import {
	appIdField,
	formPageField,
	formsChoiceField,
	readAppId,
	readFormTarget,
} from '../descriptions/appAndForm';
import { OPTIONS, optionsCollection } from '../descriptions/optionsCollection';
import { simplifyField } from '../descriptions/simplify';
import { readTimeoutMs, timeoutOption } from '../descriptions/timeoutOption';
import { choices, type ChoiceProperty } from '../parameters/choices';
import {
	booleanFrom,
	dateFrom,
	positiveNumberFrom,
	wholeNumberFrom,
	type Checked,
} from '../parameters/parameterValues';
import { choiceFieldOf, fieldOf, readChoice, readParameter } from '../parameters/readParameter';
import type { QuietRule } from './quiet/formRhythm';
import { MAX_FIRST_POLL_COUNT } from './cursor/cursor';
import type { FirstPoll } from './plan/watchChange';
import type { Watched } from './saved/position';

// The trigger's parameters, each declared once: the editor shows these, and the reader below takes
// each one's label, path and default from its declaration, so an error names the field as shown.

const EVENT = {
	displayName: 'Event',
	name: 'event',
	type: 'options',
	default: 'new',
	options: choices([
		{
			name: 'New Lead',
			value: 'new',
			description: 'Each lead (form inquiry) starts the workflow once, when it is submitted',
		},
		{
			name: 'New or Updated Lead',
			value: 'newOrUpdated',
			description: 'Also starts the workflow again each time the lead is changed in App Builder',
		},
	]),
} satisfies INodeProperties;

const WATCH = formsChoiceField(
	'watch',
	'Watch',
	'Every form of the app, forms added later included; each lead names the form it came from',
);

const FIRST_POLL = {
	displayName: 'On First Check',
	name: 'firstPoll',
	type: 'options',
	default: 'none',
	description:
		'What to do with the leads already in the form when the workflow is published. Old leads run through every step, emails included.',
	options: choices([
		{
			name: 'Only New Leads',
			value: 'none',
			description: 'Start with the leads that arrive from now on',
		},
		{
			name: 'Send the Latest Leads',
			value: 'latest',
			description: 'Also send the latest few leads already there (with All Forms, of each form)',
		},
		{
			name: 'Send Leads Since a Date',
			value: 'since',
			description: 'Also send every lead submitted since the date in Since, oldest first',
		},
	]),
} satisfies INodeProperties;

const FIRST_POLL_SINCE = {
	displayName: 'Since',
	name: 'firstPollSince',
	type: 'dateTime',
	default: '',
	displayOptions: { show: { firstPoll: ['since'] } },
	description:
		"Send every lead submitted from this date and time on, read in the workflow's time zone (Workflow Settings > Timezone)",
} satisfies INodeProperties;

const FIRST_POLL_COUNT = {
	displayName: 'Latest Count',
	name: 'firstPollCount',
	type: 'number',
	typeOptions: { minValue: 1, maxValue: MAX_FIRST_POLL_COUNT },
	default: 5,
	displayOptions: { show: { firstPoll: ['latest'] } },
	description: 'How many of the latest leads of each form to send when the workflow is published',
} satisfies INodeProperties;

const MAX_ITEMS_PER_POLL = {
	displayName: 'Max Leads per Check',
	name: 'maxItemsPerPoll',
	type: 'number',
	typeOptions: { minValue: 1 },
	default: 500,
	description: 'A larger backlog is spread over the next checks, oldest first; nothing is skipped',
} satisfies INodeProperties;

const ERROR_AFTER_POLLS = {
	displayName: 'Error After Failed Checks',
	name: 'errorAfterPolls',
	type: 'number',
	typeOptions: { minValue: 1 },
	default: 3,
	description:
		'Report an error (to the Error Workflow of Workflow Settings) once this many checks in a row fail, for at least Error After Minutes',
} satisfies INodeProperties;

const ERROR_AFTER_MINUTES = {
	displayName: 'Error After Minutes',
	name: 'errorAfterMinutes',
	type: 'number',
	typeOptions: { minValue: 0 },
	default: 15,
	description: `Report an error only once checks have been failing for this long, and at least ${ERROR_AFTER_POLLS.displayName} times (both must be reached)`,
} satisfies INodeProperties;

const QUIET_ALERT = {
	displayName: 'Alert When Quiet',
	name: 'quietAlert',
	type: 'options',
	default: 'off',
	description:
		'Warn once when a form gets no new lead for too long, as a failed run that starts the Error Workflow of Workflow Settings. Leads still come through.',
	options: choices([
		{ name: 'Off', value: 'off' },
		{
			name: 'After a Fixed Time',
			value: 'fixed',
			description:
				'When no check has brought a form a new lead for Quiet Hours (with All Forms, each form on its own; a form with no lead yet is not judged)',
		},
		{
			name: 'When Unusually Quiet',
			value: 'unusual',
			description:
				"When even the quietest of a form's last four weeks brought about a dozen leads in the same hours of the week",
		},
	]),
} satisfies INodeProperties;

const QUIET_HOURS = {
	displayName: 'Quiet Hours',
	name: 'quietHours',
	type: 'number',
	typeOptions: { minValue: 0.01, numberPrecision: 2 },
	default: 24,
	displayOptions: { show: { quietAlert: ['fixed'] } },
	description: 'The hours without a new lead after which a form is reported',
} satisfies INodeProperties;
/** A year: a longer quiet is not an alert anyone waits for. */
const MAX_QUIET_HOURS = 24 * 366;

export const triggerProperties: INodeProperties[] = [
	{
		displayName:
			'The trigger checks for new leads at each Poll Time (every minute by default). Outages and quiet forms reach you only through an Error Workflow: set one in Workflow Settings.',
		name: 'notice',
		type: 'notice',
		default: '',
	},
	EVENT,
	appIdField,
	WATCH,
	{
		...formPageField,
		description: 'The form whose leads start the workflow',
		displayOptions: { show: { watch: ['form'] } },
	},
	simplifyField,
	optionsCollection([
		FIRST_POLL,
		FIRST_POLL_SINCE,
		FIRST_POLL_COUNT,
		MAX_ITEMS_PER_POLL,
		ERROR_AFTER_POLLS,
		ERROR_AFTER_MINUTES,
		QUIET_ALERT,
		QUIET_HOURS,
		{
			...timeoutOption,
			description:
				'How many seconds to wait for App Builder to answer; a check that waits longer is tried again at the next one, and no lead is lost',
		},
	]),
];

/** The trigger's parameters, read and checked once per poll; every problem names its field. */
export type TriggerSettings = ReturnType<typeof readTriggerSettings>;

export function readTriggerSettings(context: IPollFunctions) {
	const option = <T>(property: INodeProperties, check: (value: unknown) => Checked<T>) =>
		readParameter(context, fieldOf(property, OPTIONS), check);
	const choice = <T extends string>(property: ChoiceProperty<T>, within?: string): T =>
		readChoice(context, choiceFieldOf(property, within));
	const whole = (property: INodeProperties, max?: number, min = 1) =>
		option(property, (value) => wholeNumberFrom(value, { min, max }));

	const target = choice(WATCH) === 'form' ? readFormTarget(context) : undefined;
	const appId = target?.appId ?? readAppId(context);
	const watch: Watched = target ? { kind: 'one', pageId: target.pageId } : { kind: 'all' };

	const mode = choice(EVENT);
	const firstPollChoice = choice(FIRST_POLL, OPTIONS);
	let firstPoll: FirstPoll = { kind: 'none' };
	if (firstPollChoice === 'latest')
		firstPoll = { kind: 'latest', count: whole(FIRST_POLL_COUNT, MAX_FIRST_POLL_COUNT) };
	if (firstPollChoice === 'since') {
		const since = option(FIRST_POLL_SINCE, (value) => dateFrom(value, context.getTimezone()));
		firstPoll = { kind: 'since', sinceMs: sinceOf(context, since) };
	}

	const quietChoice = choice(QUIET_ALERT, OPTIONS);
	const hours = () => option(QUIET_HOURS, (value) => positiveNumberFrom(value, MAX_QUIET_HOURS));
	const quiet: QuietRule =
		quietChoice === 'fixed'
			? { kind: 'fixed', afterMs: hours() * 3_600_000 }
			: { kind: quietChoice };
	return {
		appId,
		watch,
		mode,
		simplify: readParameter(context, fieldOf(simplifyField), booleanFrom),
		firstPoll,
		maxItems: whole(MAX_ITEMS_PER_POLL),
		answerTimeoutMs: readTimeoutMs(context),
		reporting: {
			afterPolls: whole(ERROR_AFTER_POLLS),
			afterMs: whole(ERROR_AFTER_MINUTES, undefined, 0) * 60_000,
		},
		quiet,
		// Alert When Quiet judges the hours of the week in the workflow's time zone.
		timeZone: context.getTimezone(),
	};
}

/** Since, given: empty or in the future is refused, so that every form starts alike. */
function sinceOf(context: IPollFunctions, sinceMs: number | undefined): number {
	const node = context.getNode();
	if (sinceMs === undefined) {
		throw new NodeOperationError(
			node,
			`${FIRST_POLL.displayName} is "Send Leads Since a Date", but Since is empty`,
			{
				description:
					'Set Options > Since to the date and time from which inquiries are emitted on the first poll, such as 2026-01-31T09:00:00Z.',
			},
		);
	}
	// A first poll would emit nothing until then, and forms read later would not wait for it.
	if (sinceMs > Date.now()) {
		throw new NodeOperationError(node, 'Since is in the future', {
			description: `${FIRST_POLL.displayName} is "Send Leads Since a Date" and Options > Since is ${new Date(sinceMs).toISOString()}, which has not come yet. Set Since to a moment in the past (inquiries submitted from then on are emitted once), or set ${FIRST_POLL.displayName} to Only New Leads to start with the inquiries that arrive from now on.`,
		});
	}
	return sinceMs;
}
