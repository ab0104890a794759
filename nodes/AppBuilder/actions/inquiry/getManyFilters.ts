import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { choices, type ChoiceOf } from '../../parameters/choices';
import { dateFrom } from '../../parameters/parameterValues';
import {
	choiceFieldOf,
	fieldOf,
	readChoice,
	readParameter,
	type ParameterField,
} from '../../parameters/readParameter';

// Get Many's Filters: each declared once, read from its declaration. A filter not added to the
// collection takes its declared default.

const readStatusFilter = {
	displayName: 'Read Status',
	name: 'readStatus',
	type: 'options',
	default: 'any',
	description:
		"Leads by App Builder's own read mark. App Builder's documentation does not say what marks a lead read: ask App Builder's support.",
	options: choices([
		{ name: 'Any', value: 'any' },
		{ name: 'Read', value: 'read' },
		{ name: 'Unread', value: 'unread' },
	]),
} satisfies INodeProperties;

const sortFilter = {
	displayName: 'Sort',
	name: 'sort',
	type: 'options',
	default: 'newestFirst',
	options: choices([
		{ name: 'Newest First', value: 'newestFirst' },
		{ name: 'Oldest First', value: 'oldestFirst' },
	]),
} satisfies INodeProperties;

const submittedAfterFilter: INodeProperties = {
	displayName: 'Submitted After',
	name: 'submittedAfter',
	type: 'dateTime',
	default: '',
	description:
		"Only leads submitted after this date and time, read in the workflow's time zone (Workflow Settings > Timezone)",
};

const submittedBeforeFilter: INodeProperties = {
	displayName: 'Submitted Before',
	name: 'submittedBefore',
	type: 'dateTime',
	default: '',
	description:
		"Only leads submitted before this date and time, read in the workflow's time zone (Workflow Settings > Timezone)",
};

export type ReadStatus = ChoiceOf<typeof readStatusFilter>;
export type SortOrder = ChoiceOf<typeof sortFilter>;

const FILTERS = 'filters';

export const filtersField: INodeProperties = {
	displayName: 'Filters',
	name: FILTERS,
	type: 'collection',
	placeholder: 'Add Filter',
	default: {},
	options: [readStatusFilter, sortFilter, submittedAfterFilter, submittedBeforeFilter],
};

const READ_STATUS = choiceFieldOf(readStatusFilter, FILTERS);
const SORT = choiceFieldOf(sortFilter, FILTERS);
const SUBMITTED_AFTER = fieldOf(submittedAfterFilter, FILTERS);
const SUBMITTED_BEFORE = fieldOf(submittedBeforeFilter, FILTERS);

/** One item's filters and order. */
export interface InquiryFilters {
	submittedAfterMs?: number;
	submittedBeforeMs?: number;
	readStatus: ReadStatus;
	sort: SortOrder;
}

export function readFilters(context: IExecuteFunctions, itemIndex: number): InquiryFilters {
	return {
		submittedAfterMs: readDate(context, SUBMITTED_AFTER, itemIndex),
		submittedBeforeMs: readDate(context, SUBMITTED_BEFORE, itemIndex),
		readStatus: readChoice(context, READ_STATUS, itemIndex),
		sort: readChoice(context, SORT, itemIndex),
	};
}

/** A date filter in epoch milliseconds, or undefined when it is not set. */
function readDate(
	context: IExecuteFunctions,
	field: ParameterField,
	itemIndex: number,
): number | undefined {
	// A date and time without an offset is wall-clock time where the workflow is, as
	// n8n's own date fields read it.
	const timeZone = context.getTimezone();
	return readParameter(context, field, (value) => dateFrom(value, timeZone), itemIndex);
}
