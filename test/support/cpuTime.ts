/* eslint-disable @n8n/community-nodes/no-restricted-globals -- a test helper on Node itself: it reads the process's processor time */

/**
 * The processor time this process spends running `work`, in milliseconds.
 * What a test of "in linear time" or "at once" measures: a busy machine
 * stretches the wall-clock time of the same work several times over (a
 * neighbour's job, the other test worker), but not the time spent computing
 * it, so the bound says how much work was done and not how loaded the
 * machine was.
 */
export function cpuMsOf(work: () => void): number {
	const before = process.cpuUsage();
	work();
	const { user, system } = process.cpuUsage(before);
	return (user + system) / 1000;
}
