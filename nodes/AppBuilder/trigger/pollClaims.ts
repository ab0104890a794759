/**
 * One poll at a time per trigger, in this n8n process.
 *
 * n8n starts a poll at every tick even while the previous poll of the same
 * node is still running (a slow answer, a poll interval in seconds), and
 * both polls share the node's static data: both would read the same
 * position and emit the same leads. A poll therefore claims its trigger
 * (workflow ID and node ID) before it reads the position; a poll that finds
 * the claim held returns at once and leaves the leads to the poll under
 * way, which emits every lead it finds, and the next tick reads the rest.
 *
 * A claim lapses at the time its poll gave (well past the poll's own
 * deadlines), so a poll that never ends cannot stop the trigger for good;
 * the position check at the end of a poll (see pollInquiries.ts) keeps such
 * a poll from emitting what a later one already did.
 */
interface Claim {
	lapsesAt: number;
}

const claims = new Map<string, Claim>();

/** A release function when this poll may run, undefined when another poll of the trigger is under way. */
export function claimPoll(triggerKey: string, nowMs: number, lapsesAt: number): (() => void) | undefined {
	const held = claims.get(triggerKey);
	if (held !== undefined && nowMs < held.lapsesAt) return undefined;
	const claim: Claim = { lapsesAt };
	claims.set(triggerKey, claim);
	return () => {
		// A poll that outlived its claim must not release the claim of the poll that took over.
		if (claims.get(triggerKey) === claim) claims.delete(triggerKey);
	};
}
