import { API_ERROR_CATALOG, meaningOf } from '../../../../nodes/AppBuilder/transport/errorCatalog';

describe('error catalog', () => {
	it("explains every code of the spec's error table with a fix", () => {
		const specCodes = [
			400, 401, 403, 404, 405, 406, 410, 429, 500, 503, 2032, 2034, 2036, 2038, 2039, 2040, 2041,
		];
		for (const code of specCodes) {
			const meaning = API_ERROR_CATALOG[code];
			expect(meaning).toBeDefined();
			expect(meaning.fix.length).toBeGreaterThan(20);
		}
		expect(API_ERROR_CATALOG[2039].fix).toMatch(/Update User/);
		expect(meaningOf(599).about).toBe('transient');
		expect(meaningOf(418).about).toBe('item');
	});

	// Each says what a workflow builder does next, in their words: no header names, no proxies to debug.
	it.each([
		[400, /a field filled by an expression may be empty or wrong/],
		[405, /leave it at https:\/\/api\.appexecutable\.com/],
		[406, /Web Service Base URL.*ask whoever runs your n8n/],
		[
			2039,
			/already has an account: send them to the app to log in.*On Error to Continue \(using error output\).*needs their current password/,
		],
		[2040, /check the number for this item, or leave Phone out/],
	])('says what to do for %s', (code, fix) => {
		expect(API_ERROR_CATALOG[code].fix).toMatch(fix);
		expect(API_ERROR_CATALOG[code].fix).not.toMatch(/Accept header|rewriting the request/);
	});

	// Whether the node tried again depends on the call (webServiceError.ts says it); a fix claims nothing of it.
	it.each([429, 500, 502, 503, 504, 599])('claims no retry in the fix for %s', (code) => {
		expect(meaningOf(code).fix).not.toMatch(/retried|already|waited/i);
	});
});
