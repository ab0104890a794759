import fc from 'fast-check';

import { NewestListings } from '../../../../../nodes/AppBuilder/trigger/events/latestListings';
import { caseCount } from '../../../../support/testSize';

interface Listing {
	key: string;
	time: number | undefined;
}

/**
 * The straightforward answer: every listing held, one per key at its latest
 * time with the last listing at that time (as the cursor and the trigger's
 * list read a key listed twice), undated keys out, sorted by time then key,
 * the last `count` taken. The value of a listing is its place in the stream.
 */
function sortAndSlice(
	listings: Listing[],
	count: number,
): Array<{ key: string; time: number; value: number }> {
	const latest = new Map<string, { key: string; time: number; value: number }>();
	listings.forEach(({ key, time }, value) => {
		if (time === undefined || !Number.isFinite(time)) return;
		const current = latest.get(key);
		if (current === undefined || time >= current.time) latest.set(key, { key, time, value });
	});
	const sorted = [...latest.values()].sort(
		(a, b) => a.time - b.time || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0),
	);
	return count === 0 ? [] : sorted.slice(-count);
}

// Few keys and few times, so repeated keys and ties (also at the boundary) are common; keys differ in case and length to test the order of keys.
const listingArb: fc.Arbitrary<Listing> = fc.record({
	key: fc.constantFrom('a', 'b', 'c', 'B', 'ab', 'a b', '10', '9', 'é'),
	time: fc.option(
		fc.constantFrom(0, 1, 2, 3, 1_700_000_000_000, Number.NaN, Number.POSITIVE_INFINITY),
		{ nil: undefined, freq: 4 },
	),
});

/** Up to 40 listings, and how many of them to keep. */
const listingsAndCount = [
	fc.array(listingArb, { maxLength: 40 }),
	fc.integer({ min: 0, max: 8 }),
] as const;

describe('NewestListings', () => {
	it('keeps what a sort and slice of every listing keeps: the same keys, times, order and listing', () => {
		fc.assert(
			fc.property(...listingsAndCount, (listings, count) => {
				const newest = new NewestListings<number>(count);
				listings.forEach(({ key, time }, value) => newest.offer(key, time, () => value));
				expect(newest.oldestFirst()).toEqual(sortAndSlice(listings, count));
			}),
			{ numRuns: caseCount('LATEST_LISTINGS', 5000, 50_000) },
		);
	});

	it('never holds more than count values, and makes a value only for a listing it keeps', () => {
		fc.assert(
			fc.property(...listingsAndCount, (listings, count) => {
				const newest = new NewestListings<number>(count);
				listings.forEach(({ key, time }, value) => {
					let made = false;
					const kept = newest.offer(key, time, () => {
						made = true;
						return value;
					});
					expect(made).toBe(kept);
					expect(kept ? newest.get(key) : undefined).toBe(kept ? value : undefined);
					expect(newest.size).toBeLessThanOrEqual(count);
				});
			}),
			{ numRuns: caseCount('LATEST_LISTINGS', 2000, 20_000) },
		);
	});
});
