import type { ItemCall } from '../resource';
import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import type { FormTarget } from '../../../shared/appBuilderApi';
import type { ValueRedactor } from '../../../shared/text/redact';
import {
	appIdField,
	formPageField,
	formsChoiceField,
	readAppId,
	readFormTarget,
} from '../../descriptions/appAndForm';
import { simplifyField } from '../../descriptions/simplify';
import { inquiryItem } from '../../inquiries/inquiryItem';
import { inquiryAnswerReader } from '../../inquiries/readInquiryStream';
import { booleanFrom, wholeNumberFrom } from '../../parameters/parameterValues';
import { choiceFieldOf, fieldOf, readChoice, readParameter } from '../../parameters/readParameter';
import { fetchFormInquiries } from '../../transport/formInquiries';
import { readAcrossForms } from './getManyAcrossForms';
import { filtersField, readFilters } from './getManyFilters';
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

const readFromField = formsChoiceField(
	'readFrom',
	'Read From',
	'Every form the app lists; Sort and Limit apply across forms, and each lead names its form',
);

const returnAllField: INodeProperties = {
	displayName: 'Return All',
	name: 'returnAll',
	type: 'boolean',
	default: false,
	description: 'Whether to return all results or only up to a given limit',
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
const READ_FROM = choiceFieldOf(readFromField);
const RETURN_ALL = fieldOf(returnAllField);
const SIMPLIFY = fieldOf(simplifyField);

/**
 * Reads a form's inquiries (FormBuilderApi), or every form's, then filters,
 * sorts and limits them in the node.
 */
export interface InquiryQuery {
	/** One form, or (without pageId) every form of the app. */
	target: FormTarget | { appId: string; pageId?: undefined };
	selection: InquirySelection;
	simplify: boolean;
}

export function prepare(this: IExecuteFunctions, itemIndex: number): InquiryQuery {
	const readFrom = readChoice(this, READ_FROM, itemIndex);
	const target =
		readFrom === 'allForms'
			? { appId: readAppId(this, itemIndex) }
			: readFormTarget(this, itemIndex);
	const returnAll = readParameter(this, RETURN_ALL, booleanFrom, itemIndex);
	const simplify = readParameter(this, SIMPLIFY, booleanFrom, itemIndex);

	const selection: InquirySelection = {
		...readFilters(this, itemIndex),
		// A Limit of -2 or NaN would cut the list silently (slice), so only a
		// whole number of 1 or more is taken.
		limit: returnAll
			? undefined
			: readParameter(this, LIMIT, (value) => wholeNumberFrom(value, { min: 1 }), itemIndex),
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
	// Read as the answer arrives, keeping only what the Limit can return; an answer
	// parsed whole was redacted whole.
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
