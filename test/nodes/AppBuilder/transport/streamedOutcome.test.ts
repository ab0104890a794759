import {
	InquiryListBuilder,
	type InquiryList,
} from '../../../../nodes/AppBuilder/trigger/events/inquiryList';
import { readInquiryStream } from '../../../../nodes/AppBuilder/inquiries/readInquiryStream';
import {
	streamedOutcome,
	type AnswerReading,
	type StreamedResponse,
} from '../../../../nodes/AppBuilder/transport/streamedOutcome';
import { valueRedactor, type ValueRedactor } from '../../../../nodes/shared/text/redact';

/** A server that answers each request with the next of `answers`, in two chunks; counts what was asked. */
function server(answers: Array<{ status: number; body: string }>) {
	const asked: AnswerReading[] = [];
	const send = async (reading: AnswerReading): Promise<StreamedResponse> => {
		asked.push(reading);
		const { status, body } = answers[asked.length - 1];
		const bytes = Buffer.from(body);
		async function* chunks() {
			yield bytes.subarray(0, bytes.length >> 1);
			yield bytes.subarray(bytes.length >> 1);
		}
		return { statusCode: status, chunks: chunks() };
	};
	return { send, asked };
}
/** The trigger's reading on a later poll: only inquiries from 1,700,000,000 s on may be emitted. */
const readLaterPoll = (chunks: AsyncIterable<Buffer | string>, redact: ValueRedactor) =>
	readInquiryStream(
		chunks,
		new InquiryListBuilder(
			'new',
			{
				kind: 'matching',
				keeps: (event) => event.time === undefined || event.time >= 1_700_000_000_000,
			},
			redact,
		),
	);
/** No secret to take out. */
const keepAsIs: ValueRedactor = (value) => value;
/** Takes "s3cret" out, as the transport's redactor takes the credential's secrets out. */
const redactS3cret = valueRedactor(['s3cret']);
const OLD = '{"_id":"old","addedon":1600000000}';
const NEW = '{"_id":"new","addedon":1700000500}';

describe('streamedOutcome', () => {
	it('reads a successful answer as it arrives, in one request', async () => {
		const { send, asked } = server([
			{ status: 200, body: `{"status":"success","data":[${OLD},${NEW}]}` },
		]);
		const outcome = await streamedOutcome(send, keepAsIs, readLaterPoll);
		expect(outcome.ok).toBe(true);
		expect(asked).toHaveLength(1);
	});

	it('reads an error answer whole and recognises its code', async () => {
		const { send } = server([
			{ status: 401, body: '{"status":"error","code":401,"msg":"Invalid access token"}' },
		]);
		expect(await streamedOutcome(send, keepAsIs, readLaterPoll)).toMatchObject({
			ok: false,
			code: 401,
			apiMessage: 'Invalid access token',
		});
	});

	it('recognises an error answer sent with status 200 and no data', async () => {
		const { send } = server([
			{ status: 200, body: '{"successCode":"2032","message":"apiKey is required"}' },
		]);
		expect(await streamedOutcome(send, keepAsIs, readLaterPoll)).toMatchObject({
			ok: false,
			code: 2032,
		});
	});

	it('reads whole an answer the scan does not take before any record was let go', async () => {
		const { send, asked } = server([
			{ status: 200, body: '<html><body>502 Bad Gateway</body></html>' },
		]);
		expect(await streamedOutcome(send, keepAsIs, readLaterPoll)).toMatchObject({
			ok: false,
			code: 502,
			bodyKind: 'html',
		});
		expect(asked).toHaveLength(1);
	});

	it('fails as cut short an answer that stops after records were let go, without asking again', async () => {
		const { send, asked } = server([{ status: 200, body: `{"data":[${OLD},${NEW}` }]);
		expect(await streamedOutcome(send, keepAsIs, readLaterPoll)).toEqual({
			ok: false,
			kind: 'api',
			code: 200,
			httpStatus: 200,
			bodyKind: 'malformed-json',
		});
		expect(asked).toHaveLength(1);
	});

	it('asks again, and reads whole, an answer that turns odd after records were let go', async () => {
		const odd = `{"data":[${OLD}],"data":[${NEW}]}`;
		const { send, asked } = server([
			{ status: 200, body: odd },
			{ status: 200, body: odd },
		]);
		const outcome = await streamedOutcome(send, keepAsIs, readLaterPoll);
		// JSON.parse keeps the last "data", as the whole read does.
		expect(outcome).toEqual({ ok: true, body: { data: [JSON.parse(NEW)] } });
		expect(asked).toEqual(['as-it-arrives', 'whole']);
	});

	describe('takes an echoed secret out of a success on every path', () => {
		const ECHO = '{"_id":"new","addedon":1700000500,"note":"token s3cret"}';
		const echoed = `{"status":"success","msg":"hello s3cret","data":[${OLD},${ECHO}]}`;

		it("read as it arrives: the answer's fields and each record handed on", async () => {
			const { send } = server([{ status: 200, body: echoed }]);
			const outcome = await streamedOutcome(send, redactS3cret, readLaterPoll);
			if (!outcome.ok) throw new Error('expected a success');
			expect(outcome.body.msg).toBe('hello [redacted]');
			const list = outcome.body.data as unknown as InquiryList;
			expect(list.recordOf('new')).toEqual({
				_id: 'new',
				addedon: 1700000500,
				note: 'token [redacted]',
			});
			// What identity reads is the record as sent: its key does not change.
			expect(list.events.map((event) => event.key)).toEqual(['old', 'new']);
		});

		it('read whole', async () => {
			const { send } = server([{ status: 200, body: echoed }]);
			const outcome = await streamedOutcome(send, redactS3cret);
			expect(JSON.stringify(outcome)).not.toContain('s3cret');
			expect(outcome).toMatchObject({ ok: true, body: { msg: 'hello [redacted]' } });
		});

		it('asked again and read whole', async () => {
			const odd = `{"data":[${OLD}],"data":[${ECHO}]}`;
			const { send } = server([
				{ status: 200, body: odd },
				{ status: 200, body: odd },
			]);
			const outcome = await streamedOutcome(send, redactS3cret, readLaterPoll);
			expect(outcome).toEqual({
				ok: true,
				body: { data: [{ _id: 'new', addedon: 1700000500, note: 'token [redacted]' }] },
			});
		});
	});
});
