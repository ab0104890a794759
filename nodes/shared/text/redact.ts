import { setOwnValue } from '../ownValue';
import { decodeWithOrigins } from './htmlText';

// Removes secret values from any text that may reach an error, a log line or an output item:
// servers echo what they received ("Invalid API Key abc123"). Each secret is looked for in every
// form a server may write it back in (see docs/limits-for-admins.md, "Secrets"); the rest of the
// text is kept as written.

export const REDACTED = '[redacted]';
/** How much of the API's own text an error shows; the rest is cut after redaction. */
export const MAX_API_MESSAGE_LENGTH = 300;

export function redactSecrets(text: string, secrets: readonly unknown[]): string {
	const redactor = redactorFor(secrets);
	return redactor === undefined ? text : redactor(text);
}

/**
 * The API's text for an error message: secrets redacted first, then cut to MAX_API_MESSAGE_LENGTH.
 */
export function apiMessageForUser(text: string, secrets: readonly unknown[]): string {
	return shorten(redactSecrets(text, secrets), MAX_API_MESSAGE_LENGTH);
}

/**
 * A web origin (scheme://host[:port]) or a text naming one, with secrets
 * redacted. URL parsing writes a host in lower case, so each secret is also
 * looked for lower-cased: a redirect to "AbC123.example" shows up as
 * "abc123.example".
 */
export function redactOrigin(text: string, secrets: readonly unknown[]): string {
	const lowered = secrets
		.filter((secret): secret is string => typeof secret === 'string')
		.map((secret) => secret.toLowerCase());
	return redactSecrets(text, [...secrets, ...lowered]);
}

/**
 * Redacts any JSON value as redactValue does, with the secrets' forms worked out
 * once for every value it is given.
 */
export type ValueRedactor = <T>(value: T) => T;

/**
 * A copy of a JSON value (a success answer) with every text, and every
 * object key, redacted. Lists and plain objects are copied, at any depth
 * (walked with a loop, not recursion); other values are kept as they are.
 * The input is not changed; with no secret to look for it is returned as it
 * is. Two keys that redact to the same text are both kept, the later one
 * with `_2`, `_3`, ...
 */
export function redactValue<T>(value: T, secrets: readonly unknown[]): T {
	return valueRedactor(secrets)(value);
}

/** One redactor for many values (the records of an answer): see redactValue. */
export function valueRedactor(secrets: readonly unknown[]): ValueRedactor {
	const redactor = redactorFor(secrets);
	if (redactor === undefined) return (value) => value;
	return (value) => redactWith(value, redactor);
}

function redactWith<T>(value: T, redactor: Redactor): T {
	const copies = new Map<object, object>();
	const pending: Array<[source: object, copy: object]> = [];
	const convert = (member: unknown): unknown => {
		if (typeof member === 'string') return redactor(member);
		if (!isContainer(member)) return member;
		let copy = copies.get(member);
		if (copy === undefined) {
			copy = Array.isArray(member) ? [] : {};
			copies.set(member, copy);
			pending.push([member, copy]);
		}
		return copy;
	};
	const result = convert(value) as T;
	while (pending.length > 0) {
		const [source, copy] = pending.pop() as [object, object];
		if (Array.isArray(source)) {
			for (const item of source) (copy as unknown[]).push(convert(item));
			continue;
		}
		for (const [key, member] of Object.entries(source)) {
			const name = freeName(copy, redactor(key), redactor);
			if (name !== undefined) setOwnValue(copy, name, convert(member));
		}
	}
	return result;
}

const MAX_KEY_SUFFIX = 100;

/**
 * `name`, or `name_2`, `name_3`, ... when taken; a suffix that would spell a secret is skipped, so
 * in the end a member may have no name to go under.
 */
function freeName(object: object, name: string, redactor: Redactor): string | undefined {
	if (!Object.prototype.hasOwnProperty.call(object, name)) return name;
	for (let suffix = 2; suffix <= MAX_KEY_SUFFIX; suffix++) {
		const candidate = `${name}_${suffix}`;
		if (
			!Object.prototype.hasOwnProperty.call(object, candidate) &&
			redactor(candidate) === candidate
		)
			return candidate;
	}
	return undefined;
}

function isContainer(value: unknown): value is object {
	if (typeof value !== 'object' || value === null) return false;
	if (Array.isArray(value)) return true;
	const prototype: unknown = Object.getPrototypeOf(value);
	return prototype === Object.prototype || prototype === null;
}

type Redactor = (text: string) => string;

/**
 * One redactor per call: the forms and the marker are worked out once for all the texts it reads.
 */
function redactorFor(secrets: readonly unknown[]): Redactor | undefined {
	const forms = new Set<string>();
	for (const secret of secrets) {
		if (typeof secret !== 'string' || secret.trim() === '') continue;
		for (const value of new Set([secret, secret.trim()]))
			for (const form of writtenForms(value)) forms.add(form);
	}
	if (forms.size === 0) return undefined;
	const list = [...forms];
	const shortest = Math.min(...list.map((form) => form.length));
	const marker = markerFor(list);
	return (text) => (text.length < shortest ? text : redactForms(text, list, marker));
}

/** The ways a server may write `secret` back. */
function writtenForms(secret: string): string[] {
	const json = JSON.stringify(secret).slice(1, -1);
	const asciiJson = json
		.replace(/\//g, '\\/')
		.replace(/[^\0-\x7f]/g, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);
	const forms = [
		secret,
		decodeWithOrigins(secret).text,
		json,
		asciiJson,
		asciiJson.replace(/\\u[\da-f]{4}/g, (escape) => `\\u${escape.slice(2).toUpperCase()}`),
	];
	const url = urlEncoded(secret);
	if (url !== undefined) {
		// Also with !'()* encoded (RFC 3986, PHP's rawurlencode), and each of those with + for a space.
		const strict = url.replace(
			/[!'()*]/g,
			(char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`,
		);
		for (const encoded of [url, strict]) {
			for (const spaced of [encoded, encoded.replace(/%20/g, '+')]) {
				forms.push(
					spaced,
					spaced.replace(/%[\dA-F]{2}/g, (escape) => escape.toLowerCase()),
				);
			}
		}
	}
	return forms.filter((form) => form !== '');
}

function urlEncoded(text: string): string | undefined {
	try {
		return encodeURIComponent(text);
	} catch {
		// A lone surrogate has no UTF-8 form, so a server cannot have URL-encoded it either.
		return undefined;
	}
}

function redactForms(text: string, forms: readonly string[], marker: string): string {
	const { text: decoded, origins } = decodeWithOrigins(text);
	// cover[i] - cover[i-1], in positions of `text`: how many found places start
	// at i minus how many end there.
	let cover: Int32Array | undefined;
	const mark = (from: number, to: number) => {
		cover ??= new Int32Array(text.length + 1);
		cover[from]++;
		cover[to]--;
	};
	// A place found in the decoded text covers the whole characters it came from.
	const original = (index: number) => (origins === undefined ? index : origins[index]);
	for (const form of forms) {
		// Overlapping places too: each found place is looked past by one
		// unit, not by the form's length.
		for (let at = decoded.indexOf(form); at !== -1; at = decoded.indexOf(form, at + 1))
			mark(original(at), original(at + form.length));
		// Decoding can swallow a secret written as is ("&#0" holds "#"): the
		// text as written is searched too.
		if (origins === undefined) continue;
		for (let at = text.indexOf(form); at !== -1; at = text.indexOf(form, at + 1))
			mark(at, at + form.length);
	}
	if (cover === undefined) return text;
	const pieces: string[] = [];
	let copiedUpTo = 0;
	let depth = 0;
	for (let index = 0; index <= text.length; index++) {
		const before = depth;
		depth += cover[index];
		// Places that overlap or touch make one covered range, written as one marker.
		if (before === 0 && depth > 0) pieces.push(text.slice(copiedUpTo, index), marker);
		if (before > 0 && depth === 0) copiedUpTo = index;
	}
	pieces.push(text.slice(copiedUpTo));
	return pieces.join('');
}

/**
 * "[redacted]", unless a form could be read in it or across its edge (a form
 * inside it, containing it, ending in its start or starting with its end);
 * then three of a character no form contains, so no form can be read there.
 */
function markerFor(forms: readonly string[]): string {
	if (forms.every((form) => !overlapsMarker(form, REDACTED))) return REDACTED;
	for (let code = 0x2588; ; code++) {
		const char = String.fromCharCode(code);
		if (forms.every((form) => !form.includes(char))) return char.repeat(3);
	}
}

function overlapsMarker(form: string, marker: string): boolean {
	if (form.includes(marker) || marker.includes(form)) return true;
	for (let length = 1; length < Math.min(form.length, marker.length); length++) {
		if (form.endsWith(marker.slice(0, length)) || form.startsWith(marker.slice(-length)))
			return true;
	}
	return false;
}

/**
 * At most `limit` UTF-16 units and "…", never cutting a character written with two units in half.
 */
function shorten(text: string, limit: number): string {
	if (text.length <= limit) return text;
	const last = text.charCodeAt(limit - 1);
	const cut = last >= 0xd800 && last <= 0xdbff ? limit - 1 : limit;
	return `${text.slice(0, cut)}…`;
}
