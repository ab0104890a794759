import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { NodeOperationError, updateDisplayOptions } from 'n8n-workflow';

import { appIdField, formPageField } from '../../descriptions/formFields';
import { inquiryItem } from '../../helpers/inquiryItem';
import { fetchInquiries, validateFormTarget, type FormTarget } from '../../transport/fetchInquiries';
import { selectInquiries, type InquirySelection } from './selectInquiries';

const properties: INodeProperties[] = [
	appIdField,
	formPageField,
	{
		displayName: 'Return All',
		name: 'returnAll',
		type: 'boolean',
		default: false,
		description: 'Whether to return all results or only up to a given limit',
	},
	{
		displayName: 'Limit',
		name: 'limit',
		type: 'number',
		typeOptions: { minValue: 1 },
		default: 50,
		description: 'Max number of results to return',
		displayOptions: { show: { returnAll: [false] } },
	},
	{
		displayName: 'Simplify',
		name: 'simplify',
		type: 'boolean',
		default: true,
		description:
			'Whether to return a flat item with one field per form field instead of the raw inquiry record',
	},
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
				description: 'Only inquiries submitted after this moment',
			},
			{
				displayName: 'Submitted Before',
				name: 'submittedBefore',
				type: 'dateTime',
				default: '',
				description: 'Only inquiries submitted before this moment',
			},
		],
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['inquiry'], operation: ['getAll'] } },
	properties,
);

/** Reads a form's inquiries (FormBuilderApi), then filters, sorts and limits them in the node. */
export interface InquiryQuery {
	target: FormTarget;
	selection: InquirySelection;
	simplify: boolean;
}

export function prepare(this: IExecuteFunctions, itemIndex: number): InquiryQuery {
	const target = validateFormTarget(
		this.getNode(),
		this.getNodeParameter('appId', itemIndex, ''),
		this.getNodeParameter('pageId', itemIndex, '', { extractValue: true }),
		itemIndex,
	);
	const returnAll = this.getNodeParameter('returnAll', itemIndex, false) as boolean;
	const simplify = this.getNodeParameter('simplify', itemIndex, true) as boolean;
	const filters = this.getNodeParameter('filters', itemIndex, {}) as IDataObject;

	const selection: InquirySelection = {
		submittedAfterMs: parseDate(this, filters.submittedAfter, 'Submitted After', itemIndex),
		submittedBeforeMs: parseDate(this, filters.submittedBefore, 'Submitted Before', itemIndex),
		readStatus: (filters.readStatus as InquirySelection['readStatus']) ?? 'any',
		sort: (filters.sort as InquirySelection['sort']) ?? 'newestFirst',
		limit: returnAll ? undefined : (this.getNodeParameter('limit', itemIndex, 50) as number),
	};

	return { target, selection, simplify };
}

export async function send(this: IExecuteFunctions, query: InquiryQuery, itemIndex: number): Promise<INodeExecutionData[]> {
	const { target, selection, simplify } = query;
	const records = await fetchInquiries.call(this, target, { itemIndex });
	return selectInquiries(records, selection).map((record) => ({
		json: inquiryItem(record, simplify),
		pairedItem: { item: itemIndex },
	}));
}

function parseDate(
	context: IExecuteFunctions,
	value: unknown,
	label: string,
	itemIndex: number,
): number | undefined {
	if (value === undefined || value === null || value === '') return undefined;
	const ms = Date.parse(String(value));
	if (Number.isNaN(ms)) {
		throw new NodeOperationError(context.getNode(), `${label} is not a date`, {
			itemIndex,
			description: `Set ${label} to a date and time such as 2026-01-31T09:00:00, or remove the filter.`,
		});
	}
	return ms;
}
