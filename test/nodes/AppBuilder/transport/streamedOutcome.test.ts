import { InquiryListBuilder } from '../../../../nodes/AppBuilder/trigger/inquiryList';
import { readInquiryStream } from '../../../../nodes/AppBuilder/inquiries/readInquiryStream';
import { streamedOutcome, type StreamedResponse } from '../../../../nodes/AppBuilder/transport/streamedOutcome';

/** A server that answers each request with the next of `answers`, in two chunks; counts what was asked. */
function server(answers: Array<{ status: number; body: string }>) {
	const asked: number[] = [];
	const send = async (): Promise<StreamedResponse> => {
		asked.push(asked.length + 1);
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
const readLaterPoll = (chunks: AsyncIterable<Buffer | string>) =>
	readInquiryStream(chunks, new InquiryListBuilder('new', (event) => event.time === undefined || event.time >= 1_700_000_000_000));
const OLD = '{"_id":"old","addedon":1600000000}';
const NEW = '{"_id":"new","addedon":1700000500}';

describe('streamedOutcome', () => {
	it('reads a successful answer as it arrives, in one request', async () => {
		const { send, asked } = server([{ status: 200, body: `{"status":"success","data":[${OLD},${NEW}]}` }]);
		const outcome = await streamedOutcome(send, readLaterPoll);
		expect(outcome.ok).toBe(true);
		expect(asked).toHaveLength(1);
	});

	it('reads an error answer whole and recognises its code', async () => {
		const { send } = server([{ status: 401, body: '{"status":"error","code":401,"msg":"Invalid access token"}' }]);
		expect(await streamedOutcome(send, readLaterPoll)).toMatchObject({ ok: false, code: 401, apiMessage: 'Invalid access token' });
	});

	it('recognises an error answer sent with status 200 and no data', async () => {
		const { send } = server([{ status: 200, body: '{"successCode":"2032","message":"apiKey is required"}' }]);
		expect(await streamedOutcome(send, readLaterPoll)).toMatchObject({ ok: false, code: 2032 });
	});

	it('reads whole an answer the scan does not take before any record was let go', async () => {
		const { send, asked } = server([{ status: 200, body: '<html><body>502 Bad Gateway</body></html>' }]);
		expect(await streamedOutcome(send, readLaterPoll)).toMatchObject({ ok: false, code: 502, bodyKind: 'html' });
		expect(asked).toHaveLength(1);
	});

	it('fails as cut short an answer that stops after records were let go, without asking again', async () => {
		const { send, asked } = server([{ status: 200, body: `{"data":[${OLD},${NEW}` }]);
		expect(await streamedOutcome(send, readLaterPoll)).toEqual({ ok: false, code: 200, httpStatus: 200, bodyKind: 'malformed-json' });
		expect(asked).toHaveLength(1);
	});

	it('asks again, and reads whole, an answer that turns odd after records were let go', async () => {
		const odd = `{"data":[${OLD}],"data":[${NEW}]}`;
		const { send, asked } = server([
			{ status: 200, body: odd },
			{ status: 200, body: odd },
		]);
		const outcome = await streamedOutcome(send, readLaterPoll);
		// JSON.parse keeps the last "data", as the whole read does.
		expect(outcome).toEqual({ ok: true, body: { data: [JSON.parse(NEW)] } });
		expect(asked).toHaveLength(2);
	});
});
