import { createHash } from 'crypto';
import type { INodeProperties } from 'n8n-workflow';

import { choices, type ChoiceOf } from '../../parameters/choices';

// How the node sends a user's password, as Password Format says. The API hashes a plain password
// itself, and takes an MD5 hash as is when passwordType is "MD5".

export const passwordFormatField = {
	displayName: 'Password Format',
	name: 'passwordFormat',
	type: 'options',
	default: 'plain',
	options: choices([
		{
			name: 'Already MD5-Hashed',
			value: 'md5',
			description:
				'The Password field already holds an MD5 hash of the password (32 digits and letters a to f); App Builder stores it as is',
		},
		{
			name: 'Hash With MD5 Before Sending',
			value: 'hashInN8n',
			description:
				'The node hashes the password before sending it, so the plain password never leaves the workflow',
		},
		{
			name: 'Plain Text',
			value: 'plain',
			description: 'The API hashes the password itself',
		},
	]),
} satisfies INodeProperties;

export type PasswordFormat = ChoiceOf<typeof passwordFormatField>;

export interface PreparedPassword {
	password: string;
	passwordType: '' | 'MD5';
}

const MD5_HEX = /^[a-f0-9]{32}$/i;

export type PasswordProblem = 'empty' | 'notMd5';

export function preparePassword(
	value: string,
	format: PasswordFormat,
): { ok: true; prepared: PreparedPassword } | { ok: false; problem: PasswordProblem } {
	if (value === '') return { ok: false, problem: 'empty' };
	switch (format) {
		case 'md5':
			return MD5_HEX.test(value)
				? { ok: true, prepared: { password: value.toLowerCase(), passwordType: 'MD5' } }
				: { ok: false, problem: 'notMd5' };
		case 'hashInN8n':
			// MD5 because it is the only pre-hashed form the API accepts; it keeps the
			// plain password inside the workflow, it is not a strong hash.
			return {
				ok: true,
				prepared: {
					password: createHash('md5').update(value, 'utf8').digest('hex'),
					passwordType: 'MD5',
				},
			};
		default:
			return { ok: true, prepared: { password: value, passwordType: '' } };
	}
}
