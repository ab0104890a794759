/**
 * When to send a web-service request again, and after how long. 429, 5xx,
 * dropped connections and cut-short bodies are worth another attempt; every
 * other error is a fact about the request that repeating will not change.
 */
export interface RetryPolicy {
	/** Total attempts, the first one included. */
	maxAttempts: number;
	/** Wait before the second attempt; doubles with each further one. */
	baseDelayMs: number;
	/** Longest wait between two attempts, Retry-After included; a longer Retry-After ends the retries. */
	maxDelayMs: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = {
	maxAttempts: 4,
	baseDelayMs: 1000,
	maxDelayMs: 60_000,
};

/**
 * The wait before attempt number `attempt + 1`, or undefined when no further
 * attempt should be made. `jitter` in [0, 1) spreads clients that failed together.
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
	const exponential = policy.baseDelayMs * 2 ** (attempt - 1);
	return Math.min(policy.maxDelayMs, Math.round(exponential * (1 + jitter / 2)));
}
