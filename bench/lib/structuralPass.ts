/**
 * The least a JavaScript reader that follows JSON's structure does with an
 * answer: every byte looked at once, each string's end found past its
 * escapes, brackets counted; nothing read out, nothing kept. A baseline for
 * the trigger's scan (nodes/shared/jsonStream), which does this and also
 * reads keys, each record's summary fields and its bounds.
 */
export interface StructuralCount {
	strings: number;
	/** Opening brackets and braces; a well-formed answer closes as many. */
	opened: number;
	closed: number;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;

export function structuralPass(bytes: Uint8Array): StructuralCount {
	const n = bytes.length;
	let strings = 0;
	let opened = 0;
	let closed = 0;
	let i = 0;
	while (i < n) {
		const byte = bytes[i++];
		if (byte === QUOTE) {
			strings++;
			while (i < n) {
				const inner = bytes[i];
				if (inner === QUOTE) break;
				i += inner === BACKSLASH ? 2 : 1;
			}
			i++;
		} else if (byte === 0x7b || byte === 0x5b) opened++;
		else if (byte === 0x7d || byte === 0x5d) closed++;
	}
	return { strings, opened, closed };
}
