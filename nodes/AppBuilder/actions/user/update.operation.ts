import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeOperationError, updateDisplayOptions } from 'n8n-workflow';

import { choiceFieldOf, readChoice } from '../../parameters/readParameter';
import { PHONE_PROBLEM_TEXT, phoneFormatField, preparePhone } from './phone';
import { passwordFormatField } from './password';
import { userRequestSender, type UserRequest } from './sendUserRequest';
import * as user from './userFields';

const PHONE_FORMAT = choiceFieldOf(phoneFormatField);

const properties: INodeProperties[] = [
	{
		...user.emailField,
		description: 'The email of the app user to update; the API finds the user by it',
	},
	user.nameField,
	{
		...user.passwordField,
		description: 'The API requires the password on every update; send the current one to keep it',
	},
	passwordFormatField,
	{
		...user.phoneField,
		description:
			'The phone number, such as 5551234567; spaces, dashes and brackets are removed. For a leading 0 or +, set Phone Format to Text.',
	},
	phoneFormatField,
	user.groupField,
	user.additionalFields([
		{
			...user.statusField,
			description:
				"Active or Inactive; App Builder's documentation does not say what Inactive changes for the user. Not Set leaves it as it is.",
		},
	]),
];

export const description = updateDisplayOptions(
	{ show: { resource: ['user'], operation: ['update'] } },
	properties,
);

/** Reads and checks one item's changes to an app user (editUser). */
export function prepare(this: IExecuteFunctions, itemIndex: number): UserRequest {
	const { email, name, password, passwordType } = user.readAccount(this, itemIndex);
	const phoneFormat = readChoice(this, PHONE_FORMAT, itemIndex);
	const prepared = preparePhone(user.readText(this, user.PHONE, itemIndex), phoneFormat);
	if (!prepared.ok) {
		throw new NodeOperationError(this.getNode(), PHONE_PROBLEM_TEXT[prepared.problem], {
			itemIndex,
			description:
				prepared.problem === 'empty' || prepared.problem === 'notDigits'
					? "Set the Phone field to the user's phone number, digits only."
					: 'Set Phone Format to Text to send the phone exactly as typed, or correct the number.',
		});
	}
	const group = user.readText(this, user.GROUP, itemIndex);
	const status = user.readStatus(this, itemIndex);

	const params: IDataObject = {
		name,
		email,
		phone: prepared.phone,
		group,
		password,
		passwordType,
	};
	// status is optional for editUser; sending it blank could clear it,
	// so it is left out when not set.
	if (status !== '') params.status = status;

	return { email, params };
}

/** Changes the app user's details. */
export const send = userRequestSender('editUser');
