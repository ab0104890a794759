import {
	isUnreadableInquiry,
	RAW_RECORD_MAX_CHARS,
	readRecord,
} from '../../../../nodes/AppBuilder/inquiries/unreadableInquiry';
import { valueRedactor } from '../../../../nodes/shared/text/redact';

const SECRET = 'tok_9fQ2xLmA77';
const redact = valueRedactor([SECRET]);

describe('readRecord takes secrets the server echoed out of what it hands on', () => {
	it('out of a record that parses, at any depth', () => {
		const record = readRecord(
			Buffer.from(`{"_id":"a","formData":[["${SECRET}"],["Token"],["token"]]}`),
			{ _id: 'a' },
			redact,
		);
		expect(record).toEqual({ _id: 'a', formData: [['[redacted]'], ['Token'], ['token']] });
	});

	it('out of a broken record: its text, its readable fields and the warning that quotes it', () => {
		const text = `{"_id":"${SECRET}","addedon":1794301925,"name": ${SECRET}}`;
		const record = readRecord(Buffer.from(text), { _id: SECRET, addedon: 1794301925 }, redact);
		expect(isUnreadableInquiry(record)).toBe(true);
		expect(JSON.stringify(record)).not.toContain(SECRET);
		expect(record).toMatchObject({
			_id: '[redacted]',
			addedon: 1794301925,
			rawRecord: '{"_id":"[redacted]","addedon":1794301925,"name": [redacted]}',
			formWarnings: [
				`the inquiry is not valid JSON (a bare word "[redacted]" at character ${text.indexOf(`: ${SECRET}`) + 3}); its text is in rawRecord`,
			],
		});
	});

	it("before a long broken record's text is cut, so no part of a secret across the cut is shown", () => {
		const before = 'x'.repeat(RAW_RECORD_MAX_CHARS - 20);
		const text = `{"a":"${before}", "b": bare ${SECRET} and more}`;
		const record = readRecord(Buffer.from(text), undefined, redact) as { rawRecord: string };
		expect(record.rawRecord).not.toContain(SECRET.slice(0, 4));
		expect(record.rawRecord.length).toBeLessThanOrEqual(RAW_RECORD_MAX_CHARS);
	});
});
