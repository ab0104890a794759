import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { passwordFormatField } from './password';
import { userRequestSender, type UserRequest } from './sendUserRequest';
import * as user from './userFields';

const properties: INodeProperties[] = [
	user.emailField,
	user.nameField,
	user.passwordField,
	passwordFormatField,
	{
		...user.phoneField,
		description:
			'The phone number as digits, such as 5551234567; sent as typed. Each app user needs a unique phone number.',
	},
	user.additionalFields([user.groupField, user.statusField]),
];

export const description = updateDisplayOptions(
	{ show: { resource: ['user'], operation: ['add'] } },
	properties,
);

/**
 * Reads and checks one item's user (addUser). Optional fields are sent blank
 * when unset, as the API requires.
 */
export function prepare(this: IExecuteFunctions, itemIndex: number): UserRequest {
	const { email, name, password, passwordType } = user.readAccount(this, itemIndex);
	const phone = user.requireText(this, user.PHONE, itemIndex);
	return {
		email,
		params: {
			name,
			email,
			password,
			phone,
			group: user.readText(this, user.GROUP_IN_ADDITIONAL_FIELDS, itemIndex),
			passwordType,
			status: user.readStatus(this, itemIndex),
		},
	};
}

/** Registers the app user. */
export const send = userRequestSender('addUser');
