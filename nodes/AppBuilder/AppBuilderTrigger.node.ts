import type {
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
	IPollFunctions,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { appIdField, formPageField } from './descriptions/appAndForm';
import { simplifyField } from './descriptions/simplify';
import { timeoutOption } from './descriptions/timeoutOption';
import { appBuilderIcon } from './descriptions/nodeIdentity';
import { optionsCollection } from './descriptions/optionsCollection';
import { appBuilderMethods } from './methods/nodeMethods';
import { MAX_FIRST_POLL_COUNT } from './trigger/cursor/cursor';
import {
	DEFAULT_ERROR_AFTER_MINUTES,
	DEFAULT_ERROR_AFTER_POLLS,
} from './trigger/inProcess/triggerMemory';
import { pollInquiries } from './trigger/pollInquiries';
import {
	DEFAULT_FIRST_POLL_COUNT,
	DEFAULT_MAX_ITEMS_PER_POLL,
	DEFAULT_QUIET_HOURS,
} from './trigger/triggerSettings';

export class AppBuilderTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'App Builder Trigger',
		name: 'appBuilderTrigger',
		icon: appBuilderIcon,
		group: ['trigger'],
		version: 1,
		subtitle:
			'={{$parameter["event"] === "newOrUpdated" ? "New or Updated Inquiry" : "New Inquiry"}}',
		description: 'Starts the workflow when a form in your App Builder app receives an inquiry',
		defaults: { name: 'App Builder Trigger' },
		polling: true,
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: [
			{ name: 'appBuilderApi', required: true, testedBy: 'appBuilderApiCredentialTest' },
		],
		properties: [
			{
				displayName: 'Event',
				name: 'event',
				type: 'options',
				default: 'new',
				options: [
					{
						name: 'New Inquiry',
						value: 'new',
						description: 'Each inquiry starts the workflow once, when it is submitted',
					},
					{
						name: 'New or Updated Inquiry',
						value: 'newOrUpdated',
						description: "Also starts the workflow again when an inquiry's last-updated time moves",
					},
				],
			},
			appIdField,
			{
				displayName: 'Watch',
				name: 'watch',
				type: 'options',
				default: 'form',
				options: [
					{
						name: 'One Form',
						value: 'form',
						description: 'The inquiries of the form picked below',
					},
					{
						name: 'All Forms of the App',
						value: 'allForms',
						description:
							'Every form of the app, forms added later included; each item says which form it came from (pageId, formName)',
					},
				],
			},
			{
				...formPageField,
				description: 'The form whose inquiries start the workflow',
				displayOptions: { show: { watch: ['form'] } },
			},
			simplifyField,
			optionsCollection([
				{
					displayName: 'On First Poll',
					name: 'firstPoll',
					type: 'options',
					default: 'none',
					description:
						'What the first poll after activation (or after changing the form) emits; every inquiry after it is emitted once either way',
					options: [
						{
							name: 'Emit Nothing',
							value: 'none',
							description: 'Inquiries already in the form are not sent; only new ones are',
						},
						{
							name: 'Emit the Latest',
							value: 'latest',
							description:
								'Also send the latest few inquiries already in the form (with All Forms, in each form)',
						},
						{
							name: 'Emit Since a Date',
							value: 'since',
							description:
								'Also send every inquiry submitted at or after Since, oldest first (more than Max Inquiries per Poll follow on the next polls)',
						},
					],
				},
				{
					displayName: 'Since',
					name: 'firstPollSince',
					type: 'dateTime',
					default: '',
					description:
						"When On First Poll is Emit Since a Date: the first poll emits every inquiry submitted at or after this moment (not in the future), such as 2026-01-31T09:00:00 (read in the workflow's time zone) or 2026-01-31T09:00:00Z; n8n dates such as {{ $now.minus({ days: 7 }) }} work too",
				},
				{
					displayName: 'Latest Count',
					name: 'firstPollCount',
					type: 'number',
					typeOptions: { minValue: 1, maxValue: MAX_FIRST_POLL_COUNT },
					default: DEFAULT_FIRST_POLL_COUNT,
					description:
						'How many of the latest inquiries the first poll emits, when On First Poll is Emit the Latest',
				},
				{
					displayName: 'Max Inquiries per Poll',
					name: 'maxItemsPerPoll',
					type: 'number',
					typeOptions: { minValue: 1 },
					default: DEFAULT_MAX_ITEMS_PER_POLL,
					description:
						'A larger backlog is spread over the next polls, oldest first; nothing is skipped',
				},
				{
					displayName: 'Error After Failed Polls',
					name: 'errorAfterPolls',
					type: 'number',
					typeOptions: { minValue: 1 },
					default: DEFAULT_ERROR_AFTER_POLLS,
					description:
						"Once the trigger has worked, a failed poll is logged and tried again at the next poll. When this many polls in a row fail, and for at least Error After Minutes, the trigger reports an error once: n8n records a failed execution and runs the workflow's error workflow. No inquiry is lost either way.",
				},
				{
					displayName: 'Error After Minutes',
					name: 'errorAfterMinutes',
					type: 'number',
					typeOptions: { minValue: 0 },
					default: DEFAULT_ERROR_AFTER_MINUTES,
					description:
						'How long polls must keep failing before the trigger reports an error (see Error After Failed Polls)',
				},
				{
					displayName: 'Alert When Quiet',
					name: 'quietAlert',
					type: 'options',
					default: 'off',
					description:
						"Report a form that gets no new lead for too long, once per quiet spell: n8n records a failed execution and runs the workflow's error workflow (Workflow Settings > Error Workflow). Leads are emitted as usual either way.",
					options: [
						{ name: 'Off', value: 'off' },
						{
							name: 'After a Fixed Time',
							value: 'fixed',
							description:
								'When a form has had no new lead for Quiet Hours (with All Forms, each form on its own; a form with no lead yet is not judged)',
						},
						{
							name: 'When Unusually Quiet',
							value: 'unusual',
							description:
								'When a form is quiet twice as long as its longest gap of the last four weeks, and at least 2 hours; a form needs 10 leads going back over a week first',
						},
					],
				},
				{
					displayName: 'Quiet Hours',
					name: 'quietHours',
					type: 'number',
					typeOptions: { minValue: 0.01, numberPrecision: 2 },
					default: DEFAULT_QUIET_HOURS,
					description:
						'When Alert When Quiet is After a Fixed Time: the hours without a new lead after which a form is reported',
				},
				{
					...timeoutOption,
					description:
						"Seconds the answer of the App Builder API may take to arrive in full (n8n's own poll time limit, when shorter, applies instead); a poll that runs out of time saves nothing and is tried again next poll",
				},
			]),
		],
	};

	methods = appBuilderMethods;

	async poll(this: IPollFunctions): Promise<INodeExecutionData[][] | null> {
		return await pollInquiries.call(this);
	}
}
