import fc from 'fast-check';

import { scanInquiryBody } from '../../nodes/AppBuilder/transport/inquiryBodyScan';
import { listFromRecords, ScannedInquiryList } from '../../nodes/AppBuilder/transport/inquiryList';

const bytes = (text: string) => Buffer.from(text, 'utf8');

/** What the trigger gets from a scan: fields, and each record parsed back from its bytes. */
function readBack(text: string) {
	const body = bytes(text);
	const scanned = scanInquiryBody(body);
	if (!scanned) return undefined;
	const list = scanned.records ? new ScannedInquiryList(body, scanned.records) : undefined;
	return {
		fields: scanned.fields,
		records: list ? Array.from({ length: list.size }, (_, i) => list.record(i)) : undefined,
		list,
	};
}

const awkwardText = fc.oneof(
	fc.string(),
	fc.constantFrom('é', '😀', '\u2028', '"', '\\', '\\"', '{"_id":"fake"}', '[', '}', ',', ':'),
);
const scalar = fc.oneof(awkwardText, fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true }), fc.boolean(), fc.constant(null));
const jsonValue = fc.letrec((tie) => ({
	value: fc.oneof({ depthSize: 'small' }, scalar, fc.array(tie('value'), { maxLength: 3 }), fc.dictionary(awkwardText, tie('value'), { maxKeys: 3 })),
})).value;
const record = fc.record(
	{
		_id: fc.oneof(fc.stringMatching(/^[0-9a-f]{1,24}$/), fc.integer(), awkwardText, jsonValue),
		requestId: fc.oneof(fc.string(), fc.integer()),
		addedon: fc.oneof(fc.integer({ min: 0, max: 2e12 }), fc.string()),
		updatedon: fc.oneof(fc.integer({ min: 0, max: 2e12 }), fc.constant(null)),
		formData: jsonValue,
		formbuilderData: fc.oneof(fc.string(), fc.constant('[{"fieldName":"a\\"b","fieldValue":"}]"}]')),
		note: awkwardText,
	},
	{ requiredKeys: [] },
);
const answer = fc.record({
	status: fc.oneof(fc.constant(200), fc.constant('success'), awkwardText),
	message: awkwardText,
	data: fc.array(fc.oneof({ weight: 5, arbitrary: record }, { weight: 1, arbitrary: jsonValue }), { maxLength: 8 }),
});

describe('scanInquiryBody', () => {
	it('reads every record and field exactly as JSON.parse does, however the answer is laid out', () => {
		fc.assert(
			fc.property(answer, fc.constantFrom(undefined, 2, '\t'), (value, indent) => {
				const text = JSON.stringify(value, null, indent);
				const read = readBack(text);
				expect(read).toBeDefined();
				const { data, ...fields } = JSON.parse(text);
				expect(read?.fields).toEqual(fields);
				expect(read?.records).toEqual(data);
				// The identity and time of each record match those read from the full record.
				const whole = listFromRecords(data);
				for (let i = 0; i < data.length; i++) {
					expect(read?.list?.event(i, 'new')).toEqual(whole.event(i, 'new'));
					expect(read?.list?.event(i, 'newOrUpdated')).toEqual(whole.event(i, 'newOrUpdated'));
				}
			}),
			{ numRuns: 400 },
		);
	});

	it('gives up on an answer cut short anywhere, so the full parse reports it', () => {
		fc.assert(
			fc.property(answer, fc.double({ min: 0, max: 1, noNaN: true }), (value, fraction) => {
				const text = JSON.stringify(value);
				const cut = Math.min(text.length - 1, Math.floor(text.length * fraction));
				expect(scanInquiryBody(bytes(text.slice(0, cut)))).toBeUndefined();
			}),
			{ numRuns: 400 },
		);
	});

	it('keeps the last of a repeated summary field, as JSON.parse does', () => {
		const read = readBack('{"data":[{"_id":"first","addedon":1,"_id":"second","addedon":1700000000}]}');
		expect(read?.list?.event(0, 'new')).toEqual({ key: 'second', time: 1_700_000_000_000 });
	});

	it('reads a key written with escapes as the key it spells', () => {
		const read = readBack('{"data":[{"\\u005fid":"escaped","addedon":1700000000}]}');
		expect(read?.list?.event(0, 'new').key).toBe('escaped');
	});

	it.each([
		['an HTML page', '<html><body>Service Unavailable</body></html>'],
		['a bare list', '[{"_id":"a"}]'],
		['an empty answer', ''],
		['data that is not a list', '{"data":{"_id":"a"}}'],
		['data given twice', '{"data":[],"data":[]}'],
		['text after the answer', '{"data":[]} trailing'],
		['a field that is not JSON', '{"status":nope,"data":[]}'],
	])('leaves %s to the full parse', (_label, text) => {
		expect(scanInquiryBody(bytes(text))).toBeUndefined();
	});

	it('reads an error answer without data, so its code still reaches the error handling', () => {
		expect(scanInquiryBody(bytes('{"status":2032,"msg":"Invalid access token"}'))).toEqual({
			fields: { status: 2032, msg: 'Invalid access token' },
			records: undefined,
		});
	});

	it('skips a byte order mark and surrounding whitespace', () => {
		expect(readBack('\uFEFF \n{"data":[ {"_id":"a"} ]}\n')?.records).toEqual([{ _id: 'a' }]);
	});
});
