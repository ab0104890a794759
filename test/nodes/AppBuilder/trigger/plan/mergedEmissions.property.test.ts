import fc from 'fast-check';

import type { InquiryEvent } from '../../../../../nodes/AppBuilder/trigger/events/inquiryEvent';
import { mergedEmissions } from '../../../../../nodes/AppBuilder/trigger/plan/mergedEmissions';
import { byTimeThenKey } from '../../../../../nodes/AppBuilder/trigger/events/latestListings';

/** A form's list as its cursor gives it: dated oldest first (by time, then key), then undated by key. */
const formList = fc
	.array(
		fc.record({
			key: fc.stringMatching(/^[a-e]{1,2}$/),
			time: fc.option(fc.integer({ min: 0, max: 20 }), { nil: undefined }),
		}),
		{ maxLength: 12 },
	)
	.map((events) => {
		const unique = [...new Map(events.map((event) => [event.key, event])).values()];
		const dated = unique
			.filter((event): event is { key: string; time: number } => event.time !== undefined)
			.sort(byTimeThenKey);
		const undated = unique
			.filter((event) => event.time === undefined)
			.sort((a, b) => (a.key < b.key ? -1 : 1));
		return [...dated, ...undated] as InquiryEvent[];
	});

describe("merging several forms' emissions", () => {
	it('gives each form a prefix of its own list, at most maxItems in all, dated before undated and oldest first', () => {
		fc.assert(
			fc.property(
				fc.array(formList, { minLength: 1, maxLength: 5 }),
				fc.integer({ min: 0, max: 30 }),
				(lists, maxItems) => {
					const perForm = lists.map((toEmit, index) => ({ form: index, toEmit }));
					const merged = mergedEmissions(perForm, maxItems);
					const total = lists.reduce((sum, list) => sum + list.length, 0);
					expect(merged).toHaveLength(Math.min(maxItems, total));
					lists.forEach((list, index) => {
						const taken = merged
							.filter((entry) => entry.form === index)
							.map((entry) => entry.event);
						expect(taken).toEqual(list.slice(0, taken.length));
					});
					for (let i = 1; i < merged.length; i++) {
						const [a, b] = [merged[i - 1].event, merged[i].event];
						if (a.time === undefined) expect(b.time).toBeUndefined();
						else if (b.time !== undefined) expect(a.time).toBeLessThanOrEqual(b.time);
					}
					// Whatever a form left out is no older than what any form emitted (nothing older waits behind a newer one).
					const newestEmitted = Math.max(
						-Infinity,
						...merged.flatMap((entry) =>
							entry.event.time === undefined ? [] : [entry.event.time],
						),
					);
					lists.forEach((list, index) => {
						const left = list[merged.filter((entry) => entry.form === index).length];
						if (left?.time !== undefined && merged.some((entry) => entry.event.time === undefined))
							throw new Error('an undated event went before a dated one');
						if (left?.time !== undefined) expect(left.time).toBeGreaterThanOrEqual(newestEmitted);
					});
				},
			),
		);
	});
});
