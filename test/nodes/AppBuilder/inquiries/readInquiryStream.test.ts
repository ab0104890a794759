import fc from 'fast-check';

import type { InquiryEvent } from '../../../../nodes/AppBuilder/trigger/events/inquiryEvent';
import {
	InquiryListBuilder,
	listFromRecords,
	type InquiryList,
} from '../../../../nodes/AppBuilder/trigger/events/inquiryList';
import { readInquiryStream } from '../../../../nodes/AppBuilder/inquiries/readInquiryStream';
import type { StreamReading } from '../../../../nodes/shared/http/streamReading';
import type { ValueRedactor } from '../../../../nodes/shared/text/redact';
import { caseCount } from '../../../support/testSize';

/** These records hold no secret: nothing to take out. */
const keepAsIs: ValueRedactor = (value) => value;

const bytes = (text: string) => Buffer.from(text, 'utf8');

/** The answer's bytes cut at the given points, as a stream of chunks. */
async function* chunked(body: Buffer, cuts: number[]): AsyncGenerator<Buffer> {
	let from = 0;
	for (const cut of [...new Set(cuts.map((share) => Math.floor(share * body.length)))].sort(
		(a, b) => a - b,
	)) {
		if (cut <= from) continue;
		yield body.subarray(from, cut);
		from = cut;
	}
	if (from < body.length) yield body.subarray(from);
}

const read = (
	text: string,
	cuts: number[] = [],
	mayEmit: (event: InquiryEvent) => boolean = () => true,
) =>
	readInquiryStream(
		chunked(bytes(text), cuts),
		new InquiryListBuilder('new', { kind: 'matching', keeps: mayEmit }, keepAsIs),
	);

/** Every byte boundary of a short answer, or fractions of a long one. */
const cutsArb = fc.oneof(
	fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { maxLength: 12 }),
	fc.constant(Array.from({ length: 400 }, (_, i) => i / 400)),
);

const awkwardText = fc.oneof(
	fc.string(),
	fc.constantFrom(
		'é',
		'😀',
		'\u2028',
		'"',
		'\\',
		'\\"',
		'\\\\',
		'{"_id":"fake"}',
		'[',
		'}',
		',',
		':',
		'"_id"',
	),
);
const scalar = fc.oneof(
	awkwardText,
	fc.integer(),
	fc.double({ noNaN: true, noDefaultInfinity: true }),
	fc.boolean(),
	fc.constant(null),
);
const jsonValue = fc.letrec((tie) => ({
	value: fc.oneof(
		{ depthSize: 'small' },
		scalar,
		fc.array(tie('value'), { maxLength: 3 }),
		fc.dictionary(awkwardText, tie('value'), { maxKeys: 3 }),
	),
})).value;
const record = fc.record(
	{
		_id: fc.oneof(fc.stringMatching(/^[0-9a-f]{1,24}$/), fc.integer(), awkwardText, jsonValue),
		requestId: fc.oneof(fc.string(), fc.integer()),
		addedon: fc.oneof(fc.integer({ min: 0, max: 2e12 }), fc.string()),
		updatedon: fc.oneof(fc.integer({ min: 0, max: 2e12 }), fc.constant(null)),
		formData: jsonValue,
		formbuilderData: fc.oneof(
			fc.string(),
			fc.constant('[{"fieldName":"a\\"b","fieldValue":"}]"}]'),
		),
		note: awkwardText,
	},
	{ requiredKeys: [] },
);
const answer = fc.record({
	status: fc.oneof(fc.constant(200), fc.constant('success'), awkwardText),
	message: awkwardText,
	data: fc.array(fc.oneof({ weight: 5, arbitrary: record }, { weight: 1, arbitrary: jsonValue }), {
		maxLength: 8,
	}),
});

function listOf(reading: StreamReading<InquiryList>) {
	if (reading.kind !== 'read' || !reading.list) throw new Error(`not read: ${reading.kind}`);
	return reading.list;
}

describe('readInquiryStream', () => {
	it('reads every field, event and record exactly as JSON.parse does, however the answer is laid out and cut into chunks', async () => {
		await fc.assert(
			fc.asyncProperty(
				answer,
				fc.constantFrom(undefined, 2, '\t'),
				cutsArb,
				async (value, indent, cuts) => {
					const text = JSON.stringify(value, null, indent);
					const reading = await read(text, cuts);
					const { data, ...fields } = JSON.parse(text);
					const list = listOf(reading);
					expect(reading.kind === 'read' && reading.body.data).toBe(list);
					expect(reading.kind === 'read' && { ...reading.body, data: undefined }).toEqual({
						...fields,
						data: undefined,
					});
					const whole = listFromRecords(data, 'new');
					expect(list.events).toEqual(whole.events);
					for (const { key } of whole.events)
						expect(list.recordOf(key)).toEqual(whole.recordOf(key));
				},
			),
			{ numRuns: caseCount('READ_INQUIRY_STREAM', 400, 4000) },
		);
	});

	it('keeps only the records mayEmit accepts, and refuses to make up one it let go', async () => {
		await fc.assert(
			fc.asyncProperty(
				answer,
				cutsArb,
				fc.integer({ min: 0, max: 2 ** 16 }),
				async (value, cuts, seed) => {
					const text = JSON.stringify(value);
					const accepts = (event: InquiryEvent) => (event.key.length + seed) % 2 === 0;
					const list = listOf(await read(text, cuts, accepts));
					const whole = listFromRecords(JSON.parse(text).data, 'new');
					for (const event of whole.events) {
						const acceptedListing = whole.events.some(
							(other) => other.key === event.key && accepts(other),
						);
						if (acceptedListing) expect(list.recordOf(event.key)).toBeDefined();
						else expect(() => list.recordOf(event.key)).toThrow('was not kept');
					}
				},
			),
			{ numRuns: caseCount('READ_INQUIRY_STREAM', 300, 3000) },
		);
	});

	it('hands back every byte of an answer cut short while nothing was let go, and says cut-short once records were', async () => {
		await fc.assert(
			fc.asyncProperty(
				answer,
				fc.double({ min: 0, max: 1, noNaN: true }),
				cutsArb,
				async (value, fraction, cuts) => {
					const text = JSON.stringify(value);
					const cutText = Buffer.from(text).subarray(
						0,
						Math.min(Buffer.byteLength(text) - 1, Math.floor(Buffer.byteLength(text) * fraction)),
					);
					const keepingAll = await readInquiryStream(
						chunked(cutText, cuts),
						new InquiryListBuilder('new', { kind: 'matching', keeps: () => true }, keepAsIs),
					);
					expect(keepingAll).toEqual({ kind: 'whole', bytes: cutText });
					const keepingNone = await readInquiryStream(
						chunked(cutText, cuts),
						new InquiryListBuilder('new', { kind: 'matching', keeps: () => false }, keepAsIs),
					);
					expect(['whole', 'cut-short']).toContain(keepingNone.kind);
				},
			),
			{ numRuns: caseCount('READ_INQUIRY_STREAM', 400, 4000) },
		);
	});

	it('keeps the last of a repeated summary field, as JSON.parse does, a nested one included', async () => {
		const repeated = listOf(
			await read('{"data":[{"_id":"first","addedon":1,"_id":"second","addedon":1700000000}]}'),
		);
		expect(repeated.events).toEqual([{ key: 'second', time: 1_700_000_000_000 }]);
		const nestedLast = listOf(
			await read('{"data":[{"_id":"a","addedon":1700000000,"addedon":{"at":1}}]}'),
		);
		expect(nestedLast.events).toEqual([{ key: 'a', time: undefined }]);
	});

	it('reads a key written with escapes as the key it spells, even split across chunks', async () => {
		const text = '{"data":[{"\\u005fid":"escaped","addedon":1700000000}]}';
		for (let cut = 1; cut < text.length; cut++) {
			expect(listOf(await read(text, [cut / text.length])).events[0].key).toBe('escaped');
		}
	});

	it('emits the latest listing of a key listed twice, whichever came first', async () => {
		const list = listOf(
			await read(
				'{"data":[{"_id":"a","addedon":1700000500,"v":1},{"_id":"a","addedon":1700000000,"v":2}]}',
			),
		);
		expect(list.recordOf('a')).toEqual({ _id: 'a', addedon: 1700000500, v: 1 });
	});

	it.each([
		['an HTML page', '<html><body>Service Unavailable</body></html>'],
		['a bare list', '[{"_id":"a"}]'],
		['an empty answer', ''],
		['data that is not a list', '{"data":{"_id":"a"}}'],
		['data that is null', '{"status":"success","data":null}'],
		['text after the answer', '{"data":[]} trailing'],
		['a field that is not JSON', '{"status":nope,"data":[]}'],
		['brackets that do not match', '{"data":[{"_id":"a","formData":[1}}]}'],
	])('hands %s back whole for the usual reading', async (_label, text) => {
		for (const cuts of [[], [0.5], Array.from({ length: 50 }, (_, i) => i / 50)]) {
			expect(await read(text, cuts)).toEqual({ kind: 'whole', bytes: bytes(text) });
		}
	});

	it('asks for the answer again when it turns odd after records were let go', async () => {
		const dropAll = () => false;
		expect(await read('{"data":[{"_id":"a","addedon":1}],"data":[]}', [], dropAll)).toEqual({
			kind: 'ask-again',
		});
		expect(await read('{"data":[{"_id":"a","addedon":1}]} trailing', [0.3], dropAll)).toEqual({
			kind: 'ask-again',
		});
		expect(await read('{"data":[{"_id":"a","addedon":1}', [0.5], dropAll)).toEqual({
			kind: 'cut-short',
		});
	});

	it('reads an error answer without data, so its code still reaches the error handling', async () => {
		expect(await read('{"status":2032,"msg":"Invalid access token"}', [0.5])).toEqual({
			kind: 'read',
			body: { status: 2032, msg: 'Invalid access token' },
		});
	});

	it('skips a byte order mark and surrounding whitespace, even one split across chunks', async () => {
		const text = '\uFEFF \n{"data":[ {"_id":"a"} ]}\n';
		for (const cuts of [[], [1 / 24], [2 / 24], [1 / 24, 2 / 24]]) {
			expect(listOf(await read(text, cuts)).recordOf('a')).toEqual({ _id: 'a' });
		}
	});
});
