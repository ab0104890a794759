import { failureCauseOf } from '../../../../nodes/AppBuilder/transport/failureCause';
import type { CallFailure } from '../../../../nodes/AppBuilder/transport/callFailure';
import type { WebServiceFailure } from '../../../../nodes/AppBuilder/transport/interpretResponse';

describe("a failed call's cause in n8n's terms", () => {
	const api = (code: number, extra: Partial<WebServiceFailure> = {}): CallFailure => ({
		ok: false,
		kind: 'api',
		code,
		httpStatus: code < 1000 ? code : 400,
		bodyKind: 'json',
		...extra,
	});

	it.each([
		[401, 'credential-invalid'],
		[403, 'credential-invalid'],
		[2036, 'credential-invalid'],
		[2032, 'credential-invalid'],
		[404, 'configuration-invalid'],
		[410, 'configuration-invalid'],
		[400, 'configuration-invalid'],
		[500, 'temporarily-unavailable'],
		[503, 'temporarily-unavailable'],
		[599, 'temporarily-unavailable'],
	])('API code %s is %s', (code, cause) => {
		expect(failureCauseOf(api(code))).toEqual({ cause });
	});

	it('a rate limit carries the wait the API asked for', () => {
		expect(failureCauseOf(api(429, { retryAfterMs: 30_000 }))).toEqual({
			cause: 'rate-limited',
			retryAfterMs: 30_000,
		});
		expect(failureCauseOf(api(429))).toEqual({ cause: 'rate-limited' });
	});

	it("an item's own problem (an email in use) is no cause of the call", () => {
		expect(failureCauseOf(api(2039))).toBeUndefined();
		expect(failureCauseOf(api(2040))).toBeUndefined();
	});

	it('a proxy page in place of the answer, a dropped connection or a slow answer are temporary', () => {
		expect(
			failureCauseOf({ ok: false, kind: 'api', code: 200, httpStatus: 200, bodyKind: 'html' }),
		).toEqual({
			cause: 'temporarily-unavailable',
		});
		expect(failureCauseOf({ ok: false, kind: 'network', errorCode: 'ECONNRESET' })).toEqual({
			cause: 'temporarily-unavailable',
		});
		expect(failureCauseOf({ ok: false, kind: 'limit', limit: 'time', bound: 120 })).toEqual({
			cause: 'temporarily-unavailable',
		});
	});

	it('a redirect or an answer past its size bound mean the base URL points elsewhere', () => {
		expect(failureCauseOf({ ok: false, kind: 'limit', limit: 'bytes', bound: 1 })).toEqual({
			cause: 'configuration-invalid',
		});
		expect(failureCauseOf({ ok: false, kind: 'redirect', httpStatus: 302, target: 'x' })).toEqual({
			cause: 'configuration-invalid',
		});
	});
});
