import type { INodeProperties } from 'n8n-workflow';

import { choices, type ChoiceOf } from '../../parameters/choices';

// Update User sends the phone number as an integer, as the spec types it. A number whose digits
// would change on the way (a leading zero or a plus sign dropped, more digits than an integer holds
// exactly) is refused rather than rewritten; the user can choose to send it as text instead.

export const phoneFormatField = {
	displayName: 'Phone Format',
	name: 'phoneFormat',
	type: 'options',
	default: 'integer',
	options: choices([
		{
			name: 'Number',
			value: 'integer',
			description:
				'Send the digits as a number, as the API documents; refuse values that would change',
		},
		{
			name: 'Text',
			value: 'text',
			description: 'Send the phone exactly as typed, for numbers with a leading 0 or +',
		},
	]),
} satisfies INodeProperties;

export type PhoneFormat = ChoiceOf<typeof phoneFormatField>;

export type PhoneProblem = 'empty' | 'notDigits' | 'leadingZero' | 'plusSign' | 'tooLong';

/** Visual separators people type in phone numbers; removing them changes no digit. */
const SEPARATORS = /[\s\-.()]/g;

export function preparePhone(
	value: string,
	format: PhoneFormat,
): { ok: true; phone: number | string } | { ok: false; problem: PhoneProblem } {
	const trimmed = value.trim();
	if (trimmed === '') return { ok: false, problem: 'empty' };
	if (format === 'text') return { ok: true, phone: trimmed };

	const digits = trimmed.replace(SEPARATORS, '');
	if (digits.startsWith('+')) return { ok: false, problem: 'plusSign' };
	if (!/^\d+$/.test(digits)) return { ok: false, problem: 'notDigits' };
	if (digits.length > 1 && digits.startsWith('0')) return { ok: false, problem: 'leadingZero' };
	const phone = Number(digits);
	if (!Number.isSafeInteger(phone)) return { ok: false, problem: 'tooLong' };
	return { ok: true, phone };
}

export const PHONE_PROBLEM_TEXT: Record<PhoneProblem, string> = {
	empty: 'Phone is empty',
	notDigits: 'Phone must contain only digits (spaces, dashes, dots and brackets are allowed)',
	leadingZero: 'Phone starts with 0, which would be lost when sent as a number',
	plusSign: 'Phone starts with +, which would be lost when sent as a number',
	tooLong: 'Phone has more digits than can be sent as a number without changing it',
};
