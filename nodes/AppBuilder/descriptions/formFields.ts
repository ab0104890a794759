import type { INodeProperties } from 'n8n-workflow';

/** A form feature page id as the API documents it: formbuilder_<digits>_<digits>. */
export const FORM_PAGE_ID_PATTERN = '^formbuilder_\\d+_\\d+$';

export const appIdField: INodeProperties = {
	displayName: 'App ID',
	name: 'appId',
	type: 'string',
	default: '',
	required: true,
	placeholder: 'e.g. 6543210',
	description:
		'The ID of your app (also called appID or BID), shown in the App Builder back-end',
};

export const formPageField: INodeProperties = {
	displayName: 'Form',
	name: 'pageId',
	type: 'resourceLocator',
	default: { mode: 'list', value: '' },
	required: true,
	description: 'The form feature page whose inquiries to read',
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
