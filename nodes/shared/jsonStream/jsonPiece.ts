import * as jsonBytes from './jsonBytes';

// Reading a small piece of an answer in place: a key, a field of the
// answer, or a scalar of an element.

// Read into module constants once: the hot loops compare every byte with them, and a
// loader that compiles imports to getters (tsx, which runs the tests and the
// benchmark) would call one per byte.
const { BACKSLASH, QUOTE } = jsonBytes;

/** What parseJson gives for a piece that is not JSON. */
export const UNREADABLE = Symbol('unreadable');

/** JSON.parse of a small piece, or UNREADABLE. */
export function parseJson(bytes: Buffer, start: number, end: number): unknown {
	try {
		return JSON.parse(bytes.toString('utf8', start, end)) as unknown;
	} catch {
		return UNREADABLE;
	}
}

/**
 * A scalar of an element's summary. Whole numbers and strings without escapes, which is what
 * ids and timestamps are, are read straight from the bytes; anything else
 * by JSON.parse, which also rejects what is not JSON (UNREADABLE).
 */
export function parseScalar(bytes: Buffer, start: number, end: number): unknown {
	const first = bytes[start];
	if (first === QUOTE) {
		let ascii = true;
		for (let i = start + 1; i < end - 1; i++) {
			const byte = bytes[i];
			if (byte === BACKSLASH || byte < 0x20) return parseJson(bytes, start, end);
			if (byte >= 0x80) ascii = false;
		}
		return bytes.toString(ascii ? 'latin1' : 'utf8', start + 1, end - 1);
	}
	const negative = first === 0x2d;
	const digitsFrom = negative ? start + 1 : start;
	const digits = end - digitsFrom;
	// Up to 15 digits is exact in a double; a leading zero is not JSON and
	// goes to JSON.parse to be refused.
	if (digits < 1 || digits > 15 || (bytes[digitsFrom] === 0x30 && digits > 1))
		return parseJson(bytes, start, end);
	let value = 0;
	for (let i = digitsFrom; i < end; i++) {
		const digit = bytes[i] - 0x30;
		if (digit < 0 || digit > 9) return parseJson(bytes, start, end);
		value = value * 10 + digit;
	}
	return negative ? -value : value;
}
