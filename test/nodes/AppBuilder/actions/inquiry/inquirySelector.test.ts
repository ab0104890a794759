import fc from 'fast-check';

import {
	InquirySelector,
	selectInquiries,
	type InquirySelection,
} from '../../../../../nodes/AppBuilder/actions/inquiry/inquirySelector';

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
	it('property: offered one by one, keeping at most the limit, it selects what filtering and sorting the whole list selects (1,000 runs)', () => {
		fc.assert(
			fc.property(recordsArb, selectionArb, (records, selection) => {
				expect(selectInquiries(records, selection).map((record) => record.id)).toEqual(
					reference(records, selection).map((record) => record.id),
				);
			}),
			{ numRuns: 1000 },
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
