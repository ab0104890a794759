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
						description:
							'Also starts the workflow again when the inquiry is changed in App Builder (its updatedon time changes)',
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
						'What to do with the leads already in the form when the workflow is activated. Old leads run through every step, emails included.',
					options: [
						{
							name: 'Only New Leads',
							value: 'none',
							description: 'Start with the leads that arrive from now on',
						},
						{
							name: 'Send the Latest Leads',
							value: 'latest',
							description:
								'Also send the latest few leads already there (with All Forms, of each form)',
						},
						{
							name: 'Send Leads Since a Date',
							value: 'since',
							description: 'Also send every lead submitted since the date in Since, oldest first',
						},
					],
				},
				{
					displayName: 'Since',
					name: 'firstPollSince',
					type: 'dateTime',
					default: '',
					description:
						'For Send Leads Since a Date: send every lead from this moment on, such as 2026-01-31T09:00:00 or {{ $now.minus({ days: 7 }) }}',
				},
				{
					displayName: 'Latest Count',
					name: 'firstPollCount',
					type: 'number',
					typeOptions: { minValue: 1, maxValue: MAX_FIRST_POLL_COUNT },
					default: DEFAULT_FIRST_POLL_COUNT,
					description:
						'How many of the latest inquiries the first poll emits, when On First Poll is Send the Latest Leads',
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
						'Report an error (to the Error Workflow of Workflow Settings) once this many polls in a row fail, for at least Error After Minutes',
				},
				{
					displayName: 'Error After Minutes',
					name: 'errorAfterMinutes',
					type: 'number',
					typeOptions: { minValue: 0 },
					default: DEFAULT_ERROR_AFTER_MINUTES,
					description:
						'Report an error only once polls have been failing for this long, and at least Error After Failed Polls times (both must be reached)',
				},
				{
					displayName: 'Alert When Quiet',
					name: 'quietAlert',
					type: 'options',
					default: 'off',
					description:
						'Warn once when a form gets no new lead for too long, through the Error Workflow of Workflow Settings. Leads still come through as usual.',
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
								'When a form is quiet twice as long as its longest quiet of the last four weeks (at least 2 hours); needs 10 leads over more than a week first',
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
						'How many seconds to wait for App Builder to answer; a poll that waits longer is tried again at the next poll, and no lead is lost',
				},
			]),
		],
	};

	methods = appBuilderMethods;

	async poll(this: IPollFunctions): Promise<INodeExecutionData[][] | null> {
		return await pollInquiries.call(this);
	}
}
