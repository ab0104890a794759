/**
 * When to send a web-service request again, and after how long. 5xx,
 * dropped connections and cut-short bodies are worth a few more attempts; a
 * 429 is back-pressure, not a failure, and is waited out for as long as the
 * total wait stays within its budget. Every other error is a fact about the
 * request that repeating will not change.
 */
export interface RetryPolicy {
	/** Total attempts for failures other than 429, the first one included. */
	maxAttempts: number;
	/** Wait before the second attempt; doubles with each further one. */
	baseDelayMs: number;
	/** Longest wait between two attempts; a longer Retry-After on a 5xx ends the retries. */
	maxDelayMs: number;
	/** Longest total time one call waits out 429 answers before it fails. */
	rateLimitWaitMs: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = {
	maxAttempts: 4,
	baseDelayMs: 1000,
	maxDelayMs: 60_000,
	rateLimitWaitMs: 5 * 60_000,
};

/**
 * The wait before attempt number `attempt + 1` after a failure other than
 * 429, or undefined when no further attempt should be made. `jitter` in
 * [0, 1) spreads clients that failed together.
 */
export function delayBeforeNextAttempt(
	policy: RetryPolicy,
	attempt: number,
	retryAfterMs: number | undefined,
	jitter: number,
): number | undefined {
	if (attempt >= policy.maxAttempts) return undefined;
	if (retryAfterMs !== undefined) {
		return retryAfterMs <= policy.maxDelayMs ? retryAfterMs : undefined;
	}
	return backoff(policy, attempt, jitter);
}

/**
 * The wait after the `rateLimited`-th 429 of a call that has already waited
 * `waitedMs` for earlier ones, or undefined when it would go past the budget.
 */
export function delayAfterRateLimit(
	policy: RetryPolicy,
	rateLimited: number,
	waitedMs: number,
	retryAfterMs: number | undefined,
	jitter: number,
): number | undefined {
	const delay = retryAfterMs ?? backoff(policy, rateLimited, jitter);
	return waitedMs + delay <= policy.rateLimitWaitMs ? delay : undefined;
}

function backoff(policy: RetryPolicy, attempt: number, jitter: number): number {
	const exponential = policy.baseDelayMs * 2 ** Math.min(attempt - 1, 16);
	return Math.min(policy.maxDelayMs, Math.round(exponential * (1 + jitter / 2)));
}
