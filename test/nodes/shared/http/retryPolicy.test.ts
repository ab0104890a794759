import { delayBeforeNextAttempt, DEFAULT_RETRY_POLICY } from '../../../../nodes/shared/http/retryPolicy';
import { destinationOf } from '../../../../nodes/shared/hostRouting';
import { redactSecrets } from '../../../../nodes/shared/text/redact';
import { API_ERROR_CATALOG, meaningOf } from '../../../../nodes/AppBuilder/transport/errorCatalog';

describe('retry policy', () => {
	it('honours Retry-After, backs off exponentially, and stops after the last attempt', () => {
		expect(delayBeforeNextAttempt(DEFAULT_RETRY_POLICY, 1, 2500, 0)).toBe(2500);
		expect(delayBeforeNextAttempt(DEFAULT_RETRY_POLICY, 1, undefined, 0)).toBe(1000);
		expect(delayBeforeNextAttempt(DEFAULT_RETRY_POLICY, 3, undefined, 0)).toBe(4000);
		expect(delayBeforeNextAttempt(DEFAULT_RETRY_POLICY, 4, undefined, 0)).toBeUndefined();
	});

	it('gives up rather than wait longer than its longest delay', () => {
		expect(delayBeforeNextAttempt(DEFAULT_RETRY_POLICY, 1, 10 * 60_000, 0)).toBeUndefined();
	});
});

describe('which host gets which secret', () => {
	const web = 'https://api.appexecutable.com';
	const connect = 'https://connectcloud.appypie.com';

	it('sends the access token only to the web-service origin', () => {
		expect(destinationOf(`${web}/V4/webservices/addUser.php`, undefined, web, connect)).toBe('webService');
		expect(destinationOf(`${connect}/v1/profile`, undefined, web, connect)).toBe('connect');
		expect(destinationOf('https://evil.example.com/V4/webservices/addUser.php', undefined, web, connect)).toBe('other');
		// Same host name, other port or scheme: another origin.
		expect(destinationOf('http://api.appexecutable.com/V4/webservices/addUser.php', undefined, web, connect)).toBe('other');
	});

	it('treats the Connect host as unknown when Connect is not configured', () => {
		expect(destinationOf(`${connect}/v1/profile`, undefined, web, undefined)).toBe('other');
	});

	it('resolves relative URLs against the request base URL, and tells services apart by path on a shared host', () => {
		expect(destinationOf('/v1/profile', connect, web, connect)).toBe('connect');
		const shared = 'http://127.0.0.1:9000';
		expect(destinationOf(`${shared}/V4/webservices/editUser.php`, undefined, shared, shared)).toBe('webService');
		expect(destinationOf(`${shared}/v1/profile`, undefined, shared, shared)).toBe('connect');
		expect(destinationOf('not a url', undefined, web, connect)).toBe('other');
	});
});

describe('redactSecrets', () => {
	it('removes every occurrence of each secret, short ones included', () => {
		expect(redactSecrets('Invalid API Key abc12345 (abc12345) x', ['abc12345', 'x'])).toBe(
			'Invalid API Key [redacted] ([redacted]) [redacted]',
		);
	});
});

describe('error catalog', () => {
	it('explains every code of the spec\'s error table with a fix', () => {
		const specCodes = [400, 401, 403, 404, 405, 406, 410, 429, 500, 503, 2032, 2034, 2036, 2038, 2039, 2040, 2041];
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
