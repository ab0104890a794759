import { byTimeThenKey } from '../events/latestListings';

// The floor: events after it are judged, those at or before it handled. It is a point in the order
// (time, then key), not a time alone, so that when Max per Poll splits events sharing one time the
// floor can sit between them. No key is empty, so (t, "") is the floor before every event at time t.

export interface OrderPoint {
	time: number;
	key: string;
}

/** Whether an event at (time, key) is after `floor`, so the cursor judges it; at or before, it is handled. */
export function isAfterFloor(time: number, key: string, floor: OrderPoint): boolean {
	return time > floor.time || (time === floor.time && key > floor.key);
}

export function floorBefore(time: number): OrderPoint {
	return { time, key: '' };
}

/** Where the floor goes after a poll (docs/trigger-internals.md, "How it decides what is new"): never past `highest`, never down. */
export function raiseFloor(
	current: OrderPoint,
	tracked: ReadonlyMap<string, number>,
	limits: { lookbackMs: number; maxTracked: number; nowMs: number },
	highest: OrderPoint | undefined,
): OrderPoint {
	let floor = current;
	let newest = -Infinity;
	// A loop, not Math.max(...times): spreading a large form's times overflows the call stack.
	for (const time of tracked.values()) if (time > newest) newest = time;
	if (newest > -Infinity) {
		floor = later(floor, floorBefore(Math.min(newest, limits.nowMs) - limits.lookbackMs));
		// Only keys dated up to now count: records dated ahead, however many, never lift the floor past now.
		floor = later(floor, newestBeyond(tracked, floor, limits.maxTracked, limits.nowMs) ?? floor);
	}
	if (highest !== undefined && isAfterFloor(floor.time, floor.key, highest))
		floor = later(current, highest);
	return floor;
}

/** When more than `count` tracked events up to `nowMs` are after `floor`: the newest of those beyond the newest `count`. */
function newestBeyond(
	tracked: ReadonlyMap<string, number>,
	floor: OrderPoint,
	count: number,
	nowMs: number,
): OrderPoint | undefined {
	const times: number[] = [];
	for (const [key, time] of tracked)
		if (time <= nowMs && isAfterFloor(time, key, floor)) times.push(time);
	if (times.length <= count) return undefined;
	// Times sort as numbers (fast); only the keys at the one time the cut falls in need sorting.
	const newestFirst = Float64Array.from(times).sort().reverse();
	const cutTime = newestFirst[count];
	let newerThanCut = 0;
	while (newestFirst[newerThanCut] > cutTime) newerThanCut++;
	const atCut: string[] = [];
	for (const [key, time] of tracked)
		if (time === cutTime && isAfterFloor(time, key, floor)) atCut.push(key);
	atCut.sort((a, b) => (a < b ? 1 : a > b ? -1 : 0));
	return { time: cutTime, key: atCut[count - newerThanCut] };
}

export function later(a: OrderPoint, b: OrderPoint): OrderPoint {
	return byTimeThenKey(a, b) >= 0 ? a : b;
}

export function earlier(a: OrderPoint, b: OrderPoint): OrderPoint {
	return byTimeThenKey(a, b) <= 0 ? a : b;
}
