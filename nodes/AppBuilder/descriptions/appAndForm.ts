import type { INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { FORM_PAGE_ID_PATTERN, type FormTarget } from '../../shared/appBuilderApi';
import { choices } from '../parameters/choices';
import { textFrom } from '../parameters/parameterValues';
import {
	fieldOf,
	readParameter,
	type ItemOf,
	type ParameterContext,
} from '../parameters/readParameter';

export const appIdField: INodeProperties = {
	displayName: 'App ID',
	name: 'appId',
	type: 'string',
	default: '',
	required: true,
	description:
		"Your app's ID (appID or BID). Appy Pie's docs say only that it comes from Appy Pie's backend; when it is right, the Form list shows your forms.",
};

export const formPageField: INodeProperties = {
	displayName: 'Form',
	name: 'pageId',
	type: 'resourceLocator',
	default: { mode: 'list', value: '' },
	required: true,
	description:
		"The form whose leads to read: pick it from the list of the app's forms, which needs App ID first",
	modes: [
		{
			displayName: 'From List',
			name: 'list',
			type: 'list',
			typeOptions: {
				searchListMethod: 'searchFormPages',
				searchable: true,
			},
		},
		{
			displayName: 'By ID',
			name: 'id',
			type: 'string',
			placeholder: 'e.g. formbuilder_1234_5678',
			validation: [
				{
					type: 'regex',
					properties: {
						regex: FORM_PAGE_ID_PATTERN,
						errorMessage:
							'A form page ID looks like formbuilder_1234_5678 (formbuilder, then two numbers)',
					},
				},
			],
		},
	],
};

/** One form or every form of the app: the trigger's Watch and Get Many's Read From. */
export function formsChoiceField(name: string, displayName: string, allFormsDescription: string) {
	return {
		displayName,
		name,
		type: 'options',
		default: 'form',
		options: choices([
			{ name: 'One Form', value: 'form', description: 'The leads of the form picked below' },
			{ name: 'All Forms of the App', value: 'allForms', description: allFormsDescription },
		]),
	} satisfies INodeProperties;
}

const APP_ID = fieldOf(appIdField);
const FORM = fieldOf(formPageField);

/** Reads and checks App ID, naming the field to fix. */
export function readAppId<C extends ParameterContext>(context: C, ...item: ItemOf<C>): string {
	// A number is taken as its digits (an App ID of 1001 from an
	// expression); an object or list is refused.
	const app = readParameter(context, APP_ID, (value) => textFrom(value), ...item).trim();
	if (app === '') {
		throw new NodeOperationError(context.getNode(), 'App ID is empty', {
			itemIndex: item[0],
			description:
				"Set App ID to your app's ID, which App Builder also calls appID or BID. If you do not know it, ask App Builder's support where your app's App ID is shown.",
		});
	}
	return app;
}

/** Reads and checks App ID and the form's page ID, naming the field to fix. */
export function readFormTarget<C extends ParameterContext>(
	context: C,
	...item: ItemOf<C>
): FormTarget {
	const appId = readAppId(context, ...item);
	const pageId = readParameter(context, FORM, (value) => textFrom(value), ...item).trim();
	const itemIndex = item[0];
	if (pageId === '') {
		throw new NodeOperationError(context.getNode(), 'No form is selected', {
			itemIndex,
			description: 'Pick a form from the list, or give its page ID (formbuilder_1234_5678).',
		});
	}
	if (!new RegExp(FORM_PAGE_ID_PATTERN).test(pageId)) {
		throw new NodeOperationError(context.getNode(), `"${pageId}" is not a form page ID`, {
			itemIndex,
			description:
				'A form page ID is formbuilder_<digits>_<digits>, such as formbuilder_1234_5678. Pick the form from the list, or give its page ID.',
		});
	}
	return { appId, pageId };
}
