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
import { readChoice, readParameter } from '../../parameters/readParameter';
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

const properties: INodeProperties[] = [
	appIdField,
	{
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
	},
	{ ...formPageField, displayOptions: { show: { readFrom: ['form'] } } },
	{
		displayName: 'Return All',
		name: 'returnAll',
		type: 'boolean',
		default: false,
		description: 'Whether to return all results or only up to a given limit',
	},
	limitField,
	// Used as an AI agent's tool, a smaller default keeps the answer within what a model reads well.
	{
		...limitField,
		default: TOOL_DEFAULT_LIMIT,
		displayOptions: { show: { returnAll: [false], '@tool': [true] } },
	},
	simplifyField,
	{
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
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['inquiry'], operation: ['getAll'] } },
	properties,
);

const LIMIT = { label: 'Limit', path: 'limit' };
const READ_STATUS = { label: 'Read Status', path: 'filters.readStatus' };
const SORT = { label: 'Sort', path: 'filters.sort' };
const READ_STATUSES: ReadonlyArray<InquirySelection['readStatus']> = ['any', 'read', 'unread'];
const SORTS: ReadonlyArray<InquirySelection['sort']> = ['newestFirst', 'oldestFirst'];
const READ_FROM = { label: 'Read From', path: 'readFrom' };
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
	const returnAll = readParameter(
		this,
		{ label: 'Return All', path: 'returnAll' },
		itemIndex,
		false,
		booleanFrom,
	);
	const simplify = readParameter(
		this,
		{ label: 'Simplify', path: 'simplify' },
		itemIndex,
		true,
		booleanFrom,
	);

	const selection: InquirySelection = {
		submittedAfterMs: parseDate(this, 'submittedAfter', 'Submitted After', itemIndex),
		submittedBeforeMs: parseDate(this, 'submittedBefore', 'Submitted Before', itemIndex),
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
function parseDate(
	context: IExecuteFunctions,
	name: 'submittedAfter' | 'submittedBefore',
	label: string,
	itemIndex: number,
): number | undefined {
	// A date and time without an offset is wall-clock time where the workflow is, as n8n's own date fields read it.
	const timeZone = context.getTimezone();
	return readParameter(context, { label, path: `filters.${name}` }, itemIndex, '', (value) =>
		dateFrom(value, timeZone),
	);
}
