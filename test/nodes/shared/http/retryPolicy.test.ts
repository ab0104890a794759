import {
	DEFAULT_RETRY_POLICY,
	nextAttemptAfterFailure,
	nextAttemptAfterRateLimit,
	type RateLimitHistory,
	type RetryPolicy,
} from '../../../../nodes/shared/http/retryPolicy';

/** The wait before the next attempt, or undefined when none is made. */
const delayBeforeNextAttempt = (...args: Parameters<typeof nextAttemptAfterFailure>) => {
	const next = nextAttemptAfterFailure(...args);
	return next.retry ? next.delayMs : undefined;
};
const delayAfterRateLimit = (
	policy: RetryPolicy,
	history: RateLimitHistory,
	retryAfterMs: number | undefined,
	jitter: number,
) => {
	const next = nextAttemptAfterRateLimit(policy, history, retryAfterMs, jitter);
	return next.retry ? next.delayMs : undefined;
};

describe('retry policy', () => {
	it('has the numbers the documentation gives', () => {
		expect(DEFAULT_RETRY_POLICY).toEqual({
			maxAttempts: 4,
			baseDelayMs: 1000,
			maxDelayMs: 60_000,
			minDelayMs: 1000,
			maxRateLimited: 30,
			rateLimitBudgetMs: 5 * 60_000,
		});
	});

	describe('after a failure other than 429', () => {
		it('backs off exponentially and stops after the last attempt', () => {
			expect(delayBeforeNextAttempt(DEFAULT_RETRY_POLICY, 1, undefined, 0)).toBe(1000);
			expect(delayBeforeNextAttempt(DEFAULT_RETRY_POLICY, 3, undefined, 0)).toBe(4000);
			expect(delayBeforeNextAttempt(DEFAULT_RETRY_POLICY, 4, undefined, 0)).toBeUndefined();
		});

		it('lets Retry-After lengthen a wait, never shorten it below the backoff', () => {
			expect(delayBeforeNextAttempt(DEFAULT_RETRY_POLICY, 1, 2500, 0)).toBe(2500);
			expect(delayBeforeNextAttempt(DEFAULT_RETRY_POLICY, 1, 0, 0)).toBe(1000);
			expect(delayBeforeNextAttempt(DEFAULT_RETRY_POLICY, 3, 500, 0)).toBe(4000);
		});

		it('never retries at once, even with no backoff configured', () => {
			const noBackoff: RetryPolicy = { ...DEFAULT_RETRY_POLICY, baseDelayMs: 0 };
			expect(delayBeforeNextAttempt(noBackoff, 1, 0, 0)).toBe(1000);
		});

		it('gives up rather than wait longer than its longest delay', () => {
			expect(delayBeforeNextAttempt(DEFAULT_RETRY_POLICY, 1, 10 * 60_000, 0)).toBeUndefined();
		});
	});

	describe('after a 429', () => {
		it('waits what Retry-After asks, at least the floor, and backs off without it', () => {
			expect(
				delayAfterRateLimit(DEFAULT_RETRY_POLICY, { rateLimited: 1, elapsedMs: 0 }, 7000, 0),
			).toBe(7000);
			expect(
				delayAfterRateLimit(DEFAULT_RETRY_POLICY, { rateLimited: 1, elapsedMs: 0 }, 0, 0),
			).toBe(1000);
			expect(
				delayAfterRateLimit(DEFAULT_RETRY_POLICY, { rateLimited: 3, elapsedMs: 0 }, undefined, 0),
			).toBe(4000);
		});

		it('fails the call at its most 429 answers, or when the next attempt would start past the budget', () => {
			expect(
				delayAfterRateLimit(DEFAULT_RETRY_POLICY, { rateLimited: 29, elapsedMs: 0 }, 0, 0),
			).toBe(1000);
			expect(
				delayAfterRateLimit(DEFAULT_RETRY_POLICY, { rateLimited: 30, elapsedMs: 0 }, 0, 0),
			).toBeUndefined();
			expect(
				delayAfterRateLimit(DEFAULT_RETRY_POLICY, { rateLimited: 2, elapsedMs: 299_000 }, 1000, 0),
			).toBe(1000);
			expect(
				delayAfterRateLimit(DEFAULT_RETRY_POLICY, { rateLimited: 2, elapsedMs: 299_001 }, 1000, 0),
			).toBeUndefined();
			expect(
				delayAfterRateLimit(DEFAULT_RETRY_POLICY, { rateLimited: 1, elapsedMs: 0 }, 301_000, 0),
			).toBeUndefined();
		});

		/** The requests one call sends to a server answering 429 after `answerMs`, until the policy gives up. */
		const requestTimes = (retryAfterMs: number | undefined, answerMs: number): number[] => {
			const sent: number[] = [];
			let now = 0;
			for (let rateLimited = 1; ; rateLimited++) {
				sent.push(now);
				now += answerMs;
				const delay = delayAfterRateLimit(
					DEFAULT_RETRY_POLICY,
					{ rateLimited, elapsedMs: now },
					retryAfterMs,
					0.99,
				);
				if (delay === undefined) return sent;
				now += delay;
			}
		};

		it('sends a server that always answers "Retry-After: 0" at once at most 60 requests a minute, and 30 in all', () => {
			const sent = requestTimes(0, 0);
			expect(sent).toHaveLength(30);
			expect(sent.filter((at) => at < 60_000).length).toBeLessThanOrEqual(60);
			expect(sent[sent.length - 1]).toBe(29_000);
		});

		it('ends within 5 minutes however slowly the 429 answers come', () => {
			const sent = requestTimes(0, 20_000);
			expect(sent[sent.length - 1]).toBeLessThanOrEqual(5 * 60_000);
			expect(sent.length).toBeLessThan(30);
		});

		it('without Retry-After, backs off to a minute between requests and ends within 5 minutes', () => {
			const sent = requestTimes(undefined, 0);
			expect(sent.slice(0, 3)).toEqual([0, 1495, 1495 + 2990]);
			expect(sent[sent.length - 1]).toBeLessThanOrEqual(5 * 60_000);
		});
	});

	// The error a call ends with says why it stopped (webServiceError.ts): each reason where the policy gives it.
	describe('why no further attempt is made', () => {
		it('after a failure: the attempts are used up, or Retry-After asks longer than the longest wait', () => {
			expect(nextAttemptAfterFailure(DEFAULT_RETRY_POLICY, 1, undefined, 0)).toEqual({
				retry: true,
				delayMs: 1000,
			});
			expect(nextAttemptAfterFailure(DEFAULT_RETRY_POLICY, 4, undefined, 0)).toEqual({
				retry: false,
				stop: 'attempts',
			});
			expect(nextAttemptAfterFailure(DEFAULT_RETRY_POLICY, 4, 120_000, 0)).toEqual({
				retry: false,
				stop: 'attempts',
			});
			expect(nextAttemptAfterFailure(DEFAULT_RETRY_POLICY, 1, 60_000, 0)).toEqual({
				retry: true,
				delayMs: 60_000,
			});
			expect(nextAttemptAfterFailure(DEFAULT_RETRY_POLICY, 1, 60_001, 0)).toEqual({
				retry: false,
				stop: 'server-wait',
			});
		});

		it('after a 429: its most 429 answers, or the next attempt past the time for rate limits', () => {
			expect(
				nextAttemptAfterRateLimit(DEFAULT_RETRY_POLICY, { rateLimited: 30, elapsedMs: 0 }, 0, 0),
			).toEqual({ retry: false, stop: 'rate-limit-count' });
			expect(
				nextAttemptAfterRateLimit(
					DEFAULT_RETRY_POLICY,
					{ rateLimited: 1, elapsedMs: 0 },
					301_000,
					0,
				),
			).toEqual({ retry: false, stop: 'rate-limit-time' });
			expect(
				nextAttemptAfterRateLimit(DEFAULT_RETRY_POLICY, { rateLimited: 1, elapsedMs: 0 }, 7000, 0),
			).toEqual({ retry: true, delayMs: 7000 });
		});
	});
});
