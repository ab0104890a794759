// Where and why a text is not JSON, in words a user can act on ("a bare word hello at character
// 12"), for the warning on a record that arrived broken. JSON.parse's own message differs between
// Node versions and does not always say where. Run only on a text JSON.parse refused, so it costs
// nothing on the usual path; iterative, so deep nesting cannot overflow the stack.

export interface JsonProblem {
	what: string;
	/** 0-based index of the character where the text stops being JSON. */
	at: number;
}

/**
 * What the next token must be ("first": right after an opening bracket or
 * brace, where it may close instead).
 */
type Expected = 'value' | 'firstValue' | 'key' | 'firstKey' | 'colon' | 'afterValue';

/** Longest piece of the text quoted in a problem. */
const QUOTED_MAX = 20;

/** The first problem in `text`, or undefined when it is JSON. */
export function jsonProblem(text: string): JsonProblem | undefined {
	/** The closing character of each list and object open around the current position. */
	const open: Array<'}' | ']'> = [];
	let expect: Expected = 'value';
	let i = 0;
	for (;;) {
		i = skipWhitespace(text, i);
		if (i >= text.length) {
			return expect === 'afterValue' && open.length === 0
				? undefined
				: { what: 'the text ends too early', at: i };
		}
		const char = text[i];
		if ((expect === 'firstValue' && char === ']') || (expect === 'firstKey' && char === '}')) {
			// An empty list or object.
			open.pop();
			i++;
			expect = 'afterValue';
			continue;
		}
		switch (expect) {
			case 'firstValue':
			case 'value': {
				if (char === '{' || char === '[') {
					open.push(char === '{' ? '}' : ']');
					i++;
					expect = char === '{' ? 'firstKey' : 'firstValue';
				} else {
					const end = char === '"' ? stringEnd(text, i) : scalarEnd(text, i);
					if (typeof end !== 'number') return end;
					i = end;
					expect = 'afterValue';
				}
				break;
			}
			case 'firstKey':
			case 'key': {
				if (char !== '"')
					return { what: `a key that is not a string: ${quoted(pieceAt(text, i))}`, at: i };
				const end = stringEnd(text, i);
				if (typeof end !== 'number') return end;
				i = end;
				expect = 'colon';
				break;
			}
			case 'colon': {
				if (char !== ':')
					return { what: `${quoted(pieceAt(text, i))} where a colon belongs`, at: i };
				i++;
				expect = 'value';
				break;
			}
			default: {
				const close = open[open.length - 1];
				if (close === undefined)
					return { what: `text after the end: ${quoted(pieceAt(text, i))}`, at: i };
				if (char === ',') {
					i++;
					expect = close === '}' ? 'key' : 'value';
				} else if (char === close) {
					open.pop();
					i++;
				} else {
					return { what: `${quoted(pieceAt(text, i))} where a comma or ${close} belongs`, at: i };
				}
			}
		}
	}
}

/** Just past the string starting at `start` (its opening quote), or what is wrong inside it. */
function stringEnd(text: string, start: number): number | JsonProblem {
	for (let i = start + 1; i < text.length; i++) {
		const code = text.charCodeAt(i);
		if (code === 0x22) return i + 1;
		if (code < 0x20) {
			return {
				what: `a control character (U+${code.toString(16).toUpperCase().padStart(4, '0')}) inside a string`,
				at: i,
			};
		}
		if (code !== 0x5c) continue;
		const escaped = text[i + 1];
		if (escaped === 'u') {
			const hex = text.slice(i + 2, i + 6);
			if (!isHex4(hex)) return { what: `a bad escape ${quoted(`\\u${hex}`)}`, at: i };
			i += 5;
		} else if (escaped !== undefined && '"\\/bfnrt'.includes(escaped)) {
			i++;
		} else {
			return escaped === undefined
				? { what: 'a string that never ends', at: start }
				: { what: `a bad escape ${quoted(`\\${escaped}`)}`, at: i };
		}
	}
	return { what: 'a string that never ends', at: start };
}

/** Just past the number, true, false or null starting at `start`, or what stands there instead. */
function scalarEnd(text: string, start: number): number | JsonProblem {
	const token = tokenAt(text, start);
	if (token === '') return { what: `${quoted(text[start])} where a value belongs`, at: start };
	if (token === 'true' || token === 'false' || token === 'null' || isJsonNumber(token))
		return start + token.length;
	const looksNumeric = /^[-\d]/.test(token);
	return { what: `${looksNumeric ? 'a bad number' : 'a bare word'} ${quoted(token)}`, at: start };
}

/** What stands at `start`, for a message: its token, or the one character there. */
function pieceAt(text: string, start: number): string {
	return tokenAt(text, start) || text[start];
}

/** The run of characters from `start` up to the next separator, whitespace or quote. */
function tokenAt(text: string, start: number): string {
	let end = start;
	while (end < text.length && !',:[]{}" \t\n\r'.includes(text[end])) end++;
	return text.slice(start, end);
}

/**
 * -?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)? by hand: the token may be long, and a
 * regex here would read server text.
 */
function isJsonNumber(token: string): boolean {
	let i = token[0] === '-' ? 1 : 0;
	const digits = (): number => {
		const from = i;
		while (i < token.length && token[i] >= '0' && token[i] <= '9') i++;
		return i - from;
	};
	if (token[i] === '0') i++;
	else if (digits() === 0) return false;
	if (token[i] === '.') {
		i++;
		if (digits() === 0) return false;
	}
	if (token[i] === 'e' || token[i] === 'E') {
		i++;
		if (token[i] === '+' || token[i] === '-') i++;
		if (digits() === 0) return false;
	}
	return i === token.length;
}

function isHex4(text: string): boolean {
	if (text.length !== 4) return false;
	for (const char of text) if (!'0123456789abcdefABCDEF'.includes(char)) return false;
	return true;
}

function skipWhitespace(text: string, i: number): number {
	while (
		i < text.length &&
		(text[i] === ' ' || text[i] === '\t' || text[i] === '\n' || text[i] === '\r')
	)
		i++;
	return i;
}

/** A piece of the text as JSON would write it (control characters visible), shortened. */
function quoted(piece: string): string {
	return JSON.stringify(piece.length > QUOTED_MAX ? `${piece.slice(0, QUOTED_MAX)}…` : piece);
}
