/* eslint-disable @n8n/community-nodes/no-restricted-globals -- n8n Cloud's limits are for nodes; this runs on Node itself (timers, process) */
/**
 * The highest reading of a memory figure while some work runs: read just
 * before, every millisecond during (the work must yield, as reading an
 * answer chunk by chunk does, for the samples to see each step) and just
 * after.
 */
export async function highestDuring<T>(
	read: () => number,
	work: () => Promise<T>,
): Promise<{ value: T; before: number; highest: number }> {
	const before = read();
	let highest = before;
	const sampler = setInterval(() => {
		highest = Math.max(highest, read());
	}, 1);
	try {
		const value = await work();
		highest = Math.max(highest, read());
		return { value, before, highest };
	} finally {
		clearInterval(sampler);
	}
}

/**
 * How much the resident set size rose above where it was while `work` ran,
 * at its highest: sampled as above, and the process's maximum when the work
 * set a new one (a peak between two samples still shows there).
 */
export async function peakRssAddedDuring<T>(
	work: () => Promise<T>,
): Promise<{ value: T; peakAddedBytes: number }> {
	const maxBefore = process.resourceUsage().maxRSS * 1024;
	const { value, before, highest } = await highestDuring(() => process.memoryUsage.rss(), work);
	const maxAfter = process.resourceUsage().maxRSS * 1024;
	const peak = maxAfter > maxBefore ? Math.max(highest, maxAfter) : highest;
	return { value, peakAddedBytes: Math.max(0, peak - before) };
}
