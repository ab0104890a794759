/** The bytes of JSON's structure, as the scanner and the whole-element loop compare them. */
export const QUOTE = 0x22;
export const BACKSLASH = 0x5c;
export const OPEN_BRACE = 0x7b;
export const CLOSE_BRACE = 0x7d;
export const OPEN_BRACKET = 0x5b;
export const CLOSE_BRACKET = 0x5d;
export const COMMA = 0x2c;
export const COLON = 0x3a;

/** JSON's four white space bytes. */
export function isWhitespace(byte: number | undefined): boolean {
	return byte === 0x20 || byte === 0x0a || byte === 0x0d || byte === 0x09;
}

/** The first index from `i` that is not white space (the length when there is none). */
export function skipWhitespace(bytes: Buffer, i: number): number {
	while (i < bytes.length && isWhitespace(bytes[i])) i++;
	return i;
}

/** Whether a value starting with this byte is an empty scalar, which is not JSON. */
export function startsEmptyScalar(byte: number | undefined): boolean {
	return byte === COMMA || byte === CLOSE_BRACE || byte === CLOSE_BRACKET || byte === COLON;
}

/** Whether this byte ends a scalar (a number, true, false, null or a bare word). */
export function endsScalar(byte: number | undefined): boolean {
	return byte === COMMA || byte === CLOSE_BRACE || byte === CLOSE_BRACKET || isWhitespace(byte);
}
