import {
	interpretResponse,
	isUnreadableBody,
} from '../../../../nodes/AppBuilder/transport/interpretResponse';
import { cpuMsOf } from '../../../support/cpuTime';

const NOW = Date.parse('2026-01-01T00:00:00Z');
const ERROR_TEXT_CAP = 64 * 1024;

describe('interpretResponse', () => {
	it('accepts a 200 JSON success in both documented success forms', () => {
		expect(
			interpretResponse({ statusCode: 200, body: { successCode: '200', message: 'ok' } }, NOW),
		).toEqual({
			ok: true,
			body: { successCode: '200', message: 'ok' },
		});
		const inquiries = { data: [], status: 'success', msg: 'done' };
		expect(interpretResponse({ statusCode: 200, body: JSON.stringify(inquiries) }, NOW)).toEqual({
			ok: true,
			body: inquiries,
		});
	});

	it.each([
		[
			'status/code/msg in a 200',
			200,
			{ status: 'error', code: 2039, msg: 'Email already exists' },
			2039,
		],
		[
			'successCode/message in a 200',
			200,
			{ successCode: '2036', message: 'Invalid API Key' },
			2036,
		],
		['code as a string', 200, { status: 'error', code: '2041', msg: 'Email Invalid' }, 2041],
		[
			'a 20xx code in a 400 body',
			400,
			{ status: 'error', code: 2040, msg: 'Phone already exists' },
			2040,
		],
		['HTTP status with no code in the body', 401, { msg: 'Unauthorized' }, 401],
		['status word without a code in a 200', 200, { status: 'fail', msg: 'Bad' }, 400],
	])('recognises an error given as %s', (_name, statusCode, body, code) => {
		const outcome = interpretResponse({ statusCode, body: JSON.stringify(body) }, NOW);
		expect(outcome.ok).toBe(false);
		if (!outcome.ok) expect(outcome.code).toBe(code);
	});

	it('keeps the API message for the error description', () => {
		const outcome = interpretResponse(
			{ statusCode: 200, body: { successCode: '2039', message: 'Email already exists' } },
			NOW,
		);
		expect(outcome).toMatchObject({ ok: false, apiMessage: 'Email already exists' });
	});

	it('reads an HTML error page without crashing and finds the code in it', () => {
		const page =
			'<html><head><title>Error</title></head><body><h1>2036</h1><p>Invalid API Key</p></body></html>';
		const outcome = interpretResponse({ statusCode: 200, body: page }, NOW);
		expect(outcome).toMatchObject({ ok: false, code: 2036, bodyKind: 'html' });
		if (!outcome.ok) {
			expect(outcome.apiMessage).toContain('Invalid API Key');
			expect(isUnreadableBody(outcome)).toBe(false);
		}
	});

	it('treats a 502 HTML page from a proxy as a 502', () => {
		const outcome = interpretResponse(
			{ statusCode: 502, body: '<html><body>Bad Gateway</body></html>' },
			NOW,
		);
		expect(outcome).toMatchObject({ ok: false, code: 502, bodyKind: 'html' });
	});

	it('flags a cut-short JSON body and a 200 HTML login page as unreadable', () => {
		const truncated = interpretResponse({ statusCode: 200, body: '{"data":[{"_id":"a"' }, NOW);
		expect(truncated).toMatchObject({ ok: false, bodyKind: 'malformed-json' });
		if (!truncated.ok) expect(isUnreadableBody(truncated)).toBe(true);
		const login = interpretResponse(
			{ statusCode: 200, body: '<html><body>Please sign in</body></html>' },
			NOW,
		);
		if (!login.ok) expect(isUnreadableBody(login)).toBe(true);
		expect(login.ok).toBe(false);
	});

	it('reads Retry-After in seconds and as an HTTP date', () => {
		expect(
			interpretResponse({ statusCode: 429, headers: { 'Retry-After': '3' }, body: '' }, NOW),
		).toMatchObject({ ok: false, code: 429, retryAfterMs: 3000 });
		expect(
			interpretResponse(
				{
					statusCode: 503,
					headers: { 'retry-after': new Date(NOW + 7000).toUTCString() },
					body: '',
				},
				NOW,
			),
		).toMatchObject({ retryAfterMs: 7000 });
		expect(
			interpretResponse({ statusCode: 429, headers: { 'retry-after': 'soon' }, body: '' }, NOW),
		).not.toHaveProperty('retryAfterMs');
	});

	it('reads a 200 KB error page of "<" characters in well under a second', () => {
		for (const page of [
			'<'.repeat(200_000),
			`<${'<script'.repeat(30_000)}`,
			`<p${' <'.repeat(100_000)}`,
		]) {
			const took = cpuMsOf(() => {
				const outcome = interpretResponse({ statusCode: 502, body: page }, NOW);
				expect(outcome).toMatchObject({ ok: false, code: 502, bodyKind: 'html' });
			});
			expect(took).toBeLessThan(500);
		}
	});

	it('reads a 200 KB text or JSON error of digits and word characters in well under a second', () => {
		const bodies = [
			'2'.repeat(200_000),
			`x ${'4'.repeat(200_000)}`,
			JSON.stringify({ status: 'error', msg: `${'5'.repeat(200_000)} ${'<'.repeat(200_000)}` }),
		];
		for (const body of bodies) {
			const took = cpuMsOf(() => {
				expect(
					interpretResponse(
						{ statusCode: 500, headers: { 'retry-after': '1'.repeat(200_000) }, body },
						NOW,
					).ok,
				).toBe(false);
			});
			expect(took).toBeLessThan(500);
		}
	});

	it('keeps the first 64 KB of an error text, so the rest never reaches a pattern', () => {
		const page = `<html><body><p>${'a '.repeat(40_000)}</p><h1>2036</h1></body></html>`;
		const outcome = interpretResponse({ statusCode: 200, body: page }, NOW);
		expect(outcome).toMatchObject({ ok: false, code: 200, bodyKind: 'html' });
		if (!outcome.ok) expect(outcome.apiMessage?.length).toBeLessThanOrEqual(ERROR_TEXT_CAP);

		const message = interpretResponse(
			{ statusCode: 400, body: { status: 'error', msg: 'm'.repeat(1_000_000) } },
			NOW,
		);
		if (!message.ok) expect(message.apiMessage?.length).toBe(ERROR_TEXT_CAP);
		expect(message.ok).toBe(false);
	});

	it('leaves the API message at full length (up to 64 KB), so secrets are redacted before it is shortened for display', () => {
		const text = `${'x'.repeat(295)} key ak_live_7Hq2Zp9XwV was refused`;
		const outcome = interpretResponse(
			{ statusCode: 200, body: { successCode: '2036', message: text } },
			NOW,
		);
		expect(outcome).toMatchObject({ ok: false, code: 2036, apiMessage: text });
	});

	it('cuts script and style out of an error page and decodes its character references', () => {
		const page =
			'<html><head><style>p { color: red }</style><SCRIPT type="x">var code = 2039;</SCRIPT></head>' +
			'<body><p>Bad&nbsp;request &#45; key &lt;missing&gt; &amp; 2041</p><p>a < b</p></body></html>';
		const outcome = interpretResponse({ statusCode: 200, body: page }, NOW);
		expect(outcome).toMatchObject({
			ok: false,
			code: 2041,
			apiMessage: 'Bad request - key <missing> & 2041 a < b',
		});
	});

	it('reads an unclosed script as running to the end of the page, as a browser does', () => {
		const outcome = interpretResponse(
			{ statusCode: 500, body: '<p>Oops</p><script>var secret = "x"; <p>2036</p>' },
			NOW,
		);
		expect(outcome).toMatchObject({ ok: false, code: 500, apiMessage: 'Oops' });
	});
});
