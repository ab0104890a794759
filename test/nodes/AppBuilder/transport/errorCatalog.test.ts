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
		expect(meaningOf(599).retryable).toBe(true);
		expect(meaningOf(418).retryable).toBe(false);
	});
});
