import fc from 'fast-check';

import { toEpochMillis, toIsoString } from '../../nodes/AppBuilder/inquiries/timestamps';

const JAN_1_2026 = 1767225600; // seconds

describe('toEpochMillis', () => {
	it('reads seconds, milliseconds and microseconds as the same instant', () => {
		expect(toEpochMillis(JAN_1_2026)).toBe(1767225600000);
		expect(toEpochMillis(1767225600000)).toBe(1767225600000);
		expect(toEpochMillis(1767225600000000)).toBe(1767225600000);
	});

	it('reads numeric strings, with surrounding spaces and fractions of a second kept to the millisecond', () => {
		expect(toEpochMillis('1767225600')).toBe(1767225600000);
		expect(toEpochMillis(' 1767225600123 ')).toBe(1767225600123);
		expect(toEpochMillis('1767225600.5')).toBe(1767225600500);
		expect(toEpochMillis(1767225600.1234)).toBe(1767225600123);
		expect(toEpochMillis('1.7672256e9')).toBe(1767225600000);
		expect(toEpochMillis(1767225600123.6)).toBe(1767225600124);
	});

	it('switches units exactly at 1e11 and 1e14', () => {
		expect(toEpochMillis(1e11 - 1)).toBe((1e11 - 1) * 1000);
		expect(toEpochMillis(1e11)).toBe(1e11);
		expect(toEpochMillis(1e14 - 1)).toBe(1e14 - 1);
		expect(toEpochMillis(1e14)).toBe(1e11);
	});

	it.each([
		['an empty string', ''],
		['spaces', '   '],
		['a word', 'soon'],
		['a date string', '2026-01-01'],
		['hex', '0x1F'],
		['a negative number', -5],
		['a negative string', '-1767225600'],
		['zero, the usual stand-in for "no time"', 0],
		['NaN', Number.NaN],
		['Infinity', Infinity],
		['"Infinity"', 'Infinity'],
		['null', null],
		['undefined', undefined],
		['an object', {}],
		['a list', [1767225600]],
		['a boolean', true],
	])('refuses %s', (_, value) => {
		expect(toEpochMillis(value)).toBeUndefined();
	});

	it('property: any positive finite number gives whole milliseconds within one unit step of the input', () => {
		fc.assert(
			fc.property(fc.double({ min: 1, max: 1e16, noNaN: true }), (value) => {
				const ms = toEpochMillis(value) as number;
				expect(Number.isInteger(ms)).toBe(true);
				const expected = value < 1e11 ? value * 1000 : value < 1e14 ? value : value / 1000;
				expect(Math.abs(ms - expected)).toBeLessThanOrEqual(0.5 + expected * 1e-15);
				expect(toEpochMillis(String(value))).toBe(ms);
			}),
			{ numRuns: 1000 },
		);
	});
});

describe('toIsoString', () => {
	it('formats milliseconds as ISO 8601 in UTC', () => {
		expect(toIsoString(1767225600123)).toBe('2026-01-01T00:00:00.123Z');
	});

	it('gives undefined for no time or a time outside what a Date holds', () => {
		expect(toIsoString(undefined)).toBeUndefined();
		expect(toIsoString(Number.NaN)).toBeUndefined();
		expect(toIsoString(9e15)).toBeUndefined();
	});
});
