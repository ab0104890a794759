/**
 * When a trigger that keeps failing says so.
 *
 * Once a trigger has polled successfully, a failed poll is logged and tried
 * again at the next tick, as n8n's own polling triggers do: a passing blip
 * (a dropped connection, a 503 during maintenance) should not page anyone.
 * But a failure that lasts (a revoked access token, a deleted form, the API
 * down for a day) must not stay silent, or nobody learns that no leads
 * arrive. So the failed polls in a row are counted per trigger, and once
 * they are at least `afterPolls` and span at least `afterMs`, the poll
 * throws once: n8n stores a failed execution and runs the workflow's error
 * workflow. Later failures of the same streak are logged only; a successful
 * poll ends the streak. Nothing is lost either way: a failed poll saves no
 * position, so the first successful one emits every lead that waited.
 *
 * The count lives in this process's memory, not in the workflow: it needs
 * no saving on a failed poll (n8n saves nothing then), and after a restart
 * a streak that still lasts is reported once more.
 */
export interface FailureStreak {
	/** When the first failed poll of the streak ended (epoch ms). */
	since: number;
	/** Failed polls in a row. */
	polls: number;
	reported: boolean;
}

export interface FailureReporting {
	afterPolls: number;
	afterMs: number;
}

export const DEFAULT_ERROR_AFTER_POLLS = 3;
export const DEFAULT_ERROR_AFTER_MINUTES = 15;

/** The streak after one more failed poll, and whether this poll reports it. Pure. */
export function afterFailedPoll(
	previous: FailureStreak | undefined,
	nowMs: number,
	reporting: FailureReporting,
): { streak: FailureStreak; report: boolean } {
	const since = previous?.since ?? nowMs;
	const polls = (previous?.polls ?? 0) + 1;
	const due = polls >= reporting.afterPolls && nowMs - since >= reporting.afterMs;
	const report = due && previous?.reported !== true;
	return { streak: { since, polls, reported: report || previous?.reported === true }, report };
}

const streaks = new Map<string, FailureStreak>();

/** Counts a failed poll of the trigger; true when this poll is the one to report the failure. */
export function recordFailedPoll(triggerKey: string, nowMs: number, reporting: FailureReporting): FailureStreak & { report: boolean } {
	const { streak, report } = afterFailedPoll(streaks.get(triggerKey), nowMs, reporting);
	streaks.set(triggerKey, streak);
	return { ...streak, report };
}

/** Ends the trigger's streak; returns it, if there was one, so the recovery can be logged. */
export function recordSucceededPoll(triggerKey: string): FailureStreak | undefined {
	const streak = streaks.get(triggerKey);
	streaks.delete(triggerKey);
	return streak;
}
