import type { INode } from 'n8n-workflow';

import {
	CallHoldings,
	MAX_RETURNED_BYTES,
	MAX_RETURNED_INQUIRIES,
	SelectedInquiries,
	selectFromRecords,
} from '../../../../../nodes/AppBuilder/actions/inquiry/getManyReader';
import { readInquiryStream } from '../../../../../nodes/AppBuilder/inquiries/readInquiryStream';
import { isUnreadableInquiry } from '../../../../../nodes/AppBuilder/inquiries/unreadableInquiry';
import { ReadingStopped } from '../../../../../nodes/shared/http/streamReading';
import { valueRedactor } from '../../../../../nodes/shared/text/redact';
import { appBuilderNode } from '../../../../harness/workflowNode';

const NODE: INode = appBuilderNode();
const SECRET = 'tok_9fQ2xLmA77';
const redact = valueRedactor([SECRET]);

async function read(records: string[], collector: SelectedInquiries): Promise<unknown[]> {
	async function* chunks() {
		yield Buffer.from(`{"data":[${records.join(',')}]}`);
	}
	const reading = await readInquiryStream(chunks(), collector);
	if (reading.kind !== 'read' || reading.list === undefined)
		throw new Error(`not read: ${reading.kind}`);
	return reading.list;
}

describe("Get Many's reading of an answer as it arrives", () => {
	it('returns what the selection keeps, secrets taken out, a broken record still flagged as one', async () => {
		const records = [
			`{"_id":"a","addedon":1700000001,"note":"${SECRET}"}`,
			`{"_id":"b","addedon":1700000003,"note": ${SECRET}}`,
			'{"_id":"c","addedon":1700000002}',
		];
		const selected = await read(
			records,
			new SelectedInquiries({ readStatus: 'any', sort: 'newestFirst', limit: 2 }, redact, NODE, 0),
		);
		expect(JSON.stringify(selected)).not.toContain(SECRET);
		expect(selected).toHaveLength(2);
		expect(isUnreadableInquiry(selected[0])).toBe(true);
		expect(selected[0]).toMatchObject({
			_id: 'b',
			rawRecord: '{"_id":"b","addedon":1700000003,"note": [redacted]}',
		});
		expect(selected[1]).toEqual({ _id: 'c', addedon: 1700000002 });
	});

	it('stops, past the inquiries Return All may return, with an error that says what to do', () => {
		const collector = new SelectedInquiries(
			{ readStatus: 'any', sort: 'newestFirst' },
			redact,
			NODE,
			3,
		);
		const records = Array.from({ length: MAX_RETURNED_INQUIRIES + 1 }, (_, i) => ({
			_id: `r${i}`,
		}));
		expect(() => selectFromRecords(records, collector)).toThrow(
			`The form has more inquiries than one Get Many can return (more than ${MAX_RETURNED_INQUIRIES.toLocaleString('en')} inquiries or ${MAX_RETURNED_BYTES / 1024 / 1024} MB of them), so reading stopped`,
		);
	});

	it('stops a read past its bytes with ReadingStopped, which the transport ends the call with; a Limit names itself', () => {
		const collector = new SelectedInquiries(
			{ readStatus: 'any', sort: 'newestFirst', limit: 1_000_000 },
			redact,
			NODE,
			0,
		);
		const big = Buffer.from(`{"_id":"big","pad":"${'x'.repeat(1024 * 1024)}"}`);
		let stopped: unknown;
		try {
			for (let i = 0; i < 200; i++) collector.add({ _id: `big${i}` }, () => big);
		} catch (error) {
			stopped = error;
		}
		expect(stopped).toBeInstanceOf(ReadingStopped);
		expect((stopped as ReadingStopped).reason.message).toMatch(
			/^The Limit asks for more inquiries than one Get Many can return/,
		);
		expect((stopped as ReadingStopped).reason).toMatchObject({
			description: expect.stringMatching(/Lower the Limit/),
		});
	});

	it('counts what every form of one call holds against the same bounds, and stops every read once past them', () => {
		const holdings = new CallHoldings(true);
		const selection = { readStatus: 'any', sort: 'newestFirst' } as const;
		const [first, second] = [1, 2].map(
			() => new SelectedInquiries(selection, redact, NODE, 0, undefined, holdings),
		);
		const half = Math.floor(MAX_RETURNED_INQUIRIES / 2);
		const offer = (collector: SelectedInquiries, count: number, prefix: string) =>
			selectFromRecords(
				Array.from({ length: count }, (_, i) => ({ _id: `${prefix}${i}` })),
				collector,
			);
		expect(offer(first, half, 'a')).toHaveLength(half);
		// Each form alone is within the bounds; together they are past them.
		expect(() => offer(second, MAX_RETURNED_INQUIRIES - half + 1, 'b')).toThrow(
			/^The app's forms have more inquiries than one Get Many can return/,
		);
		expect(holdings.stopped?.description).toMatch(
			/run Get Many once per date range \(or once per form\)/,
		);
		// A form that failed lets go of what it held: the other's records fit again.
		holdings.release(second);
		expect(holdings.fits()).toBe(true);
		const third = new SelectedInquiries(selection, redact, NODE, 0, undefined, holdings);
		expect(() => third.add({ _id: 'c' }, () => Buffer.from('{"_id":"c"}'))).toThrow(ReadingStopped);
	});
});
