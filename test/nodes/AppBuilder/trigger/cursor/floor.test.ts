import fc from 'fast-check';

import {
	floorBefore,
	isAfter,
	later,
	raiseFloor,
	type OrderPoint,
} from '../../../../../nodes/AppBuilder/trigger/cursor/floor';
import { caseCount } from '../../../../support/testSize';

const byTimeThenKey = (a: OrderPoint, b: OrderPoint) =>
	a.time - b.time || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0);

/**
 * The floor rule written the slow way: the lookback from the newest (capped at now), then the cut
 * past the newest maxTracked of those dated up to now (records dated ahead never lift it past
 * now), never down, never past `highest`.
 */
function modelFloor(
	current: OrderPoint,
	tracked: ReadonlyMap<string, number>,
	limits: { lookbackMs: number; maxTracked: number; nowMs: number },
	highest: OrderPoint | undefined,
): OrderPoint {
	const events = [...tracked].map(([key, time]) => ({ time, key }));
	let floor = current;
	if (events.length > 0) {
		const newest = Math.max(...events.map(({ time }) => time));
		const lookback = { time: Math.min(newest, limits.nowMs) - limits.lookbackMs, key: '' };
		if (byTimeThenKey(lookback, floor) > 0) floor = lookback;
		const after = events
			.filter((event) => event.time <= limits.nowMs && byTimeThenKey(event, floor) > 0)
			.sort((a, b) => byTimeThenKey(b, a));
		if (after.length > limits.maxTracked) {
			const cut = after[limits.maxTracked];
			if (byTimeThenKey(cut, floor) > 0) floor = cut;
		}
	}
	if (highest !== undefined && byTimeThenKey(floor, highest) > 0)
		floor = byTimeThenKey(current, highest) >= 0 ? current : highest;
	return floor;
}

const position = fc.record({
	time: fc.integer({ min: 0, max: 40 }),
	key: fc.constantFrom('', 'a', 'b', 'c', 'd'),
});

describe('the floor', () => {
	it('orders by time, then key, and (t, "") is before every event at t', () => {
		expect(isAfter({ time: 5, key: 'a' }, floorBefore(5))).toBe(true);
		expect(isAfter({ time: 5, key: 'a' }, { time: 5, key: 'a' })).toBe(false);
		expect(isAfter({ time: 5, key: 'b' }, { time: 5, key: 'a' })).toBe(true);
		expect(isAfter({ time: 4, key: 'z' }, { time: 5, key: '' })).toBe(false);
		expect(later({ time: 5, key: 'a' }, { time: 5, key: 'b' })).toEqual({ time: 5, key: 'b' });
	});

	it('rises as the slow model of its rule says: by the lookback, past the newest maxTracked up to now, never down, never past an event left for later (property)', () => {
		fc.assert(
			fc.property(
				position,
				fc.array(
					fc.tuple(
						fc.constantFrom('a', 'b', 'c', 'd', 'e', 'f', 'g'),
						fc.integer({ min: 0, max: 40 }),
					),
				),
				fc.record({
					lookbackMs: fc.integer({ min: 0, max: 30 }),
					maxTracked: fc.integer({ min: 1, max: 5 }),
					nowMs: fc.integer({ min: 0, max: 40 }),
				}),
				fc.option(position, { nil: undefined }),
				(current, entries, limits, highest) => {
					const tracked = new Map(entries);
					const raised = raiseFloor(current, tracked, limits, highest);
					expect(raised).toEqual(modelFloor(current, tracked, limits, highest));
					expect(byTimeThenKey(raised, current)).toBeGreaterThanOrEqual(0);
				},
			),
			{ numRuns: caseCount('FLOOR', 2000, 20_000) },
		);
	});
});
