import * as jsonBytes from './jsonBytes';
import { parseJson, parseScalar, UNREADABLE } from './jsonPiece';

// Read into module constants once: the hot loops compare every byte with them, and a
// loader that compiles imports to getters (tsx, which runs the tests and the
// benchmark) would call one per byte.
const {
	BACKSLASH,
	CLOSE_BRACE,
	CLOSE_BRACKET,
	COLON,
	COMMA,
	endsScalar,
	OPEN_BRACE,
	OPEN_BRACKET,
	QUOTE,
	skipWhitespace,
	startsEmptyScalar,
} = jsonBytes;

// An object element that lies whole in one chunk, read in one loop with everything in local
// variables: most elements do, and the scanner's states (jsonStreamScanner.ts) pay a dispatch and a
// field write per token. It reads the same summary the states would and accepts only what they
// accept; anything else (the chunk ends first, any fault of structure) returns NOT_WHOLE, and the
// states read the element from its first byte as if this had not run.

export const NOT_WHOLE = -1;

export interface SummaryKeys {
	readonly names: readonly string[];
	/** Each name as it appears on the wire, quotes included. */
	readonly quoted: readonly Buffer[];
}

/**
 * Reads the element whose opening brace is at `start`: fills `summary` and
 * returns the index just past its closing brace, or NOT_WHOLE. `closers` is
 * scratch space, empty on entry and on return.
 */
export function readWholeElement(
	chunk: Buffer,
	start: number,
	keys: SummaryKeys,
	summary: Record<string, unknown>,
	closers: number[],
): number {
	const n = chunk.length;
	let i = skipWhitespace(chunk, start + 1);
	if (i < n && chunk[i] === CLOSE_BRACE) return i + 1;
	while (i < n) {
		if (chunk[i] !== QUOTE) return NOT_WHOLE;
		const keyStart = i;
		let escaped = false;
		i++;
		while (i < n) {
			const byte = chunk[i];
			if (byte === QUOTE) break;
			if (byte === BACKSLASH) escaped = true;
			i += byte === BACKSLASH ? 2 : 1;
		}
		if (i >= n) return NOT_WHOLE;
		i++;
		const summaryKey = escaped
			? decodedSummaryKey(chunk, keyStart, i, keys)
			: spelledSummaryKey(chunk, keyStart, i, keys);

		i = skipWhitespace(chunk, i);
		if (i >= n || chunk[i] !== COLON) return NOT_WHOLE;
		i = skipWhitespace(chunk, i + 1);
		if (i >= n) return NOT_WHOLE;

		const valueStart = i;
		const first = chunk[i];
		const nested = first === OPEN_BRACE || first === OPEN_BRACKET;
		if (first === QUOTE) {
			i = stringEnd(chunk, i + 1, n);
			if (i === NOT_WHOLE) return NOT_WHOLE;
		} else if (nested) {
			i = nestedEnd(chunk, i, n, closers);
			if (i === NOT_WHOLE) return NOT_WHOLE;
		} else {
			if (startsEmptyScalar(first)) return NOT_WHOLE;
			while (i < n && !endsScalar(chunk[i])) i++;
			if (i >= n) return NOT_WHOLE;
		}
		if (summaryKey !== undefined) {
			// As in JSON.parse the last value of a repeated key wins, even one that is not a scalar.
			const value = nested ? UNREADABLE : parseScalar(chunk, valueStart, i);
			if (value === UNREADABLE) delete summary[summaryKey];
			else summary[summaryKey] = value;
		}

		i = skipWhitespace(chunk, i);
		if (i >= n) return NOT_WHOLE;
		const separator = chunk[i];
		if (separator === CLOSE_BRACE) return i + 1;
		if (separator !== COMMA) return NOT_WHOLE;
		i = skipWhitespace(chunk, i + 1);
	}
	return NOT_WHOLE;
}

/** Which summary key the bytes of a key without escapes spell (quotes included), or undefined. */
export function spelledSummaryKey(
	chunk: Buffer,
	start: number,
	end: number,
	keys: SummaryKeys,
): string | undefined {
	const length = end - start;
	for (let k = 0; k < keys.quoted.length; k++) {
		const candidate = keys.quoted[k];
		if (candidate.length !== length) continue;
		let same = true;
		for (let j = 1; j < length - 1 && same; j++) same = chunk[start + j] === candidate[j];
		if (same) return keys.names[k];
	}
	return undefined;
}

/**
 * Which summary key a key with escapes decodes to, or undefined (also for one that does not parse).
 */
export function decodedSummaryKey(
	chunk: Buffer,
	start: number,
	end: number,
	keys: SummaryKeys,
): string | undefined {
	const key = parseJson(chunk, start, end);
	return typeof key === 'string' && keys.names.includes(key) ? key : undefined;
}

/** From inside a string: just past its closing quote, or NOT_WHOLE. */
function stringEnd(chunk: Buffer, i: number, n: number): number {
	while (i < n) {
		const byte = chunk[i];
		if (byte === QUOTE) return i + 1;
		i += byte === BACKSLASH ? 2 : 1;
	}
	return NOT_WHOLE;
}

/** From a nested value's opening byte: just past its matching close, or NOT_WHOLE. */
function nestedEnd(chunk: Buffer, i: number, n: number, closers: number[]): number {
	closers.length = 0;
	while (i < n) {
		const byte = chunk[i++];
		if (byte === QUOTE) {
			i = stringEnd(chunk, i, n);
			if (i === NOT_WHOLE) break;
		} else if (byte === OPEN_BRACE) closers.push(CLOSE_BRACE);
		else if (byte === OPEN_BRACKET) closers.push(CLOSE_BRACKET);
		else if (byte === CLOSE_BRACE || byte === CLOSE_BRACKET) {
			if (closers.pop() !== byte) break;
			if (closers.length === 0) return i;
		}
	}
	closers.length = 0;
	return NOT_WHOLE;
}
