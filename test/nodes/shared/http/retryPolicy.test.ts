import { delayBeforeNextAttempt, DEFAULT_RETRY_POLICY } from '../../../../nodes/shared/http/retryPolicy';

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
