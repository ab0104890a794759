import type { ItemCall } from '../resource';
import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import type { FormTarget } from '../../../shared/appBuilderApi';
import type { ValueRedactor } from '../../../shared/text/redact';
import {
	appIdField,
	formPageField,
	validateAppId,
	validateFormTarget,
} from '../../descriptions/appAndForm';
import { simplifyField } from '../../descriptions/simplify';
import { inquiryItem } from '../../inquiries/inquiryItem';
import { inquiryAnswerReader } from '../../inquiries/readInquiryStream';
import { booleanFrom, dateFrom, wholeNumberFrom } from '../../parameters/parameterValues';
import {
	fieldIn,
	fieldOf,
	readChoice,
	readParameter,
	type ParameterField,
} from '../../parameters/readParameter';
import { fetchFormInquiries } from '../../transport/formInquiries';
import { readAcrossForms } from './getManyAcrossForms';
import { selectFromRecords, SelectedInquiries } from './getManyReader';
import type { InquirySelection } from './inquirySelector';

/** Get Many's default Limit when the node runs as an AI agent's tool (n8n's "App Builder Tool"). */
export const TOOL_DEFAULT_LIMIT = 20;

const limitField: INodeProperties = {
	displayName: 'Limit',
	name: 'limit',
	type: 'number',
	typeOptions: { minValue: 1 },
	default: 50,
	description: 'Max number of results to return',
	// '@tool' is true when n8n runs the node as a tool (its type name then ends in "Tool").
	displayOptions: { show: { returnAll: [false], '@tool': [false] } },
};

const readFromField: INodeProperties = {
	displayName: 'Read From',
	name: 'readFrom',
	type: 'options',
	default: 'form',
	options: [
		{ name: 'One Form', value: 'form', description: 'The inquiries of the form picked below' },
		{
			name: 'All Forms of the App',
			value: 'allForms',
			description:
				'Every form the app lists; Sort and Limit apply across forms, and each item says its form (pageId, formName)',
		},
	],
};

const returnAllField: INodeProperties = {
	displayName: 'Return All',
	name: 'returnAll',
	type: 'boolean',
	default: false,
	description: 'Whether to return all results or only up to a given limit',
};

const filtersField: INodeProperties = {
	displayName: 'Filters',
	name: 'filters',
	type: 'collection',
	placeholder: 'Add Filter',
	default: {},
	options: [
		{
			displayName: 'Read Status',
			name: 'readStatus',
			type: 'options',
			default: 'any',
			options: [
				{ name: 'Any', value: 'any' },
				{ name: 'Read', value: 'read' },
				{ name: 'Unread', value: 'unread' },
			],
		},
		{
			displayName: 'Sort',
			name: 'sort',
			type: 'options',
			default: 'newestFirst',
			options: [
				{ name: 'Newest First', value: 'newestFirst' },
				{ name: 'Oldest First', value: 'oldestFirst' },
			],
		},
		{
			displayName: 'Submitted After',
			name: 'submittedAfter',
			type: 'dateTime',
			default: '',
			description:
				"Only inquiries submitted after this moment, such as 2026-01-31T09:00:00 (in the workflow's time zone) or {{ $now.minus({ days: 1 }) }}",
		},
		{
			displayName: 'Submitted Before',
			name: 'submittedBefore',
			type: 'dateTime',
			default: '',
			description:
				"Only inquiries submitted before this moment, such as 2026-01-31T09:00:00 (in the workflow's time zone) or {{ $today }}",
		},
	],
};

const properties: INodeProperties[] = [
	appIdField,
	readFromField,
	{ ...formPageField, displayOptions: { show: { readFrom: ['form'] } } },
	returnAllField,
	limitField,
	// Used as an AI agent's tool, a smaller default keeps the answer within what a model reads well.
	{
		...limitField,
		default: TOOL_DEFAULT_LIMIT,
		displayOptions: { show: { returnAll: [false], '@tool': [true] } },
	},
	simplifyField,
	filtersField,
];

export const description = updateDisplayOptions(
	{ show: { resource: ['inquiry'], operation: ['getAll'] } },
	properties,
);

const LIMIT = fieldOf(limitField);
const READ_FROM = fieldOf(readFromField);
const RETURN_ALL = fieldOf(returnAllField);
const SIMPLIFY = fieldOf(simplifyField);
const READ_STATUS = fieldIn(filtersField, 'readStatus');
const SORT = fieldIn(filtersField, 'sort');
const SUBMITTED_AFTER = fieldIn(filtersField, 'submittedAfter');
const SUBMITTED_BEFORE = fieldIn(filtersField, 'submittedBefore');
const READ_STATUSES: ReadonlyArray<InquirySelection['readStatus']> = ['any', 'read', 'unread'];
const SORTS: ReadonlyArray<InquirySelection['sort']> = ['newestFirst', 'oldestFirst'];
const READ_FROMS = ['form', 'allForms'] as const;

/** Reads a form's inquiries (FormBuilderApi), or every form's, then filters, sorts and limits them in the node. */
export interface InquiryQuery {
	/** One form, or (without pageId) every form of the app. */
	target: FormTarget | { appId: string; pageId?: undefined };
	selection: InquirySelection;
	simplify: boolean;
}

export function prepare(this: IExecuteFunctions, itemIndex: number): InquiryQuery {
	const readFrom = readChoice(this, READ_FROM, itemIndex, 'form', READ_FROMS);
	const appId = this.getNodeParameter('appId', itemIndex, '');
	const target =
		readFrom === 'allForms'
			? { appId: validateAppId(this.getNode(), appId, itemIndex) }
			: validateFormTarget(
					this.getNode(),
					appId,
					this.getNodeParameter('pageId', itemIndex, '', { extractValue: true }),
					itemIndex,
				);
	const returnAll = readParameter(this, RETURN_ALL, itemIndex, false, booleanFrom);
	const simplify = readParameter(this, SIMPLIFY, itemIndex, true, booleanFrom);

	const selection: InquirySelection = {
		submittedAfterMs: readDate(this, SUBMITTED_AFTER, itemIndex),
		submittedBeforeMs: readDate(this, SUBMITTED_BEFORE, itemIndex),
		readStatus: readChoice(this, READ_STATUS, itemIndex, 'any', READ_STATUSES),
		sort: readChoice(this, SORT, itemIndex, 'newestFirst', SORTS),
		// A Limit of -2 or NaN would cut the list silently (slice), so only a whole number of 1 or more is taken.
		limit: returnAll
			? undefined
			: readParameter(this, LIMIT, itemIndex, 50, (value) => wholeNumberFrom(value, { min: 1 })),
	};

	return { target, selection, simplify };
}

export async function send(
	this: IExecuteFunctions,
	query: InquiryQuery,
	call: ItemCall,
): Promise<INodeExecutionData[]> {
	const { target, selection, simplify } = query;
	const { itemIndex } = call;
	if (target.pageId === undefined)
		return await readAcrossForms(this, target.appId, selection, simplify, call);
	const selected = (redact: ValueRedactor) =>
		new SelectedInquiries(selection, redact, this.getNode(), itemIndex);
	// Read as the answer arrives, keeping only what the Limit can return; an answer parsed whole was redacted whole.
	const reader = inquiryAnswerReader(selected, (all) =>
		selectFromRecords(
			all,
			selected((value) => value),
		),
	);
	const records = await fetchFormInquiries(this, target, reader, call);
	return records.map((record) => ({
		json: inquiryItem(record, simplify),
		pairedItem: { item: itemIndex },
	}));
}

/** A date filter in epoch milliseconds, or undefined when it is not set. */
function readDate(
	context: IExecuteFunctions,
	field: ParameterField,
	itemIndex: number,
): number | undefined {
	// A date and time without an offset is wall-clock time where the workflow is, as n8n's own date fields read it.
	const timeZone = context.getTimezone();
	return readParameter(context, field, itemIndex, '', (value) => dateFrom(value, timeZone));
}
