import fc from 'fast-check';
import { DateTime } from 'luxon';

import {
	booleanFrom,
	choiceFrom,
	dateFrom,
	describeGiven,
	textFrom,
	wholeNumberFrom,
} from '../../../../nodes/AppBuilder/parameters/parameterValues';

describe('textFrom (string fields)', () => {
	it('keeps text as given and turns a number into its digits', () => {
		expect(textFrom('  Jane ')).toEqual({ ok: true, value: '  Jane ' });
		expect(textFrom(5551234567)).toEqual({ ok: true, value: '5551234567' });
		expect(textFrom(1001)).toEqual({ ok: true, value: '1001' });
	});

	it('reads nothing as empty text, so the field reports itself empty', () => {
		expect(textFrom(undefined)).toEqual({ ok: true, value: '' });
		expect(textFrom(null)).toEqual({ ok: true, value: '' });
	});

	it.each([
		[{ a: 1 }, 'an object'],
		[[1, 2], 'a list (array)'],
		[true, 'true (a boolean)'],
		[Number.NaN, '"NaN"'],
		[Number.POSITIVE_INFINITY, '"Infinity"'],
		[2 ** 60, `"${String(2 ** 60)}"`],
	])('refuses %p, saying it gave %s', (value, given) => {
		expect(textFrom(value)).toEqual({ ok: false, expected: 'text or a number', given });
	});

	it('never shows a secret value, only its type', () => {
		expect(textFrom({ password: 'Secr3t-pass' }, true)).toEqual({
			ok: false,
			expected: 'text or a number',
			given: 'an object',
		});
		expect(textFrom(false, true)).toEqual({
			ok: false,
			expected: 'text or a number',
			given: 'a boolean',
		});
		expect(textFrom(Number.NaN, true)).toEqual({
			ok: false,
			expected: 'text or a number',
			given: 'a number that cannot be sent as text',
		});
	});

	it('never turns a value into "[object Object]" or a joined list', () => {
		fc.assert(
			fc.property(fc.anything(), (value) => {
				const checked = textFrom(value);
				if (checked.ok) {
					expect(typeof value === 'string' || typeof value === 'number' || value == null).toBe(
						true,
					);
				}
			}),
		);
	});
});

describe('wholeNumberFrom (Limit, Concurrency, trigger counts)', () => {
	it('takes whole numbers in range, as numbers or as their digits', () => {
		expect(wholeNumberFrom(3, { min: 1 })).toEqual({ ok: true, value: 3 });
		expect(wholeNumberFrom('3', { min: 1 })).toEqual({ ok: true, value: 3 });
		expect(wholeNumberFrom(' 50 ', { min: 1, max: 50 })).toEqual({ ok: true, value: 50 });
		expect(wholeNumberFrom('4.0', { min: 1 })).toEqual({ ok: true, value: 4 });
	});

	it.each([
		[-2, '"-2"'],
		['-2', '"-2"'],
		[0, '"0"'],
		[2.5, '"2.5"'],
		[Number.NaN, '"NaN"'],
		['abc', '"abc"'],
		['', 'empty text'],
		['0x10', '"0x10"'],
		['1e3', '"1e3"'],
		[undefined, 'nothing (undefined)'],
		[null, 'null'],
		[true, 'true (a boolean)'],
		[[3], 'a list (array)'],
	])('refuses %p, saying it gave %s', (value, given) => {
		expect(wholeNumberFrom(value, { min: 1 })).toEqual({
			ok: false,
			expected: 'a whole number of 1 or more',
			given,
		});
	});

	it('refuses a number above the maximum and names the range', () => {
		expect(wholeNumberFrom(51, { min: 1, max: 50 })).toEqual({
			ok: false,
			expected: 'a whole number from 1 to 50',
			given: '"51"',
		});
	});

	it('gives only whole numbers inside the range, whatever it is handed', () => {
		fc.assert(
			fc.property(fc.oneof(fc.anything(), fc.double(), fc.integer().map(String)), (value) => {
				const checked = wholeNumberFrom(value, { min: 1, max: 50 });
				if (checked.ok) {
					expect(Number.isInteger(checked.value)).toBe(true);
					expect(checked.value).toBeGreaterThanOrEqual(1);
					expect(checked.value).toBeLessThanOrEqual(50);
				}
			}),
		);
	});
});

describe('choiceFrom (options fields)', () => {
	const statuses = ['1', '0', ''] as const;

	it('takes a listed value, and a number as its digits', () => {
		expect(choiceFrom('0', statuses)).toEqual({ ok: true, value: '0' });
		expect(choiceFrom(1, statuses)).toEqual({ ok: true, value: '1' });
		expect(choiceFrom('', statuses)).toEqual({ ok: true, value: '' });
	});

	it('refuses anything else and lists the values it takes', () => {
		expect(choiceFrom('active', statuses)).toEqual({
			ok: false,
			expected: 'one of "1", "0" or "" (empty)',
			given: '"active"',
		});
		expect(choiceFrom('Newest', ['newestFirst', 'oldestFirst'])).toEqual({
			ok: false,
			expected: 'one of "newestFirst" or "oldestFirst"',
			given: '"Newest"',
		});
		expect(choiceFrom(true, statuses)).toMatchObject({ given: 'true (a boolean)' });
	});
});

describe('booleanFrom (Return All, Simplify)', () => {
	it('takes true and false, also as text', () => {
		expect(booleanFrom(false)).toEqual({ ok: true, value: false });
		expect(booleanFrom(' False ')).toEqual({ ok: true, value: false });
		expect(booleanFrom('true')).toEqual({ ok: true, value: true });
	});

	it.each([['no'], [0], [1], [''], [undefined]])(
		'refuses %p rather than read it as true or false',
		(value) => {
			expect(booleanFrom(value)).toMatchObject({ expected: 'true or false' });
		},
	);
});

describe('dateFrom (date filters)', () => {
	const EXPECTED =
		"a date and time such as 2026-01-31T09:00:00 (read in the workflow's time zone) or 2026-01-31T09:00:00Z";

	it('reads ISO text with an offset and Date objects to the millisecond, whatever the time zone', () => {
		for (const zone of ['UTC', 'America/New_York']) {
			expect(dateFrom('2026-03-01T10:02:00.500Z', zone)).toEqual({
				ok: true,
				value: Date.parse('2026-03-01T10:02:00.500Z'),
			});
			expect(dateFrom(new Date(Date.parse('2026-03-01T10:02:00.500Z')), zone)).toEqual({
				ok: true,
				value: Date.parse('2026-03-01T10:02:00.500Z'),
			});
		}
	});

	it("reads a date and time without an offset in the time zone given (the workflow's)", () => {
		expect(dateFrom('2026-01-31T09:00:00', 'UTC')).toEqual({
			ok: true,
			value: Date.parse('2026-01-31T09:00:00Z'),
		});
		expect(dateFrom('2026-01-31T09:00:00', 'America/New_York')).toEqual({
			ok: true,
			value: Date.parse('2026-01-31T14:00:00Z'),
		});
		expect(dateFrom(' 2026-07-01 09:00 ', 'Europe/Berlin')).toEqual({
			ok: true,
			value: Date.parse('2026-07-01T07:00:00Z'),
		});
	});

	it('reads a Luxon DateTime, as {{ $now }} and {{ $today }} give it, by its moment', () => {
		const moment = DateTime.fromISO('2026-01-31T09:00:00', { zone: 'Asia/Tokyo' });
		expect(dateFrom(moment, 'UTC')).toEqual({
			ok: true,
			value: Date.parse('2026-01-31T00:00:00Z'),
		});
		expect(dateFrom(moment.minus({ days: 1 }), 'America/New_York')).toEqual({
			ok: true,
			value: Date.parse('2026-01-30T00:00:00Z'),
		});
	});

	it('reads no value as no filter', () => {
		expect(dateFrom(undefined, 'UTC')).toEqual({ ok: true, value: undefined });
		expect(dateFrom('', 'UTC')).toEqual({ ok: true, value: undefined });
		expect(dateFrom(null, 'UTC')).toEqual({ ok: true, value: undefined });
	});

	it.each([
		[5, '"5"'],
		['5', '"5"'],
		['hello 5', '"hello 5"'],
		[['2026-03-01T10:02:00Z'], 'a list (array)'],
		[{ date: '2026-03-01' }, 'an object'],
		['2026-13-45', '"2026-13-45"'],
		['2026-02-30T09:00:00', '"2026-02-30T09:00:00"'],
		['March 1, 2026', '"March 1, 2026"'],
		[new Date(Number.NaN), 'the date "Invalid Date"'],
		[DateTime.fromISO('not a date'), 'the date "Invalid DateTime"'],
	])(
		"refuses %p, which JavaScript would read as some other date, a date in the server's zone, or none",
		(value, given) => {
			expect(dateFrom(value, 'UTC')).toEqual({ ok: false, expected: EXPECTED, given });
		},
	);

	it("says so when the workflow's time zone is not one it knows", () => {
		expect(dateFrom('2026-01-31T09:00:00', 'Mars/Olympus')).toEqual({
			ok: false,
			expected: `${EXPECTED}; the workflow's time zone "Mars/Olympus" is not one this n8n knows`,
			given: '"2026-01-31T09:00:00"',
		});
	});
});

describe('describeGiven', () => {
	it('cuts long text', () => {
		expect(describeGiven('x'.repeat(100))).toBe(`"${'x'.repeat(40)}…"`);
	});
});
