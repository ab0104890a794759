import fc from 'fast-check';

import type { ScanOutcome } from '../../../../nodes/shared/jsonStream/jsonStreamScanner';
import { jsonProblem } from '../../../../nodes/shared/jsonStream/jsonProblem';
import {
	InquiryStreamScanner,
	readInquiryStream,
} from '../../../../nodes/AppBuilder/inquiries/readInquiryStream';
import { isUnreadableInquiry } from '../../../../nodes/AppBuilder/inquiries/unreadableInquiry';
import { EveryRecord } from '../../../support/everyRecord';
import { caseCount } from '../../../support/testSize';

/**
 * The stream scanner checked against JSON.parse on answers in the API's
 * shape and near it, written out with random layout and escapes, and fed in
 * random chunks (cut inside multi-byte characters and escapes too):
 * - a valid answer is read exactly as JSON.parse reads it;
 * - an answer invalid only inside one record is read whole, the other
 *   records exactly, the broken one handed over as its own text;
 * - an answer whose structure is broken is never read as complete.
 */

// ---- A model of a JSON document, written out with chosen layout -------------------------------

/** A fault written into a string: a raw control character or a bad escape. */
type Fault = { at: number; text: string };
type Json =
	| { t: 'str'; v: string; fault?: Fault }
	| { t: 'num'; text: string }
	| { t: 'lit'; text: 'true' | 'false' | 'null' }
	/** Text written as it is (a bare word: not JSON). */
	| { t: 'raw'; text: string }
	| { t: 'arr'; items: Json[] }
	| { t: 'obj'; entries: Entry[] };
type Entry = { key: Json & { t: 'str' }; value: Json };

const SUMMARY_KEYS = ['_id', 'requestId', 'addedon', 'updatedon'];

/** A small deterministic random source, so one seed gives one layout. */
function randomSource(seed: number): () => number {
	let state = seed >>> 0 || 1;
	return () => {
		state ^= state << 13;
		state ^= state >>> 17;
		state ^= state << 5;
		return (state >>> 0) / 0x100000000;
	};
}

const SHORT_ESCAPES: Record<number, string> = {
	0x22: '\\"',
	0x5c: '\\\\',
	0x08: '\\b',
	0x0c: '\\f',
	0x0a: '\\n',
	0x0d: '\\r',
	0x09: '\\t',
	0x2f: '\\/',
};
const WHITESPACE = ['', '', '', '', ' ', '\n', '\t', '\r\n  '];

class Writer {
	constructor(private readonly random: () => number) {}

	private ws(): string {
		return WHITESPACE[Math.floor(this.random() * WHITESPACE.length)];
	}

	value(json: Json): string {
		switch (json.t) {
			case 'str':
				return this.string(json.v, json.fault);
			case 'num':
			case 'lit':
			case 'raw':
				return json.text;
			case 'arr':
				if (json.items.length === 0) return `[${this.ws()}]`;
				return `[${json.items.map((item) => this.ws() + this.value(item) + this.ws()).join(',')}]`;
			case 'obj':
				if (json.entries.length === 0) return `{${this.ws()}}`;
				return `{${json.entries.map((entry) => this.entry(entry)).join(',')}}`;
		}
	}

	entry(entry: Entry): string {
		return `${this.ws()}${this.string(entry.key.v, entry.key.fault)}${this.ws()}:${this.ws()}${this.value(entry.value)}${this.ws()}`;
	}

	/** A string with escapes where JSON needs them and, at random, where it does not. */
	string(text: string, fault?: Fault): string {
		const units: string[] = [];
		for (let i = 0; i < text.length; i++) {
			const code = text.charCodeAt(i);
			const lone = code >= 0xd800 && code <= 0xdfff && !isPair(text, i);
			const must = code < 0x20 || code === 0x22 || code === 0x5c || lone;
			const roll = this.random();
			if (must || roll < 0.15) {
				const short = SHORT_ESCAPES[code];
				const hex = code.toString(16).padStart(4, '0');
				units.push(
					short !== undefined && (roll < 0.1 || code === 0x22 || code === 0x5c)
						? short
						: `\\u${roll < 0.05 ? hex.toUpperCase() : hex}`,
				);
			} else if (isPair(text, i)) {
				units.push(text.slice(i, i + 2));
				i++;
			} else {
				units.push(text[i]);
			}
		}
		if (fault) units.splice(Math.floor(fault.at * (units.length + 1)), 0, fault.text);
		return `"${units.join('')}"`;
	}
}

function isPair(text: string, i: number): boolean {
	const code = text.charCodeAt(i);
	const next = text.charCodeAt(i + 1);
	return code >= 0xd800 && code <= 0xdbff && next >= 0xdc00 && next <= 0xdfff;
}

// ---- Generators in the API's shape -----------------------------------------------------------

const str = (v: string): Json & { t: 'str' } => ({ t: 'str', v });
const awkward = fc.oneof(
	fc.string({ maxLength: 10 }),
	fc.string({ unit: 'binary', maxLength: 8 }),
	fc.string({ unit: 'grapheme', maxLength: 6 }),
	fc.constantFrom(
		'é',
		'😀',
		'a\u2028b',
		'"',
		'\\',
		'\\"',
		'}',
		']',
		'{"_id":"fake"}',
		'"_id"',
		',',
		':',
		'\u0000\u001f',
		'ü\u00e9\u{1F600}',
	),
);
const strJson = awkward.map(str);
/** Number texts JSON allows: integers, fractions, exponents, big and negative ones. */
const numberText = fc.oneof(
	fc.integer({ min: -1e6, max: 2e12 }).map(String),
	fc.double({ noNaN: true, noDefaultInfinity: true }).map((n) => JSON.stringify(n)),
	fc
		.tuple(
			fc.integer({ min: -99, max: 99 }),
			fc.nat(999),
			fc.constantFrom('e', 'E', 'e+', 'e-', 'E-'),
			fc.nat(12),
		)
		.map(([whole, fraction, e, exponent]) => `${whole}.${fraction}${e}${exponent}`),
	fc.constantFrom(
		'-0',
		'0',
		'0.0',
		'1E5',
		'1.7e9',
		'17000000e2',
		'12345678901234567890',
		'1700000000.5',
		'-1e-7',
	),
);
const numJson = numberText.map((text): Json => ({ t: 'num', text }));
const litJson = fc.constantFrom<Json>(
	{ t: 'lit', text: 'true' },
	{ t: 'lit', text: 'false' },
	{ t: 'lit', text: 'null' },
);
const anyJson: fc.Arbitrary<Json> = fc.letrec<{ value: Json }>((tie) => ({
	value: fc.oneof(
		{ depthSize: 'small' },
		strJson,
		numJson,
		litJson,
		fc.array(tie('value'), { maxLength: 3 }).map((items): Json => ({ t: 'arr', items })),
		fc
			.array(fc.record({ key: strJson, value: tie('value') }), { maxLength: 3 })
			.map((entries): Json => ({ t: 'obj', entries })),
	),
})).value;

const formData = fc.array(fc.tuple(awkward, awkward, awkward), { maxLength: 4 }).map(
	(columns): Json => ({
		t: 'arr',
		items: [0, 1, 2].map((row) => ({
			t: 'arr',
			items: columns.map((column) => str(column[row])),
		})),
	}),
);
const formbuilderData = fc
	.array(
		fc.record({
			fieldName: awkward,
			fieldIdentifire: awkward,
			fieldLabel: awkward,
			fieldValue: awkward,
		}),
		{ maxLength: 3 },
	)
	.map((fields) => str(JSON.stringify(fields)));
const time = fc.oneof(
	numJson,
	fc.integer({ min: 1e9, max: 2e9 }).map((n) => str(String(n))),
	litJson,
);
const recordFields: Record<string, fc.Arbitrary<Json>> = {
	_id: fc.oneof(fc.stringMatching(/^[0-9a-f]{24}$/).map(str), strJson, numJson, anyJson),
	appId: strJson,
	pageId: fc.constant(str('formbuilder_1001_1')),
	requestId: fc.oneof(strJson, numJson),
	subject: strJson,
	requestPage: strJson,
	formName: strJson,
	formData,
	formbuilderData,
	paymentStatus: fc.constant(str('free')),
	mailStatus: numJson,
	status: numJson,
	readStatus: numJson,
	addedon: time,
	updatedon: time,
};
/** A record: the spec's fields in any order, some left out, some given twice, sometimes one more. */
const record: fc.Arbitrary<Json & { t: 'obj' }> = fc
	.tuple(
		fc.record(recordFields, { requiredKeys: [] }),
		fc.array(
			fc.record({
				key: fc.oneof(strJson, fc.constantFrom(...SUMMARY_KEYS).map(str)),
				value: anyJson,
			}),
			{ maxLength: 2 },
		),
		fc.nat(),
	)
	.map(([fields, extra, seed]) => {
		const entries: Entry[] = Object.entries(fields).map(([key, value]) => ({
			key: str(key),
			value: value as Json,
		}));
		const random = randomSource(seed);
		for (const entry of extra)
			entries.splice(Math.floor(random() * (entries.length + 1)), 0, entry);
		return { t: 'obj', entries: shuffle(entries, random) };
	});

function shuffle<T>(items: T[], random: () => number): T[] {
	const copy = [...items];
	for (let i = copy.length - 1; i > 0; i--) {
		const j = Math.floor(random() * (i + 1));
		[copy[i], copy[j]] = [copy[j], copy[i]];
	}
	return copy;
}

interface Answer {
	bom: boolean;
	entries: Entry[];
}

/** An answer in the API's shape, or near it: other fields, no data, data null, elements that are not records. */
const answer: fc.Arbitrary<Answer> = fc
	.record({
		bom: fc.boolean(),
		status: fc.oneof(fc.constant(str('success')), strJson),
		msg: strJson,
		data: fc.oneof(
			{
				weight: 8,
				arbitrary: fc
					.array(fc.oneof({ weight: 6, arbitrary: record }, { weight: 1, arbitrary: anyJson }), {
						maxLength: 6,
					})
					.map((items): Json => ({ t: 'arr', items })),
			},
			{ weight: 1, arbitrary: fc.constant<Json | undefined>(undefined) },
			{ weight: 1, arbitrary: fc.constant<Json>({ t: 'lit', text: 'null' }) },
		),
		extra: fc.array(
			fc.record({
				key: awkward
					.filter((key) => !['data', 'status', 'msg', '__proto__'].includes(key))
					.map(str),
				value: anyJson,
			}),
			{ maxLength: 2 },
		),
		seed: fc.nat(),
	})
	.map(({ bom, status, msg, data, extra, seed }) => {
		const entries: Entry[] = [
			{ key: str('status'), value: status },
			{ key: str('msg'), value: msg },
		];
		if (data !== undefined) entries.push({ key: str('data'), value: data });
		const unique = extra.filter(
			(entry, index) => extra.findIndex((other) => other.key.v === entry.key.v) === index,
		);
		return { bom, entries: shuffle([...entries, ...unique], randomSource(seed)) };
	});

function write(doc: Answer, seed: number): Buffer {
	const writer = new Writer(randomSource(seed));
	const text = `${doc.bom ? '\uFEFF' : ''}${WHITESPACE[seed % WHITESPACE.length]}${writer.value({ t: 'obj', entries: doc.entries })}${WHITESPACE[(seed >> 3) % WHITESPACE.length]}`;
	return Buffer.from(text, 'utf8');
}

const parseDoc = (bytes: Buffer) =>
	JSON.parse(bytes.toString('utf8').replace(/^\uFEFF/, '')) as Record<string, unknown>;

// ---- Feeding the scanner --------------------------------------------------------------------------

/**
 * Where to cut the bytes into chunks: random places, and places right
 * inside multi-byte characters and escapes; or every byte.
 */
const cuts = fc.record({
	random: fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { maxLength: 6 }),
	awkward: fc.array(fc.nat(), { maxLength: 8 }),
	everyByte: fc.boolean(),
});
type Cuts = { random: number[]; awkward: number[]; everyByte: boolean };

function chunksOf(bytes: Buffer, plan: Cuts): Buffer[] {
	if (plan.everyByte && bytes.length <= 600)
		return Array.from(bytes, (_, i) => bytes.subarray(i, i + 1));
	const inside: number[] = [];
	for (let i = 0; i < bytes.length; i++) {
		// A continuation byte of UTF-8, or just after a backslash: cutting before it splits a character or an escape.
		if ((bytes[i] & 0xc0) === 0x80 || (i > 0 && bytes[i - 1] === 0x5c)) inside.push(i);
	}
	const points = [
		...plan.random.map((share) => Math.floor(share * bytes.length)),
		...(inside.length > 0 ? plan.awkward.map((n) => inside[n % inside.length] + (n % 3)) : []),
	];
	const chunks: Buffer[] = [];
	let from = 0;
	for (const point of [...new Set(points)].sort((a, b) => a - b)) {
		if (point <= from || point >= bytes.length) continue;
		chunks.push(bytes.subarray(from, point));
		from = point;
	}
	chunks.push(bytes.subarray(from));
	return chunks;
}

interface Scanned {
	outcome: ScanOutcome;
	elements: Array<{ summary: Record<string, unknown> | undefined; text: string }>;
}

function scan(bytes: Buffer, plan: Cuts): Scanned {
	const elements: Scanned['elements'] = [];
	const scanner = new InquiryStreamScanner((summary, element) =>
		elements.push({ summary, text: element().toString('utf8') }),
	);
	for (const chunk of chunksOf(bytes, plan)) scanner.push(chunk);
	return { outcome: scanner.finish(), elements };
}

/** The summary the scan must give a record: its summary fields that are not nested, as JSON.parse read them. */
function summaryOf(parsed: Record<string, unknown>): Record<string, unknown> {
	const summary: Record<string, unknown> = {};
	for (const key of SUMMARY_KEYS) {
		if (!Object.prototype.hasOwnProperty.call(parsed, key)) continue;
		const value = parsed[key];
		if (value === null || typeof value !== 'object') summary[key] = value;
	}
	return summary;
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
	typeof value === 'object' && value !== null && !Array.isArray(value);

function expectReadAsJsonParseDoes(scanned: Scanned, doc: Record<string, unknown>): void {
	const { data, ...fields } = doc;
	if (data !== undefined && !Array.isArray(data)) {
		// Data that is not a list is left to the whole read to explain.
		expect(scanned.outcome.kind).toBe('unrecognised');
		return;
	}
	expect(scanned.outcome).toEqual({ kind: 'complete', fields, hasData: data !== undefined });
	const records = (data ?? []) as unknown[];
	expect(scanned.elements).toHaveLength(records.length);
	records.forEach((expected, i) => {
		expect(JSON.parse(scanned.elements[i].text)).toEqual(expected);
		expect(scanned.elements[i].summary).toEqual(
			isRecord(expected) ? summaryOf(expected) : undefined,
		);
	});
}

// ---- One record broken inside -------------------------------------------------------------------

const BARE_WORDS = [
	'hello',
	'True',
	'undefined',
	'NaN',
	'Infinity',
	"'x'",
	'nul',
	'tru',
	'0x1F',
	'01',
	'1.',
	'+1',
	'.5',
	'-',
	'12abc',
];
const BAD_ESCAPES = ['\\q', '\\x41', '\\a', "\\'", '\\U0041', '\\uZ', '\\u12X', '\\\n', '\\ '];
type Breakage = typeof breakage extends fc.Arbitrary<infer B> ? B : never;
const breakage = fc.record({
	kind: fc.constantFrom('bare word', 'control character', 'bad escape'),
	word: fc.constantFrom(...BARE_WORDS),
	control: fc.integer({ min: 0, max: 0x1f }).map((code) => String.fromCharCode(code)),
	escape: fc.constantFrom(...BAD_ESCAPES),
	at: fc.double({ min: 0, max: 0.999, noNaN: true }),
	record: fc.nat(),
	entry: fc.nat(),
	inKey: fc.boolean(),
});

/** The record to break (one with at least one field) and the answer with it broken; undefined when there is none. */
function breakOneRecord(doc: Answer, how: Breakage) {
	const data = doc.entries.find((entry) => entry.key.v === 'data')?.value;
	if (data?.t !== 'arr') return undefined;
	const candidates = data.items
		.map((item, index) => ({ item, index }))
		.filter(({ item }) => item.t === 'obj' && item.entries.length > 0);
	if (candidates.length === 0) return undefined;
	const { item, index } = candidates[how.record % candidates.length] as {
		item: Json & { t: 'obj' };
		index: number;
	};
	const entryIndex = how.entry % item.entries.length;
	const entry = item.entries[entryIndex];
	const fault: Fault = {
		at: how.at,
		text: how.kind === 'control character' ? how.control : how.escape,
	};
	let broken: Entry;
	let keyBroken = false;
	if (how.kind === 'bare word') broken = { key: entry.key, value: { t: 'raw', text: how.word } };
	else if (entry.value.t === 'str' && !how.inKey)
		broken = { key: entry.key, value: { ...entry.value, fault } };
	else {
		broken = { key: { ...entry.key, fault }, value: entry.value };
		keyBroken = true;
	}
	const brokenRecord: Json = {
		t: 'obj',
		entries: item.entries.map((other, i) => (i === entryIndex ? broken : other)),
	};
	const items = data.items.map((other, i) => (i === index ? brokenRecord : other));
	const brokenDoc: Answer = {
		...doc,
		entries: doc.entries.map((other) =>
			other.key.v === 'data' ? { key: other.key, value: { t: 'arr', items } } : other,
		),
	};
	// The summary the scan can still read: the broken field counts as absent, earlier listings of its key aside.
	const expectedSummary: Record<string, unknown> = {};
	item.entries.forEach((other, i) => {
		if (!SUMMARY_KEYS.includes(other.key.v) || (i === entryIndex && keyBroken)) return;
		const value = i === entryIndex ? undefined : valueOf(other.value);
		if (value === undefined || (value !== null && typeof value === 'object'))
			delete expectedSummary[other.key.v];
		else expectedSummary[other.key.v] = value;
	});
	return { brokenDoc, index, expectedSummary };
}

/** The value JSON.parse gives for a model without faults. */
function valueOf(json: Json): unknown {
	switch (json.t) {
		case 'str':
			return json.v;
		case 'num':
			return Number(json.text);
		case 'lit':
			return JSON.parse(json.text);
		case 'raw':
			return undefined;
		case 'arr':
			return json.items.map(valueOf);
		case 'obj':
			return Object.fromEntries(json.entries.map((entry) => [entry.key.v, valueOf(entry.value)]));
	}
}

// ---- Broken structure ----------------------------------------------------------------------------

/** Positions of brackets and separators outside strings, with their depth (1 = the answer's own object). */
function structureOf(text: string): Array<{ at: number; char: string; depth: number }> {
	const found: Array<{ at: number; char: string; depth: number }> = [];
	let depth = 0;
	let inString = false;
	for (let i = 0; i < text.length; i++) {
		const char = text[i];
		if (inString) {
			if (char === '\\') i++;
			else if (char === '"') inString = false;
			continue;
		}
		if (char === '"') inString = true;
		else if (char === '{' || char === '[') found.push({ at: i, char, depth: ++depth });
		else if (char === '}' || char === ']') found.push({ at: i, char, depth: depth-- });
		else if (char === ',' || char === ':') found.push({ at: i, char, depth });
	}
	return found;
}

/** Breaks that leave no reading but "not complete": brackets that no longer match, text where none may be, a list that is not one. */
const STRICT_BREAKS = [
	'truncate',
	'drop bracket',
	'double bracket',
	'swap bracket',
	'trailing text',
	'data not a list',
	'text between records',
] as const;
type StructuralBreak = typeof structuralBreak extends fc.Arbitrary<infer B> ? B : never;
const structuralBreak = fc.record({
	kind: fc.constantFrom(...STRICT_BREAKS, 'drop separator'),
	pick: fc.nat(),
	share: fc.double({ min: 0, max: 1, noNaN: true }),
	trailing: fc.constantFrom('x', '{}', ',', ']', '"', '{"data":[]}', 'null'),
});

/** The answer's text with its structure broken, or undefined when this answer has no such place. */
function breakStructure(text: string, how: StructuralBreak): string | undefined {
	const structure = structureOf(text);
	const brackets = structure.filter(({ char }) => '{}[]'.includes(char));
	const pickFrom = <T>(items: T[]): T | undefined =>
		items.length === 0 ? undefined : items[how.pick % items.length];
	const cut = (at: number, remove: number, insert = '') =>
		text.slice(0, at) + insert + text.slice(at + remove);
	switch (how.kind) {
		case 'truncate':
			return text.slice(0, Math.floor(how.share * text.length));
		case 'drop bracket': {
			const place = pickFrom(brackets);
			return place && cut(place.at, 1);
		}
		case 'double bracket': {
			const place = pickFrom(brackets);
			return place && cut(place.at, 0, place.char);
		}
		case 'swap bracket': {
			const place = pickFrom(brackets);
			const other = { '{': '[', '[': '{', '}': ']', ']': '}' }[place?.char ?? '{'];
			return place && cut(place.at, 1, other);
		}
		case 'drop separator': {
			// The answer's own separators, those of data and a record's own, next to a bracket or a string: between two
			// bare values (1,2 -> 12) no reader can tell a dropped comma from a value.
			const place = pickFrom(
				structure.filter(
					({ at, char, depth }) =>
						(char === ',' || char === ':') &&
						depth <= 3 &&
						(delimits(text[before(text, at)]) || delimits(text[after(text, at)])),
				),
			);
			return place && cut(place.at, 1);
		}
		case 'trailing text':
			return `${text}${how.trailing}`;
		case 'data not a list': {
			const open = /"data"\s*:\s*\[/.exec(text);
			if (!open) return undefined;
			const start = open.index + open[0].length - 1;
			const close = brackets.find(
				(place) => place.at > start && place.char === ']' && place.depth === 2,
			);
			return (
				close &&
				`${text.slice(0, start)}${how.trailing === 'null' ? 'null' : '{}'}${text.slice(close.at + 1)}`
			);
		}
		case 'text between records': {
			const place = pickFrom(
				structure.filter(
					({ at, char, depth }) =>
						char === ',' &&
						depth === 2 &&
						text[before(text, at)] === '}' &&
						text[after(text, at)] === '{',
				),
			);
			return place && cut(place.at, 1, how.trailing === ',' ? ' ' : how.trailing);
		}
	}
}

const delimits = (char: string | undefined) => char !== undefined && '{}[]"'.includes(char);
/** The index of the nearest character before / after `at` that is not whitespace. */
function before(text: string, at: number): number {
	let i = at - 1;
	while (i >= 0 && ' \t\n\r'.includes(text[i])) i--;
	return i;
}
function after(text: string, at: number): number {
	let i = at + 1;
	while (i < text.length && ' \t\n\r'.includes(text[i])) i++;
	return i;
}

function parsesTo(text: string, expected: unknown): boolean {
	try {
		expect(JSON.parse(text)).toEqual(expected);
		return true;
	} catch {
		return false;
	}
}

// ---- The properties -------------------------------------------------------------------------------

describe('InquiryStreamScanner against JSON.parse', () => {
	it("reads a valid answer exactly as JSON.parse does: its fields, each record's bytes and summary, however it is laid out and cut into chunks", () => {
		fc.assert(
			fc.property(answer, fc.nat(), cuts, (doc, seed, plan) => {
				const bytes = write(doc, seed);
				expectReadAsJsonParseDoes(scan(bytes, plan), parseDoc(bytes));
			}),
			{ numRuns: caseCount('JSON_STREAM', 750, 15_000) },
		);
	});

	it('reads an answer invalid only inside one record whole: the other records exactly, the broken one handed over as its own text and flagged', async () => {
		await fc.assert(
			fc.asyncProperty(answer, fc.nat(), cuts, breakage, async (doc, seed, plan, how) => {
				const broken = breakOneRecord(doc, how);
				fc.pre(broken !== undefined);
				const { brokenDoc, index, expectedSummary } = broken;
				const bytes = write(brokenDoc, seed);
				const clean = parseDoc(write(doc, seed));
				const scanned = scan(bytes, plan);
				const { data, ...fields } = clean;
				expect(scanned.outcome).toEqual({ kind: 'complete', fields, hasData: true });
				const records = data as unknown[];
				expect(scanned.elements).toHaveLength(records.length);
				records.forEach((expected, i) => {
					if (i === index) return;
					expect(JSON.parse(scanned.elements[i].text)).toEqual(expected);
					expect(scanned.elements[i].summary).toEqual(
						isRecord(expected) ? summaryOf(expected) : undefined,
					);
				});
				const bad = scanned.elements[index];
				expect(() => JSON.parse(bad.text)).toThrow(SyntaxError);
				expect(jsonProblem(bad.text)).toBeDefined();
				expect(bad.summary).toEqual(expectedSummary);

				// Every record read in its place, the broken one flagged with its text.
				const reading = await readInquiryStream(
					(async function* () {
						yield* chunksOf(bytes, plan);
					})(),
					new EveryRecord(),
				);
				expect(reading.kind).toBe('read');
				const list = (reading as { list: unknown[] }).list;
				expect(list.filter(isUnreadableInquiry)).toEqual([
					expect.objectContaining({
						...expectedSummary,
						rawRecord: bad.text,
						formWarnings: [expect.stringContaining('is not valid JSON')],
					}),
				]);
				expect(list.filter((_, i) => i !== index)).toEqual(records.filter((_, i) => i !== index));
			}),
			{ numRuns: caseCount('JSON_STREAM', 500, 10_000) },
		);
	});

	it('never reads an answer whose structure is broken or cut short as complete', () => {
		fc.assert(
			fc.property(answer, fc.nat(), cuts, structuralBreak, (doc, seed, plan, how) => {
				const text = write(doc, seed).toString('utf8');
				const brokenText = breakStructure(text, how);
				fc.pre(brokenText !== undefined && brokenText !== text);
				const bytes = Buffer.from(brokenText, 'utf8');
				const scanned = scan(bytes, plan);
				let stillJson: Record<string, unknown> | undefined;
				try {
					stillJson = parseDoc(bytes);
				} catch {
					stillJson = undefined;
				}
				if (stillJson !== undefined && how.kind === 'truncate') {
					// A cut in the trailing whitespace leaves the answer whole: then it must read as JSON.parse reads it.
					expectReadAsJsonParseDoes(scanned, stillJson);
				} else if (how.kind !== 'drop separator' || scanned.outcome.kind !== 'complete') {
					expect(scanned.outcome.kind).not.toBe('complete');
				} else {
					// A record's own comma dropped after a bare value (1,"b" -> 1"b") is a fault inside that record:
					// read complete only as the same list, that one record no longer JSON.
					const records = parseDoc(write(doc, seed)).data as unknown[];
					expect(scanned.elements).toHaveLength(records.length);
					const differing = scanned.elements.filter(
						(element, i) => !parsesTo(element.text, records[i]),
					);
					expect(differing.length).toBeLessThanOrEqual(1);
					for (const element of differing) expect(jsonProblem(element.text)).toBeDefined();
				}
			}),
			{ numRuns: caseCount('JSON_STREAM', 750, 15_000) },
		);
	});
});

describe('an element read whole in one chunk (wholeElement.ts)', () => {
	/** One chunk holds every element whole; chunks of one byte never do, so only the byte-by-byte states read. */
	const wholeAndByByte = (bytes: Buffer) => [
		scan(bytes, { random: [], awkward: [], everyByte: false }),
		scan(bytes, { random: [], awkward: [], everyByte: true }),
	];

	it('is read as the byte-by-byte states read it, on valid answers, faults inside a record and broken structure alike', () => {
		fc.assert(
			fc.property(
				answer,
				fc.nat(),
				fc.option(structuralBreak, { nil: undefined }),
				fc.option(breakage, { nil: undefined }),
				(doc, seed, structural, inRecord) => {
					const faulty = inRecord === undefined ? undefined : breakOneRecord(doc, inRecord);
					const text = write(faulty?.brokenDoc ?? doc, seed).toString('utf8');
					const brokenText = structural === undefined ? text : breakStructure(text, structural);
					const bytes = Buffer.from(brokenText ?? text, 'utf8');
					fc.pre(bytes.length <= 600);
					const [whole, byByte] = wholeAndByByte(bytes);
					expect(whole).toEqual(byByte);
				},
			),
			{ numRuns: caseCount('JSON_STREAM', 1000, 20_000) },
		);
	});

	it('gives up where the states give up: members not separated by a comma, a member without a value', () => {
		for (const record of [
			'{"_id":"a"]"addedon":1}',
			'{"_id":"a","addedon":1,}',
			'{"_id" "a"}',
			'{"_id":}',
			'{"_id":,"addedon":1}',
			'{"_id"::1}',
			'{"_id":]}',
		]) {
			const bytes = Buffer.from(`{"data":[${record}]}`);
			const [whole, byByte] = wholeAndByByte(bytes);
			expect(whole.outcome.kind).not.toBe('complete');
			expect(whole).toEqual(byByte);
		}
	});
});

describe('jsonProblem', () => {
	it('finds a problem exactly when JSON.parse refuses the text', () => {
		fc.assert(
			fc.property(record, fc.nat(), fc.option(breakage, { nil: undefined }), (value, seed, how) => {
				const doc: Answer = {
					bom: false,
					entries: [{ key: str('data'), value: { t: 'arr', items: [value] } }],
				};
				const broken = how === undefined ? undefined : breakOneRecord(doc, how);
				const text = new Writer(randomSource(seed)).value(
					(broken?.brokenDoc ?? doc).entries[0].value,
				);
				let parses = true;
				try {
					JSON.parse(text);
				} catch {
					parses = false;
				}
				expect(jsonProblem(text) === undefined).toBe(parses);
			}),
			{ numRuns: caseCount('JSON_STREAM', 500, 10_000) },
		);
	});
});
