import fc from 'fast-check';

import {
	InquirySelector,
	selectInquiries,
	type InquirySelection,
} from '../../../../../nodes/AppBuilder/actions/inquiry/inquirySelector';
import { caseCount } from '../../../../support/testSize';

interface Rec {
	id: number;
	addedon?: unknown;
	readStatus?: unknown;
}

/** The rules written plainly: filter, sort the whole list stably, then cut at the limit. */
function reference(records: Rec[], selection: InquirySelection): Rec[] {
	const timeOf = (record: Rec) =>
		typeof record.addedon === 'number' && record.addedon > 0 ? record.addedon * 1000 : undefined;
	const kept = records.filter((record) => {
		const time = timeOf(record);
		if (
			selection.submittedAfterMs !== undefined &&
			(time === undefined || time <= selection.submittedAfterMs)
		)
			return false;
		if (
			selection.submittedBeforeMs !== undefined &&
			(time === undefined || time >= selection.submittedBeforeMs)
		)
			return false;
		if (
			selection.readStatus !== 'any' &&
			(Number(record.readStatus) === 1) !== (selection.readStatus === 'read')
		)
			return false;
		return true;
	});
	const direction = selection.sort === 'newestFirst' ? -1 : 1;
	const sorted = kept
		.map((record, position) => ({ record, position, time: timeOf(record) ?? -Infinity }))
		.sort((a, b) => (a.time === b.time ? a.position - b.position : (a.time - b.time) * direction));
	return sorted.slice(0, selection.limit ?? sorted.length).map(({ record }) => record);
}

const recordArb = (id: number) =>
	fc
		.record({
			addedon: fc.oneof(
				fc.integer({ min: 1_700_000_000, max: 1_700_000_020 }),
				fc.constant(undefined),
				fc.constant(0),
			),
			readStatus: fc.constantFrom(0, 1, '1', undefined),
		})
		.map((fields) => ({ id, ...fields }));
const recordsArb = fc
	.integer({ min: 0, max: 60 })
	.chain((count) => fc.tuple(...Array.from({ length: count }, (_, id) => recordArb(id))));
const selectionArb: fc.Arbitrary<InquirySelection> = fc.record({
	submittedAfterMs: fc.option(fc.integer({ min: 1_700_000_000_000, max: 1_700_000_020_000 }), {
		nil: undefined,
	}),
	submittedBeforeMs: fc.option(fc.integer({ min: 1_700_000_000_000, max: 1_700_000_020_000 }), {
		nil: undefined,
	}),
	readStatus: fc.constantFrom('any', 'read', 'unread'),
	sort: fc.constantFrom('newestFirst', 'oldestFirst'),
	limit: fc.option(fc.integer({ min: 1, max: 70 }), { nil: undefined }),
});

describe('InquirySelector', () => {
	it('property: offered one by one, keeping at most the limit, it selects what filtering and sorting the whole list selects', () => {
		fc.assert(
			fc.property(recordsArb, selectionArb, (records, selection) => {
				expect(selectInquiries(records, selection).map((record) => record.id)).toEqual(
					reference(records, selection).map((record) => record.id),
				);
			}),
			{ numRuns: caseCount('INQUIRY_SELECTOR', 1000, 10_000) },
		);
	});

	it('holds no more records than the limit, and counts the weight of those it holds', () => {
		const selector = new InquirySelector<Rec>({ readStatus: 'any', sort: 'newestFirst', limit: 3 });
		for (let id = 0; id < 1000; id++) {
			selector.offer({ id, addedon: 1_700_000_000 + id }, 10 + id);
			expect(selector.size).toBeLessThanOrEqual(3);
		}
		expect(selector.result().map((record) => record.id)).toEqual([999, 998, 997]);
		expect(selector.keptWeight).toBe(1009 + 1008 + 1007);
	});

	it('says whether each record is kept', () => {
		const selector = new InquirySelector<Rec>({
			readStatus: 'read',
			sort: 'oldestFirst',
			limit: 1,
		});
		expect(selector.offer({ id: 1, addedon: 1_700_000_005, readStatus: 0 })).toBe(false);
		expect(selector.offer({ id: 2, addedon: 1_700_000_005, readStatus: 1 })).toBe(true);
		expect(selector.offer({ id: 3, addedon: 1_700_000_009, readStatus: 1 })).toBe(false);
		expect(selector.offer({ id: 4, addedon: 1_700_000_001, readStatus: 1 })).toBe(true);
		expect(selector.result().map((record) => record.id)).toEqual([4]);
	});
});

describe('InquirySelector with groups withdrawn (attempts at an answer that do not count)', () => {
	/** A record offered as part of an attempt; its position is its place in `records`. */
	interface Offered {
		rec: Rec;
		attempt: string;
	}
	const selectorFor = (selection: InquirySelection) =>
		new InquirySelector<Offered>(
			selection,
			(offered) => offered.rec,
			(offered) => offered.attempt,
		);
	const groupedArb = recordsArb.chain((records) =>
		fc.tuple(
			fc.constant(records),
			fc.array(fc.integer({ min: 0, max: 2 }), {
				minLength: records.length,
				maxLength: records.length,
			}),
			fc.shuffledSubarray(
				records.map((_, index) => index),
				{ minLength: records.length, maxLength: records.length },
			),
		),
	);

	it('property: whenever it says it is exact, it selects what the whole list of the records not withdrawn selects; without a withdrawal it always is', () => {
		fc.assert(
			fc.property(
				groupedArb,
				selectionArb,
				fc.array(fc.tuple(fc.nat(60), fc.integer({ min: 0, max: 2 })), { maxLength: 4 }),
				([records, groups, order], selection, withdrawals) => {
					const selector = selectorFor(selection);
					const attempts = [0, 0, 0];
					const attemptOf = new Map<number, string>();
					order.forEach((index, step) => {
						for (const [at, group] of withdrawals)
							if (at === step) selector.withdraw(`${group}#${attempts[group]++}`);
						const attempt = `${groups[index]}#${attempts[groups[index]]}`;
						attemptOf.set(index, attempt);
						selector.offer({ rec: records[index], attempt }, 0, index);
					});
					for (const [at, group] of withdrawals)
						if (at >= order.length) selector.withdraw(`${group}#${attempts[group]++}`);
					const live = records.filter((_, index) => {
						const [group, attempt] = (attemptOf.get(index) ?? '').split('#').map(Number);
						return attempt === attempts[group];
					});
					if (withdrawals.length === 0) expect(selector.exact).toBe(true);
					if (selector.exact)
						expect(selector.result().map(({ rec }) => rec.id)).toEqual(
							reference(live, selection).map((record) => record.id),
						);
					expect(selector.size).toBeLessThanOrEqual(selection.limit ?? Infinity);
				},
			),
			{ numRuns: caseCount('INQUIRY_SELECTOR', 1000, 10_000) },
		);
	});

	it('property: an attempt withdrawn and followed by one that offers the same records (a retry) leaves it exact', () => {
		fc.assert(
			fc.property(
				groupedArb,
				selectionArb,
				fc.nat(60),
				fc.nat(60),
				([records, groups, order], selection, cutAt, retryAt) => {
					// Group 0's first attempt offers its records up to cutAt, then is withdrawn at retryAt (later);
					// its second attempt offers them all, in their order, from there on, among the others'.
					const selector = selectorFor(selection);
					const retried = order.filter((index) => groups[index] === 0);
					const others = order.filter((index) => groups[index] !== 0);
					const firstPart = retried.slice(0, Math.min(cutAt, retried.length));
					const split = Math.min(retryAt, others.length);
					const offer = (index: number, attempt: string) =>
						selector.offer({ rec: records[index], attempt }, 0, index);
					let next = 0;
					others.slice(0, split).forEach((index, step) => {
						if (step % 2 === 0 && next < firstPart.length) offer(firstPart[next++], 'first');
						offer(index, 'other');
					});
					while (next < firstPart.length) offer(firstPart[next++], 'first');
					selector.withdraw('first');
					const rest = others.slice(split);
					for (let step = 0; step < Math.max(rest.length, retried.length); step++) {
						if (step < retried.length) offer(retried[step], 'second');
						if (step < rest.length) offer(rest[step], 'other');
					}
					expect(selector.exact).toBe(true);
					expect(selector.result().map(({ rec }) => rec.id)).toEqual(
						reference(records, selection).map((record) => record.id),
					);
				},
			),
			{ numRuns: caseCount('INQUIRY_SELECTOR', 1000, 10_000) },
		);
	});

	it('says it is not exact when a withdrawn attempt had pushed out records that would now be kept', () => {
		const selector = selectorFor({ readStatus: 'any', sort: 'newestFirst', limit: 2 });
		const at = (id: number, attempt: string) => ({
			rec: { id, addedon: 1_700_000_000 + id },
			attempt,
		});
		selector.offer(at(1, 'b'), 0, 1);
		selector.offer(at(2, 'b'), 0, 2);
		selector.offer(at(9, 'a'), 0, 9);
		selector.offer(at(8, 'a'), 0, 8);
		expect(selector.keptOf('a')).toBe(2);
		expect(selector.keptOf('b')).toBe(0);
		expect(selector.exact).toBe(true);
		selector.withdraw('a');
		expect(selector.size).toBe(0);
		expect(selector.exact).toBe(false);
		// Records of the other attempt offered again bring it back.
		selector.withdraw('b');
		selector.offer(at(1, 'b2'), 0, 1);
		selector.offer(at(2, 'b2'), 0, 2);
		expect(selector.exact).toBe(true);
		expect(selector.result().map(({ rec }) => rec.id)).toEqual([2, 1]);
	});
});
