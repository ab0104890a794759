import { median, quantile } from './median';

describe('the median and percentiles the benchmark reports', () => {
	it('takes the middle value, the upper middle for an even count, and leaves the input as it is', () => {
		const values = [5, 1, 3];
		expect(median(values)).toBe(3);
		expect(values).toEqual([5, 1, 3]);
		expect(median([4, 1, 3, 2])).toBe(3);
	});

	it('gives a percentile by nearest rank: always one of the values', () => {
		const values = [50, 10, 40, 20, 30];
		expect(quantile(values, 0.1)).toBe(10);
		expect(quantile(values, 0.5)).toBe(30);
		expect(quantile(values, 0.9)).toBe(50);
		expect(quantile(values, 0)).toBe(10);
		expect(quantile(values, 1)).toBe(50);
		expect(quantile([7], 0.9)).toBe(7);
		const hundred = Array.from({ length: 100 }, (_, index) => 100 - index);
		expect(quantile(hundred, 0.1)).toBe(10);
		expect(quantile(hundred, 0.9)).toBe(90);
		// The input is left as it is.
		expect(values).toEqual([50, 10, 40, 20, 30]);
	});
});
