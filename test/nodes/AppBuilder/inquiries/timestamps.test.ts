import fc from 'fast-check';

import { toEpochMillis, toIsoString } from '../../../../nodes/AppBuilder/inquiries/timestamps';
import { caseCount } from '../../../support/testSize';
import { cpuMsOf } from '../../../support/cpuTime';

const JAN_1_2026 = 1767225600; // seconds
const FIRST_SECOND_OF_1973 = Date.UTC(1973, 0, 1) / 1000;
const LAST_MS_OF_A_DATE = 8.64e15;

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
		['a date without a time of day', '2026-01-01'],
		['an ISO date-time with an impossible day', '2026-02-30T10:00:00Z'],
		['an ISO date-time with an impossible hour', '2026-11-10T24:00:00Z'],
		['an ISO date-time with an impossible offset', '2026-11-10T09:12:05+25:00'],
		['a date-time in another notation', 'Tue, 10 Nov 2026 09:12:05 GMT'],
		['a number beyond the range of a Date', 1e20],
		['a numeric string beyond the range of a Date', '9e18'],
		['seconds before 1973 (1970-01-01T00:00:01Z)', 1],
		['seconds just before 1973', 94694399],
		['an ISO date before 1973', '1972-12-31T23:59:59Z'],
		['an ISO date in year 99 (which Date.UTC would read as 1999)', '0099-06-01T00:00:00Z'],
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

	it('property: any number that is a time from 1973 on gives whole milliseconds within one unit step of the input', () => {
		fc.assert(
			fc.property(fc.double({ min: FIRST_SECOND_OF_1973, max: 1e16, noNaN: true }), (value) => {
				const ms = toEpochMillis(value) as number;
				expect(Number.isInteger(ms)).toBe(true);
				const expected = value < 1e11 ? value * 1000 : value < 1e14 ? value : value / 1000;
				expect(Math.abs(ms - expected)).toBeLessThanOrEqual(0.5 + expected * 1e-15);
				expect(toEpochMillis(String(value))).toBe(ms);
			}),
			{ numRuns: caseCount('TIMESTAMPS', 1000, 10_000) },
		);
	});
});

describe('toEpochMillis: one rule for a usable time', () => {
	it('reads 1973-01-01 as the earliest usable time and the last millisecond a Date holds as the latest', () => {
		expect(toEpochMillis(FIRST_SECOND_OF_1973)).toBe(Date.UTC(1973, 0, 1));
		expect(toEpochMillis(LAST_MS_OF_A_DATE * 1000)).toBe(LAST_MS_OF_A_DATE);
		expect(toEpochMillis(LAST_MS_OF_A_DATE * 1000 + 1000)).toBeUndefined();
	});

	it.each([
		['UTC with Z', '2026-11-10T09:12:05Z', Date.UTC(2026, 10, 10, 9, 12, 5)],
		[
			'a space instead of T, no offset (read as UTC)',
			'2026-11-10 09:12:05',
			Date.UTC(2026, 10, 10, 9, 12, 5),
		],
		['no offset (read as UTC)', '2026-11-10T09:12:05', Date.UTC(2026, 10, 10, 9, 12, 5)],
		['a fraction of a second', '2026-11-10T09:12:05.1236Z', Date.UTC(2026, 10, 10, 9, 12, 5, 124)],
		['an offset with a colon', '2026-11-10T09:12:05+02:00', Date.UTC(2026, 10, 10, 7, 12, 5)],
		[
			'an offset without a colon',
			'2026-11-10 09:12:05.5-0530',
			Date.UTC(2026, 10, 10, 14, 42, 5, 500),
		],
		['hours and minutes only', '2026-11-10T09:12Z', Date.UTC(2026, 10, 10, 9, 12)],
		[
			'lower-case t and z, surrounding spaces',
			' 2026-11-10t09:12:05z ',
			Date.UTC(2026, 10, 10, 9, 12, 5),
		],
		['29 February of a leap year', '2028-02-29T00:00:00Z', Date.UTC(2028, 1, 29)],
	])('reads an ISO 8601 date-time with %s as the instant it names', (_, text, expected) => {
		expect(toEpochMillis(text)).toBe(expected);
	});

	it('refuses a 100,000-digit text followed by a letter in linear time', () => {
		let result: number | undefined = 0;
		const took = cpuMsOf(() => {
			result = toEpochMillis(`${'1'.repeat(100_000)}x`);
		});
		expect(result).toBeUndefined();
		expect(took).toBeLessThan(500);
	});

	it('refuses long look-alikes of numbers and dates in linear time', () => {
		const attacks = [
			`${'9'.repeat(100_000)}.`,
			`.${'9'.repeat(100_000)}e`,
			`1e${'1'.repeat(100_000)}x`,
			`2026-11-10T09:12:05.${'1'.repeat(100_000)}x`,
			`${' '.repeat(100_000)}1767225600x`,
		];
		const took = cpuMsOf(() => {
			for (const text of attacks) expect(toEpochMillis(text)).toBeUndefined();
		});
		expect(took).toBeLessThan(500);
	});

	it('property: never throws, and any result is a whole millisecond of a valid Date from 1973 on', () => {
		const timeLike = fc.oneof(
			fc.double(),
			fc.integer(),
			fc.bigInt().map(String),
			fc.double().map(String),
			fc
				.date({ noInvalidDate: false })
				.map((date) => (Number.isNaN(date.getTime()) ? 'x' : date.toISOString())),
			fc.string({ unit: fc.constantFrom(...'0123456789.eE+-:TZ tz') }),
			fc.anything(),
		);
		fc.assert(
			fc.property(timeLike, (value) => {
				const ms = toEpochMillis(value);
				if (ms === undefined) return;
				expect(Number.isInteger(ms)).toBe(true);
				expect(Number.isNaN(new Date(ms).getTime())).toBe(false);
				expect(ms).toBeGreaterThanOrEqual(Date.UTC(1973, 0, 1));
			}),
			{ numRuns: caseCount('TIMESTAMPS', 3000, 30_000) },
		);
	});

	it('property: a Date from 1973 to 9999 written by toISOString reads back as the same millisecond', () => {
		fc.assert(
			fc.property(
				fc.date({
					min: new Date(Date.UTC(1973, 0, 1)),
					max: new Date(Date.UTC(9999, 11, 31)),
					noInvalidDate: true,
				}),
				(date) => {
					expect(toEpochMillis(date.toISOString())).toBe(date.getTime());
				},
			),
			{ numRuns: caseCount('TIMESTAMPS', 1000, 10_000) },
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
