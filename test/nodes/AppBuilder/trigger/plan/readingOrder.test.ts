import {
	leftOverAfter,
	readingOrder,
} from '../../../../../nodes/AppBuilder/trigger/plan/readingOrder';

describe('the order a poll reads the forms of an app in', () => {
	const forms = ['a', 'b', 'c', 'd'];

	it('reads the forms the last poll did not reach first, then the rest as listed', () => {
		expect(readingOrder(forms, ['c', 'd'])).toEqual(['c', 'd', 'a', 'b']);
		expect(readingOrder(forms, [])).toEqual(['a', 'b', 'c', 'd']);
	});

	it('forgets left-over forms the app no longer lists', () => {
		expect(readingOrder(forms, ['gone', 'b'])).toEqual(['b', 'a', 'c', 'd']);
	});

	it('leaves for next time the forms not reached, in reading order', () => {
		const ordered = readingOrder(forms, ['c']);
		expect(leftOverAfter(ordered, new Set(['c', 'a']))).toEqual(['b', 'd']);
		expect(leftOverAfter(ordered, new Set(['a', 'b', 'c', 'd']))).toEqual([]);
	});
});
