import type { ItemCall } from '../resource';
import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { sendUserRequest, type UserRequest } from './sendUserRequest';
import {
	additionalFields,
	EMAIL,
	emailField,
	GROUP_IN_ADDITIONAL_FIELDS,
	groupField,
	NAME,
	nameField,
	passwordField,
	passwordFormatField,
	PHONE,
	phoneField,
	readPassword,
	readStatus,
	readText,
	requireText,
	statusField,
} from './userFields';

const properties: INodeProperties[] = [
	emailField,
	nameField,
	passwordField,
	passwordFormatField,
	{
		...phoneField,
		description:
			'The phone number as digits, such as 5551234567; sent as typed. Each app user needs a unique phone number.',
	},
	additionalFields([groupField, statusField]),
];

export const description = updateDisplayOptions(
	{ show: { resource: ['user'], operation: ['add'] } },
	properties,
);

/** Reads and checks one item's user (addUser). Optional fields are sent blank when unset, as the API requires. */
export function prepare(this: IExecuteFunctions, itemIndex: number): UserRequest {
	const email = requireText(this, EMAIL, itemIndex);
	const name = requireText(this, NAME, itemIndex);
	const phone = requireText(this, PHONE, itemIndex);
	const { password, passwordType } = readPassword(this, itemIndex);
	return {
		email,
		params: {
			name,
			email,
			password,
			phone,
			group: readText(this, GROUP_IN_ADDITIONAL_FIELDS, itemIndex),
			passwordType,
			status: readStatus(this, itemIndex),
		},
	};
}

/** Registers the app user. */
export async function send(
	this: IExecuteFunctions,
	request: UserRequest,
	call: ItemCall,
): Promise<INodeExecutionData[]> {
	return await sendUserRequest(this, 'addUser', request, call);
}
