import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { callWebService } from '../../transport/request';
import {
	emailField,
	groupField,
	nameField,
	passwordField,
	passwordFormatField,
	readPassword,
	requireText,
	statusField,
} from './userFields';

const properties: INodeProperties[] = [
	emailField,
	nameField,
	passwordField,
	passwordFormatField,
	{
		displayName: 'Phone',
		name: 'phone',
		type: 'string',
		default: '',
		required: true,
		placeholder: 'e.g. 5551234567',
		description: 'Sent as typed. Each app user needs a unique phone number.',
	},
	{
		displayName: 'Additional Fields',
		name: 'additionalFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		options: [groupField, statusField],
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['user'], operation: ['add'] } },
	properties,
);

/** Registers an app user (addUser). Optional fields are sent blank when unset, as the API requires. */
export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<INodeExecutionData[]> {
	const email = requireText(this, 'email', 'Email', itemIndex);
	const name = requireText(this, 'name', 'Name', itemIndex);
	const phone = requireText(this, 'phone', 'Phone', itemIndex);
	const { password, passwordType } = readPassword(this, itemIndex);
	const additional = this.getNodeParameter('additionalFields', itemIndex, {}) as IDataObject;

	const result = await callWebService.call(
		this,
		'addUser',
		{
			name,
			email,
			password,
			phone,
			group: String(additional.group ?? ''),
			passwordType,
			status: String(additional.status ?? ''),
		},
		{ itemIndex },
	);
	return [{ json: { ...result, email }, pairedItem: { item: itemIndex } }];
}
