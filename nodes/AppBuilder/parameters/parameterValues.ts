import { readDateText } from './dateText';

// Checks for the values n8n hands the nodes as parameters. A fixed value has the type the editor
// gives it, but an expression can give anything: these accept only values whose meaning is clear,
// so an object is never sent as "[object Object]" and a NaN never turns an option into a no-op.
// Pure; the node turns a refusal into an error naming the field and the item (readParameter.ts).

export type Checked<T> = { ok: true; value: T } | Refused;

export interface Refused {
	ok: false;
	/** What the field takes, e.g. "a whole number of 1 or more". */
	expected: string;
	/** What it was given, e.g. "an object" or "\"-2\"". */
	given: string;
}

export interface WholeNumberRange {
	min: number;
	max?: number;
}

/** Values longer than this are cut when quoted in a message, and never read by a regex. */
const MAX_QUOTED = 40;
const MAX_READ = 100;

/**
 * Text for a string field: a string as given, a number as its digits (an
 * expression such as {{ $json.phone }} often gives one); nothing is "".
 * Objects, lists and booleans are refused. With `secret`, a refusal names
 * only the value's type.
 */
export function textFrom(value: unknown, secret = false): Checked<string> {
	if (value === undefined || value === null) return { ok: true, value: '' };
	if (typeof value === 'string') return { ok: true, value };
	// Beyond the safe range a number has already lost digits, so its
	// text would not be what was meant.
	if (
		typeof value === 'number' &&
		Number.isFinite(value) &&
		Math.abs(value) <= Number.MAX_SAFE_INTEGER
	) {
		return { ok: true, value: String(value) };
	}
	return { ok: false, expected: 'text or a number', given: describeGiven(value, secret) };
}

/**
 * A whole number in range, given as a number or as its digits ("3");
 * NaN, 2.5 and "abc" are refused.
 */
export function wholeNumberFrom(value: unknown, range: WholeNumberRange): Checked<number> {
	const expected =
		range.max === undefined
			? `a whole number of ${range.min} or more`
			: `a whole number from ${range.min} to ${range.max}`;
	const number = typeof value === 'string' ? numberInText(value) : value;
	if (
		typeof number === 'number' &&
		Number.isInteger(number) &&
		number >= range.min &&
		(range.max === undefined || number <= range.max)
	) {
		return { ok: true, value: number };
	}
	return { ok: false, expected, given: describeGiven(value) };
}

/**
 * A number above 0 and at most `max`, fractions allowed, given as a
 * number or as its digits ("1.5").
 */
export function positiveNumberFrom(value: unknown, max: number): Checked<number> {
	const number = typeof value === 'string' ? numberInText(value) : value;
	if (typeof number === 'number' && Number.isFinite(number) && number > 0 && number <= max) {
		return { ok: true, value: number };
	}
	return { ok: false, expected: `a number above 0, at most ${max}`, given: describeGiven(value) };
}

/** One of an options field's values; a number is taken as its digits ("1" for 1). */
export function choiceFrom<T extends string>(value: unknown, choices: readonly T[]): Checked<T> {
	const text = typeof value === 'number' ? String(value) : value;
	const chosen = choices.find((choice) => choice === text);
	if (chosen !== undefined) return { ok: true, value: chosen };
	const listed = choices.map((choice) => (choice === '' ? '"" (empty)' : `"${choice}"`));
	const expected =
		listed.length > 1
			? `one of ${listed.slice(0, -1).join(', ')} or ${listed[listed.length - 1]}`
			: listed.join('');
	return { ok: false, expected, given: describeGiven(value) };
}

/** A boolean field: true or false, or the text "true" or "false". */
export function booleanFrom(value: unknown): Checked<boolean> {
	if (typeof value === 'boolean') return { ok: true, value };
	if (typeof value === 'string') {
		const text = value.trim().toLowerCase();
		if (text === 'true' || text === 'false') return { ok: true, value: text === 'true' };
	}
	return { ok: false, expected: 'true or false', given: describeGiven(value) };
}

/** What a date field takes, for its refusal. */
const DATE_EXPECTED =
	"a date and time such as 2026-01-31T09:00:00 (read in the workflow's time zone) or 2026-01-31T09:00:00Z";

/**
 * A moment in epoch milliseconds, or undefined when none is given. Takes
 * what n8n's own date values are: a Luxon DateTime ({{ $now }},
 * {{ $today }}, DateTime.fromISO(...)), a JavaScript Date, or text (see
 * dateText.ts: ISO 8601, read in `timeZone`, the workflow's, when it has no
 * offset). A number is refused, since it could be seconds or
 * milliseconds; so is text like "5", which JavaScript would read as May
 * 2001, and text like "March 1, 2026", whose zone would be the server's.
 */
export function dateFrom(value: unknown, timeZone: string): Checked<number | undefined> {
	if (value === undefined || value === null || value === '') return { ok: true, value: undefined };
	let ms = Number.NaN;
	if (isLuxonDateTime(value)) ms = value.isValid ? value.toMillis() : Number.NaN;
	else if (Object.prototype.toString.call(value) === '[object Date]')
		ms = (value as Date).getTime();
	else if (typeof value === 'string' && value.length <= MAX_READ) {
		const reading = readDateText(value.trim(), timeZone);
		if (reading.ok) ms = reading.ms;
		else if (reading.refused === 'unknown-zone') {
			return {
				ok: false,
				expected: `${DATE_EXPECTED}; the workflow's time zone "${cut(timeZone)}" is not one this n8n knows`,
				given: describeGiven(value),
			};
		}
	}
	if (Number.isFinite(ms)) return { ok: true, value: ms };
	return { ok: false, expected: DATE_EXPECTED, given: describeGiven(value) };
}

/**
 * A Luxon DateTime, which n8n's date expressions give; known by the mark Luxon sets on each (the
 * package does not depend on Luxon).
 */
function isLuxonDateTime(value: unknown): value is { isValid: boolean; toMillis(): number } {
	return (
		typeof value === 'object' &&
		value !== null &&
		(value as { isLuxonDateTime?: unknown }).isLuxonDateTime === true &&
		typeof (value as { toMillis?: unknown }).toMillis === 'function'
	);
}

/** Says what a value is, for a message: its text for strings and numbers, its type otherwise. */
export function describeGiven(value: unknown, secret = false): string {
	if (value === undefined) return 'nothing (undefined)';
	if (value === null) return 'null';
	if (Array.isArray(value)) return 'a list (array)';
	if (value instanceof Date) return secret ? 'a date' : `the date "${String(value)}"`;
	if (isLuxonDateTime(value)) return secret ? 'a date' : `the date "${String(value)}"`;
	switch (typeof value) {
		case 'string':
			if (secret) return 'text';
			return value.trim() === '' ? 'empty text' : `"${cut(value)}"`;
		case 'number':
			return secret ? 'a number that cannot be sent as text' : `"${String(value)}"`;
		case 'boolean':
			return secret ? 'a boolean' : `${String(value)} (a boolean)`;
		case 'object':
			return 'an object';
		default:
			return `a ${typeof value}`;
	}
}

function numberInText(text: string): number | undefined {
	const trimmed = text.trim();
	// Plain decimal digits only: Number() would also read "0x10", "1e3" and "" (as 0).
	if (trimmed.length > MAX_READ || !/^[+-]?\d+(?:\.\d+)?$/.test(trimmed)) return undefined;
	return Number(trimmed);
}

function cut(text: string): string {
	return text.length > MAX_QUOTED ? `${text.slice(0, MAX_QUOTED)}…` : text;
}
