import * as stored from '../../../nodes/shared/valueShapes';

describe('value shapes', () => {
	it('takes only a plain object as a record', () => {
		expect(stored.isRecord({})).toBe(true);
		expect([null, [], 'x', 3, undefined].map(stored.isRecord)).toEqual([
			false,
			false,
			false,
			false,
			false,
		]);
	});

	it('takes only a finite number as a time', () => {
		expect(stored.isTime(1_767_225_600_000)).toBe(true);
		expect([NaN, Infinity, '1', null].map(stored.isTime)).toEqual([false, false, false, false]);
	});
});
