// Reading text out of HTML that a server or a proxy sent, in linear time on
// any input: tags are cut out by scanning for `<` and `>` with indexOf, not
// by a pattern, and character references are decoded by one pattern whose
// every match starts at `&` and reads one run of digits or letters.

/**
 * Named references decoded: the ones HTML escaping produces (amp, lt, gt,
 * quot, apos, nbsp) and HTML's names for the other ASCII punctuation, so an
 * echoed secret written with them is still recognised. Others stay as written.
 * A Map, so names such as `constructor` find nothing.
 */
const NAMED_REFERENCES = new Map<string, string>(
	Object.entries({
		amp: '&',
		AMP: '&',
		lt: '<',
		LT: '<',
		gt: '>',
		GT: '>',
		quot: '"',
		QUOT: '"',
		apos: "'",
		nbsp: '\u00a0',
		excl: '!',
		num: '#',
		dollar: '$',
		percnt: '%',
		lpar: '(',
		rpar: ')',
		ast: '*',
		midast: '*',
		plus: '+',
		comma: ',',
		period: '.',
		sol: '/',
		colon: ':',
		semi: ';',
		equals: '=',
		quest: '?',
		commat: '@',
		lsqb: '[',
		lbrack: '[',
		bsol: '\\',
		rsqb: ']',
		rbrack: ']',
		Hat: '^',
		lowbar: '_',
		UnderBar: '_',
		grave: '`',
		DiacriticalGrave: '`',
		lcub: '{',
		lbrace: '{',
		verbar: '|',
		vert: '|',
		VerticalLine: '|',
		rcub: '}',
		rbrace: '}',
		Tab: '\t',
		NewLine: '\n',
	}),
);

/** `&#45;` / `&#45` (decimal), `&#x2d;` (hexadecimal), `&name;` (named). */
const CHARACTER_REFERENCE = /&(?:#(\d+);?|#x([\da-f]+);?|([a-z][a-z\d]*);)/gi;
/** Text encoded twice (`&amp;#45;`) is decoded again, this many times at most. */
const MAX_DECODE_ROUNDS = 3;

export function decodeHtmlEntities(text: string): string {
	return decodeWithOrigins(text).text;
}

/**
 * The decoded text, and for each of its UTF-16 units the index in `text`
 * where the character it came from starts (one more entry: text.length), so
 * a range found in the decoded text maps back to whole characters of `text`.
 */
export function decodeWithOrigins(text: string): { text: string; origins: number[] | undefined } {
	let current = text;
	// undefined: every unit maps to its own index (nothing decoded yet).
	let origins: number[] | undefined;
	for (let round = 0; round < MAX_DECODE_ROUNDS && current.includes('&'); round++) {
		const decoded = decodeOnce(current);
		if (decoded.text === current) break;
		origins =
			origins === undefined
				? decoded.origins
				: decoded.origins.map((index) => (origins as number[])[index]);
		current = decoded.text;
	}
	return { text: current, origins };
}

function decodeOnce(text: string): { text: string; origins: number[] } {
	const pieces: string[] = [];
	const origins: number[] = [];
	let copiedUpTo = 0;
	const copy = (from: number, to: number) => {
		pieces.push(text.slice(from, to));
		for (let index = from; index < to; index++) origins.push(index);
	};
	for (const match of text.matchAll(CHARACTER_REFERENCE)) {
		const [reference, decimal, hex, name] = match;
		const start = match.index;
		const character =
			name !== undefined
				? NAMED_REFERENCES.get(name)
				: codePointText(decimal !== undefined ? Number(decimal) : parseInt(hex, 16));
		if (character === undefined) continue;
		copy(copiedUpTo, start);
		pieces.push(character);
		for (let unit = 0; unit < character.length; unit++) origins.push(start);
		copiedUpTo = start + reference.length;
	}
	copy(copiedUpTo, text.length);
	origins.push(text.length);
	return { text: pieces.join(''), origins };
}

/**
 * A numeric reference to no character (0, a surrogate, beyond U+10FFFF)
 * reads as U+FFFD, as in browsers.
 */
function codePointText(codePoint: number): string {
	const valid =
		codePoint > 0 && codePoint <= 0x10ffff && (codePoint < 0xd800 || codePoint > 0xdfff);
	return valid ? String.fromCodePoint(codePoint) : '\ufffd';
}

/**
 * The readable text of an HTML page: script and style contents and tags
 * removed, character references decoded, white space collapsed. As in a
 * browser, `<` starts a tag only before a letter, `/`, `!` or `?`, and an
 * unclosed script or style runs to the end; a tag with no `>` after it is
 * kept as text.
 */
export function htmlToText(html: string): string {
	const lower = html.toLowerCase();
	// toLowerCase keeps the length of ASCII text; when it does not, tags
	// are found in the page as written.
	const search = lower.length === html.length ? lower : html;
	const pieces: string[] = [];
	let position = 0;
	// The next `>` found so far: searches only move forward, so the whole scan is linear.
	let close = -1;
	while (position < html.length) {
		const open = html.indexOf('<', position);
		if (open === -1) break;
		if (!startsTag(html.charAt(open + 1))) {
			pieces.push(html.slice(position, open + 1));
			position = open + 1;
			continue;
		}
		if (close <= open) close = html.indexOf('>', open + 1);
		if (close === -1) break;
		pieces.push(html.slice(position, open), ' ');
		position = close + 1;
		const element = rawTextElementAt(search, open);
		if (element === undefined) continue;
		const end = search.indexOf(`</${element}`, position);
		if (end === -1) return finish(pieces);
		close = html.indexOf('>', end);
		if (close === -1) return finish(pieces);
		position = close + 1;
	}
	pieces.push(html.slice(position));
	return finish(pieces);
}

function startsTag(char: string): boolean {
	return (
		char === '/' ||
		char === '!' ||
		char === '?' ||
		(char >= 'a' && char <= 'z') ||
		(char >= 'A' && char <= 'Z')
	);
}

function finish(pieces: string[]): string {
	return decodeHtmlEntities(pieces.join('')).replace(/\s+/g, ' ').trim();
}

/** `script` or `style` when an opening tag of one starts at `open`. */
function rawTextElementAt(search: string, open: number): 'script' | 'style' | undefined {
	for (const element of ['script', 'style'] as const) {
		if (!search.startsWith(element, open + 1)) continue;
		const after = search.charAt(open + 1 + element.length);
		if (after === '>' || after === '/' || after.trim() === '') return element;
	}
	return undefined;
}
