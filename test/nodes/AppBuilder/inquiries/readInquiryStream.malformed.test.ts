import type { INode } from 'n8n-workflow';

import { inquiryItem } from '../../../../nodes/AppBuilder/inquiries/inquiryItem';
import { AnswerLimitExceeded } from '../../../../nodes/shared/http/answerLimits';
import {
	InquiryListBuilder,
	type InquiryList,
} from '../../../../nodes/AppBuilder/trigger/events/inquiryList';
import { SelectedInquiries } from '../../../../nodes/AppBuilder/actions/inquiry/getManyReader';
import {
	readInquiryStream,
	type RecordCollector,
} from '../../../../nodes/AppBuilder/inquiries/readInquiryStream';
import {
	isUnreadableInquiry,
	RAW_RECORD_MAX_CHARS,
} from '../../../../nodes/AppBuilder/inquiries/unreadableInquiry';
import type { ValueRedactor } from '../../../../nodes/shared/text/redact';
import { EveryRecord } from '../../../support/everyRecord';
import { appBuilderNode } from '../../../harness/workflowNode';

/** These records hold no secret: nothing to take out. */
const keepAsIs: ValueRedactor = (value) => value;

/** What a record the API sends broken inside becomes, and the bound on records per answer. */

async function* chunked(text: string, size: number): AsyncGenerator<Buffer> {
	const bytes = Buffer.from(text, 'utf8');
	for (let from = 0; from < bytes.length; from += size) yield bytes.subarray(from, from + size);
}

async function readWith<List>(
	text: string,
	collector: RecordCollector<List>,
	chunkSize = 7,
): Promise<List> {
	const reading = await readInquiryStream(chunked(text, chunkSize), collector);
	if (reading.kind !== 'read' || reading.list === undefined)
		throw new Error(`not read: ${reading.kind}`);
	return reading.list;
}

const answerOf = (...records: string[]) =>
	`{"status":"success","msg":"Record found","data":[${records.join(',')}]}`;
const GOOD_A = '{"_id":"a1","addedon":1700000100,"formData":[["Ann"],["Name"],["name"]]}';
const GOOD_B = '{"_id":"b2","addedon":1700000300,"formData":[["Bob"],["Name"],["name"]]}';
const BARE_WORD = '{"_id":"bad1","addedon":1700000200,"name": hello}';
const CONTROL = '{"_id":"bad2","addedon":1700000200,"message":"line one\nline two"}';
const BAD_ESCAPE = '{"requestId":"R9","addedon":1700000200,"formData":[["C:\\qdrive"]]}';
const NO_ID_NO_TIME = '{"addedon": 12abc,"formData":[["x\\q"]]}';

/** The node Get Many's errors name. */
const GET_MANY_NODE: INode = appBuilderNode();

const everything = () =>
	new InquiryListBuilder('new', { kind: 'matching', keeps: () => true }, keepAsIs);

describe('a record whose text is not JSON', () => {
	it.each([
		[
			'a bare word',
			BARE_WORD,
			'bad1',
			`a bare word "hello" at character ${BARE_WORD.indexOf('hello') + 1}`,
		],
		[
			'a raw control character',
			CONTROL,
			'bad2',
			`a control character (U+000A) inside a string at character ${CONTROL.indexOf('\n') + 1}`,
		],
		[
			'a bad escape',
			BAD_ESCAPE,
			'r:R9',
			`a bad escape "\\\\q" at character ${BAD_ESCAPE.indexOf('\\') + 1}`,
		],
	])(
		'with %s is a lead of its own: the records around it read as usual, it flagged with its text',
		async (_label, broken, key, problem) => {
			for (const chunkSize of [1, 3, 7, 4096]) {
				const list = await readWith(answerOf(GOOD_A, broken, GOOD_B), everything(), chunkSize);
				expect(list.events).toEqual([
					{ key: 'a1', time: 1_700_000_100_000 },
					{ key, time: 1_700_000_200_000 },
					{ key: 'b2', time: 1_700_000_300_000 },
				]);
				expect(list.recordOf('a1')).toEqual(JSON.parse(GOOD_A));
				expect(list.recordOf('b2')).toEqual(JSON.parse(GOOD_B));
				const flagged = list.recordOf(key);
				expect(isUnreadableInquiry(flagged)).toBe(true);
				expect(flagged).toMatchObject({
					addedon: 1700000200,
					rawRecord: broken,
					formWarnings: [`the inquiry is not valid JSON (${problem}); its text is in rawRecord`],
				});
			}
		},
	);

	it('without a readable id or time is keyed by a hash of its bytes, the same on every read, and undated', async () => {
		const first = await readWith(answerOf(GOOD_A, NO_ID_NO_TIME), everything());
		const again = await readWith(answerOf(NO_ID_NO_TIME, GOOD_B), everything(), 2);
		const key = first.events[1].key;
		expect(key).toMatch(/^h:[0-9a-f]{16}$/);
		expect(first.events[1].time).toBeUndefined();
		expect(again.events[0]).toEqual({ key, time: undefined });
		const other = await readWith(answerOf(NO_ID_NO_TIME.replace('x', 'y')), everything());
		expect(other.events[0].key).not.toBe(key);
		expect(first.recordOf(key)).toEqual({
			rawRecord: NO_ID_NO_TIME,
			formWarnings: [
				expect.stringMatching(/not valid JSON \(a bad number "12abc" at character 13\)/),
			],
		});
	});

	it('leaves out only a summary field that does not parse, without giving up on the answer', async () => {
		const list = await readWith(
			answerOf(
				GOOD_A,
				'{"_id":"c3","addedon": 12abc}',
				'{"_id":"d\\q4","requestId":"R4","addedon":1700000400}',
			),
			everything(),
		);
		expect(list.events).toEqual([
			{ key: 'a1', time: 1_700_000_100_000 },
			{ key: 'c3', time: undefined },
			{ key: 'r:R4', time: 1_700_000_400_000 },
		]);
	});

	it('is a data element too: a bare word in the list is flagged, not a reason to give up', async () => {
		const list = await readWith('{"data":[nope]}', everything());
		expect(list.events).toEqual([{ key: expect.stringMatching(/^h:/), time: undefined }]);
		expect(list.recordOf(list.events[0].key)).toEqual({
			rawRecord: 'nope',
			formWarnings: [expect.stringContaining('a bare word "nope" at character 1')],
		});
	});

	it('is kept only when the cursor may emit it, like any record', async () => {
		const list = await readWith(
			answerOf(BARE_WORD, GOOD_B),
			new InquiryListBuilder(
				'new',
				{ kind: 'matching', keeps: (event) => event.key === 'b2' },
				keepAsIs,
			),
		);
		expect(() => list.recordOf('bad1')).toThrow('was not kept');
	});

	it('is read in its place, every other record parsed', async () => {
		const records = await readWith(
			answerOf(GOOD_A, BARE_WORD, GOOD_B, NO_ID_NO_TIME),
			new EveryRecord(),
		);
		expect(records.map(isUnreadableInquiry)).toEqual([false, true, false, true]);
		expect(records[0]).toEqual(JSON.parse(GOOD_A));
		expect(records[1]).toMatchObject({ _id: 'bad1', addedon: 1700000200, rawRecord: BARE_WORD });
	});

	it('becomes an item with its id, time, text and the warning; with Simplify off, what could be read of it', async () => {
		const list: InquiryList = await readWith(answerOf(BARE_WORD), everything());
		const flagged = list.recordOf('bad1');
		const warning =
			'the inquiry is not valid JSON (a bare word "hello" at character 44); its text is in rawRecord';
		expect(inquiryItem(flagged, true)).toEqual({
			inquiryId: 'bad1',
			submittedAt: '2023-11-14T22:16:40.000Z',
			rawRecord: BARE_WORD,
			formWarnings: [warning],
		});
		expect(inquiryItem(flagged, false)).toEqual({
			_id: 'bad1',
			addedon: 1700000200,
			rawRecord: BARE_WORD,
			formWarnings: [warning],
		});
		expect(isUnreadableInquiry(inquiryItem(flagged, false))).toBe(false);
		// A record that parses is flattened or passed as it is, as before.
		expect(inquiryItem(JSON.parse(GOOD_A), false)).toEqual(JSON.parse(GOOD_A));
		expect(inquiryItem(JSON.parse(GOOD_A), true)).toMatchObject({ inquiryId: 'a1', name: 'Ann' });
	});

	it('carries at most the first 65,536 characters of a runaway text', async () => {
		const huge = `{"_id":"big","note": hello,"pad":"${'é'.repeat(RAW_RECORD_MAX_CHARS)}"}`;
		const item = inquiryItem(
			(await readWith(answerOf(huge), everything(), 65_536)).recordOf('big'),
			true,
		);
		expect(item.rawRecord).toBe(huge.slice(0, RAW_RECORD_MAX_CHARS));
		expect(item.formWarnings).toEqual([
			expect.stringMatching(/its first 65536 characters are in rawRecord$/),
		]);
	});
});

describe('records per answer', () => {
	const records = (count: number) =>
		answerOf(
			...Array.from({ length: count }, (_, i) => `{"_id":"r${i}","addedon":${1700000000 + i}}`),
		);

	it.each<[string, (limit: number) => RecordCollector<unknown>]>([
		[
			"the trigger's list",
			(limit) =>
				new InquiryListBuilder('new', { kind: 'matching', keeps: () => false }, keepAsIs, limit),
		],
		[
			"Get Many's selection",
			(limit) =>
				new SelectedInquiries(
					{ readStatus: 'any', sort: 'newestFirst' },
					keepAsIs,
					GET_MANY_NODE,
					0,
					limit,
				),
		],
	])(
		'%s stop the read with AnswerLimitExceeded past the bound, not with a reading of part of the answer',
		async (_label, collector) => {
			await expect(readWith(records(3), collector(3))).resolves.toBeDefined();
			const reading = readInquiryStream(chunked(records(4), 16), collector(3));
			await expect(reading).rejects.toThrow(AnswerLimitExceeded);
			await expect(readInquiryStream(chunked(records(4), 16), collector(3))).rejects.toMatchObject({
				limit: 'records',
				bound: 3,
			});
		},
	);
});
