import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { choices, type ChoiceOf } from '../../parameters/choices';
import { choiceFrom, textFrom } from '../../parameters/parameterValues';
import {
	choiceFieldOf,
	fieldOf,
	readChoice,
	readParameter,
	type ParameterField,
} from '../../parameters/readParameter';
import { passwordFormatField, preparePassword, type PreparedPassword } from './password';

/** Fields both user operations share; each operation places them with its own display options. */
export const emailField: INodeProperties = {
	displayName: 'Email',
	name: 'email',
	type: 'string',
	placeholder: 'name@email.com',
	default: '',
	required: true,
	description:
		"The user's email address, such as jane@example.com; the user logs in to the app with it",
};

export const nameField: INodeProperties = {
	displayName: 'Name',
	name: 'name',
	type: 'string',
	default: '',
	required: true,
	description: "The user's full name, as the app shows it",
};

export const passwordField: INodeProperties = {
	displayName: 'Password',
	name: 'password',
	type: 'string',
	typeOptions: { password: true },
	default: '',
	required: true,
};

/**
 * Each operation adds its own description: Add sends the phone as typed, Update as
 * a number unless told otherwise.
 */
export const phoneField: INodeProperties = {
	displayName: 'Phone',
	name: 'phone',
	type: 'string',
	default: '',
	required: true,
	placeholder: 'e.g. 5551234567',
};

export const groupField: INodeProperties = {
	displayName: 'Group',
	name: 'group',
	type: 'string',
	default: '',
	description:
		"The user group's name, or empty for none. App Builder's documentation does not say whether the group must already exist in the app.",
};

/** Status values as the API takes them: "1" active, "0" inactive, "" not set. */
export const statusField = {
	displayName: 'Status',
	name: 'status',
	type: 'options',
	default: '',
	description:
		"Active or Inactive; App Builder's documentation does not say what Inactive changes for the user. Not Set sends it empty.",
	options: choices([
		{ name: 'Active', value: '1' },
		{ name: 'Inactive', value: '0' },
		{ name: 'Not Set', value: '' },
	]),
} satisfies INodeProperties;

export type UserStatus = ChoiceOf<typeof statusField>;

const ADDITIONAL_FIELDS = 'additionalFields';

/** The Additional Fields collection of a user operation, holding the fields it may leave unset. */
export function additionalFields(options: INodeProperties[]): INodeProperties {
	return {
		displayName: 'Additional Fields',
		name: ADDITIONAL_FIELDS,
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		options,
	};
}

/** The fields as errors name them, from their declarations above. */
const EMAIL = fieldOf(emailField);
const NAME = fieldOf(nameField);
export const PHONE = fieldOf(phoneField);
export const GROUP = fieldOf(groupField);
export const GROUP_IN_ADDITIONAL_FIELDS = fieldOf(groupField, ADDITIONAL_FIELDS);
const STATUS = choiceFieldOf(statusField, ADDITIONAL_FIELDS);
const PASSWORD = fieldOf(passwordField);
const PASSWORD_FORMAT = choiceFieldOf(passwordFormatField);

/**
 * A text field's value: a number from an expression becomes its digits; an
 * object, list or boolean is refused.
 */
export function readText(
	context: IExecuteFunctions,
	field: ParameterField,
	itemIndex: number,
): string {
	return readParameter(context, field, (value) => textFrom(value), itemIndex);
}

export function requireText(
	context: IExecuteFunctions,
	field: ParameterField,
	itemIndex: number,
): string {
	const value = readText(context, field, itemIndex).trim();
	if (value === '') {
		throw new NodeOperationError(context.getNode(), `${field.label} is empty`, {
			itemIndex,
			description: `Set the ${field.label} field; if it comes from an expression, check that the expression gives a value for this item.`,
		});
	}
	return value;
}

/**
 * Additional Fields > Status; a value that is not one of its options is refused rather than sent or
 * dropped. An expression that gives nothing leaves it Not Set.
 */
export function readStatus(context: IExecuteFunctions, itemIndex: number): UserStatus {
	const check = (value: unknown) => choiceFrom(value ?? '', STATUS.values);
	return readParameter(context, STATUS, check, itemIndex);
}

function readPassword(context: IExecuteFunctions, itemIndex: number): PreparedPassword {
	// Secret: a refusal names only the type of what the expression gave, never the value.
	const value = readParameter(context, PASSWORD, (given) => textFrom(given, true), itemIndex);
	const format = readChoice(context, PASSWORD_FORMAT, itemIndex);
	const checked = preparePassword(value, format);
	if (!checked.ok) {
		const message =
			checked.problem === 'empty'
				? 'Password is empty'
				: 'Password is not an MD5 hash, but Password Format says it is';
		const description =
			checked.problem === 'empty'
				? 'Set the Password field; if it comes from an expression, check that the expression gives a value for this item.'
				: 'An MD5 hash is 32 characters 0-9 and a-f. Set Password Format to Plain Text or Hash With MD5 Before Sending to send a plain password.';
		throw new NodeOperationError(context.getNode(), message, { itemIndex, description });
	}
	return checked.prepared;
}

/**
 * What both operations send to name the account: its email, name and password
 * (prepared as Password Format says).
 */
export function readAccount(
	context: IExecuteFunctions,
	itemIndex: number,
): { email: string; name: string } & PreparedPassword {
	const email = requireText(context, EMAIL, itemIndex);
	const name = requireText(context, NAME, itemIndex);
	return { email, name, ...readPassword(context, itemIndex) };
}
