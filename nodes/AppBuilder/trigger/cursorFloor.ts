/**
 * Where the floor goes after a poll (see ARCHITECTURE.md, "The cursor"):
 * up to lookbackMs below the newest tracked time, capped at now; then, while
 * more than maxTracked times are at or above it, past whole groups of equal
 * times (a split tie would let its forgotten half be emitted again). Never down.
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
