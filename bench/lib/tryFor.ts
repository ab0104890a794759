/* eslint-disable @n8n/community-nodes/no-restricted-globals -- n8n Cloud's limits are for nodes; this runs on Node itself (timers) */
/**
 * A call to an n8n that the benchmark has just loaded past what it carries:
 * it may answer 5xx for a while as it catches up (seen: 503 "Database is
 * not ready!" listing executions right after a 5-minute window of 182
 * triggers on 10,000-inquiry forms). The call is tried again until it
 * answers or `forMs` has passed; then the last failure is given back, for
 * the caller to count against the window rather than end the run.
 */
export type Tried<T> = { ok: true; value: T } | { ok: false; error: string; tries: number };

export async function tryFor<T>(
	call: () => Promise<T>,
	limits: { forMs: number; everyMs: number },
	/** A failure asking again cannot mend, given back at once. */
	isFinal: (error: unknown) => boolean = () => false,
): Promise<Tried<T>> {
	const deadline = Date.now() + limits.forMs;
	for (let tries = 1; ; tries++) {
		try {
			return { ok: true, value: await call() };
		} catch (error) {
			const message = error instanceof Error ? error.message : String(error);
			if (isFinal(error) || Date.now() + limits.everyMs > deadline)
				return { ok: false, error: message.slice(0, 200), tries };
			await new Promise((resolve) => setTimeout(resolve, limits.everyMs));
		}
	}
}
