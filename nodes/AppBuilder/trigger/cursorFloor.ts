/**
 * Where the cursor's floor goes after a poll. Everything below the floor is
 * taken as handled and forgotten, which is what keeps the state small.
 *
 * 1. Lookback: the floor rises to (newest tracked time, capped at now) minus
 *    lookbackMs. The cap keeps one record dated in the future from lifting
 *    the floor over the leads that follow it.
 * 2. Count: if more than maxTracked times are still at or above the floor,
 *    it rises to the smallest time that leaves at most maxTracked of them,
 *    dropping whole groups of equal times, so a tie is never split (a split
 *    tie would let its forgotten half be emitted again). When the newest
 *    group alone holds more than maxTracked, it is kept whole: the bound is
 *    then exceeded by exactly that group.
 * The floor never goes down.
 */
export function raiseFloor(
	current: number,
	times: Iterable<number>,
	limits: { lookbackMs: number; maxTracked: number; nowMs?: number },
): number {
	const all: number[] = [];
	let newest = -Infinity;
	// A loop, not Math.max(...times): spreading a large form's times overflows the call stack.
	for (const time of times) {
		all.push(time);
		if (time > newest) newest = time;
	}
	if (all.length === 0) return current;
	const anchor = limits.nowMs === undefined ? newest : Math.min(newest, limits.nowMs);
	const floor = Math.max(current, anchor - limits.lookbackMs);

	const inWindow = Float64Array.from(all.filter((time) => time >= floor)).sort().reverse();
	if (inWindow.length <= limits.maxTracked) return floor;

	let kept = 0;
	let index = 0;
	while (index < inWindow.length) {
		const groupTime = inWindow[index];
		let end = index;
		while (end < inWindow.length && inWindow[end] === groupTime) end++;
		if (kept > 0 && kept + (end - index) > limits.maxTracked) {
			// Just above the dropped group: times are whole milliseconds, and
			// never above the lowest kept group should they not be.
			return Math.max(floor, Math.min(groupTime + 1, inWindow[index - 1]));
		}
		kept += end - index;
		index = end;
	}
	return floor;
}
