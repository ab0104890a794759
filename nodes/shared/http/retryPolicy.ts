// When to send a web-service request again, and after how long. 5xx, dropped connections and
// cut-short bodies are worth a few more attempts; a 429 is back-pressure, not a failure, and is
// waited out within its own bounds: a number of answers and a time from the call's start. Every
// other error is a fact about the request that repeating will not change. No request is ever sent
// again at once: every wait is at least minDelayMs, whatever Retry-After says, so a server
// answering "Retry-After: 0" for ever gets at most one request a second from each call, and only
// for a while.

export interface RetryPolicy {
	/**
	 * Total attempts for failures other than 429, the first one included; 429 answers do not count.
	 */
	maxAttempts: number;
	/** Wait before the second attempt; doubles with each further one. */
	baseDelayMs: number;
	/**
	 * Longest wait between two attempts after a failure; a longer
	 * Retry-After on a 5xx ends the retries.
	 */
	maxDelayMs: number;
	/** Shortest wait before any further attempt, after a failure or a 429 alike. */
	minDelayMs: number;
	/** Most 429 answers one call takes: the one after that many fails it. */
	maxRateLimited: number;
	/**
	 * After a 429, a further attempt is made only if it starts within
	 * this time from the call's start.
	 */
	rateLimitBudgetMs: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = {
	maxAttempts: 4,
	baseDelayMs: 1000,
	maxDelayMs: 60_000,
	minDelayMs: 1000,
	maxRateLimited: 30,
	rateLimitBudgetMs: 5 * 60_000,
};

/**
 * Why a call makes no further attempt, so that its error says what the node
 * did: the failure is not worth repeating, the attempts are used up, the
 * server asked for a wait longer than maxDelayMs, the call had its most 429
 * answers, its next attempt after a 429 would start past rateLimitBudgetMs,
 * or (the caller's) the call's deadline would pass first.
 */
export type StopReason =
	| 'not-retryable'
	| 'attempts'
	| 'server-wait'
	| 'rate-limit-count'
	| 'rate-limit-time'
	| 'deadline';

export type NextAttempt = { retry: true; delayMs: number } | { retry: false; stop: StopReason };

/**
 * The wait after the `failures`-th failure other than 429, before the next
 * attempt, or why no further attempt should be made. Retry-After may
 * lengthen the backoff, never shorten it. `jitter` in [0, 1) spreads
 * clients that failed together.
 */
export function nextAttemptAfterFailure(
	policy: RetryPolicy,
	failures: number,
	retryAfterMs: number | undefined,
	jitter: number,
): NextAttempt {
	if (failures >= policy.maxAttempts) return { retry: false, stop: 'attempts' };
	if (retryAfterMs !== undefined && retryAfterMs > policy.maxDelayMs)
		return { retry: false, stop: 'server-wait' };
	return {
		retry: true,
		delayMs: Math.max(policy.minDelayMs, retryAfterMs ?? 0, backoff(policy, failures, jitter)),
	};
}

/** Where a call stands when a 429 arrives. */
export interface RateLimitHistory {
	/** The 429 answers so far, this one included. */
	rateLimited: number;
	/** Time since the call started. */
	elapsedMs: number;
}

/**
 * The wait after a 429, or why the call should fail: it had its most 429
 * answers, or the next attempt would start past the budget. What
 * Retry-After asks is waited (never less than minDelayMs); without it, the
 * backoff doubles with each 429.
 */
export function nextAttemptAfterRateLimit(
	policy: RetryPolicy,
	history: RateLimitHistory,
	retryAfterMs: number | undefined,
	jitter: number,
): NextAttempt {
	if (history.rateLimited >= policy.maxRateLimited)
		return { retry: false, stop: 'rate-limit-count' };
	const delay = Math.max(
		policy.minDelayMs,
		retryAfterMs ?? backoff(policy, history.rateLimited, jitter),
	);
	return history.elapsedMs + delay <= policy.rateLimitBudgetMs
		? { retry: true, delayMs: delay }
		: { retry: false, stop: 'rate-limit-time' };
}

function backoff(policy: RetryPolicy, attempt: number, jitter: number): number {
	const exponential = policy.baseDelayMs * 2 ** Math.min(attempt - 1, 16);
	return Math.min(policy.maxDelayMs, Math.round(exponential * (1 + jitter / 2)));
}
