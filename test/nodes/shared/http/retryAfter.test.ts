import { MAX_RETRY_AFTER_MS, parseRetryAfter } from '../../../../nodes/shared/http/retryAfter';
import { cpuMsOf } from '../../../support/cpuTime';

const NOW = Date.UTC(2026, 2, 1, 12, 0, 0);

describe('Retry-After as RFC 9110 defines it', () => {
	it('reads delay-seconds: digits only, around them optional spaces and tabs', () => {
		expect(parseRetryAfter('0', NOW)).toBe(0);
		expect(parseRetryAfter('3', NOW)).toBe(3000);
		expect(parseRetryAfter('0120', NOW)).toBe(120_000);
		expect(parseRetryAfter(' \t7 ', NOW)).toBe(7000);
	});

	it.each(['+5', '10.', '.5', '1.5', '-5', '12 13', '5s', '0x10', '1e3', '', ' ', 'soon', '５'])(
		'ignores %j, which is neither a delay nor a date, instead of reading it as "at once"',
		(value) => {
			expect(parseRetryAfter(value, NOW)).toBeUndefined();
		},
	);

	it('reads the three forms of HTTP-date', () => {
		const in90s = NOW + 90_000;
		expect(parseRetryAfter(new Date(in90s).toUTCString(), NOW)).toBe(90_000);
		expect(parseRetryAfter('Sun, 01 Mar 2026 12:01:30 GMT', NOW)).toBe(90_000);
		expect(parseRetryAfter('Sunday, 01-Mar-26 12:01:30 GMT', NOW)).toBe(90_000);
		expect(parseRetryAfter('Sun Mar  1 12:01:30 2026', NOW)).toBe(90_000);
		expect(parseRetryAfter('Sun Mar 11 12:00:00 2026', NOW)).toBe(10 * 24 * 3600_000);
	});

	it('reads a two-digit year as at most 50 years ahead, and a date in the past as a wait that is over', () => {
		expect(parseRetryAfter('Sunday, 01-Mar-76 12:00:00 GMT', NOW)).toBe(
			Date.UTC(2076, 2, 1, 12) - NOW,
		);
		expect(parseRetryAfter('Monday, 01-Mar-77 12:00:00 GMT', NOW)).toBe(0);
		expect(parseRetryAfter('Sun, 06 Nov 1994 08:49:37 GMT', NOW)).toBe(0);
	});

	it.each([
		'Sun, 1 Mar 2026 12:01:30 GMT',
		'Sun, 01 Mar 2026 12:01:30 UTC',
		'Sun, 01 Mar 2026 12:01:30 +0000',
		'sun, 01 mar 2026 12:01:30 GMT',
		'Sun, 30 Feb 2026 12:01:30 GMT',
		'Sun, 00 Mar 2026 12:01:30 GMT',
		'Sun, 01 Mar 2026 24:00:00 GMT',
		'Sun, 01 Mar 2026 12:60:00 GMT',
		'Sun, 01 Mar 2026 12:01 GMT',
		'2026-03-01T12:01:30Z',
		'March 1, 2026 12:01:30',
		'Sun, 01 Mar 2026 12:01:30 GMT trailing',
	])('ignores %j, which is not an HTTP-date', (value) => {
		expect(parseRetryAfter(value, NOW)).toBeUndefined();
	});

	it('reads a wait too long for the moment it ends to be a date (13 digits or more) as the longest, never Infinity or NaN', () => {
		expect(parseRetryAfter('999999999', NOW)).toBe(999_999_999_000);
		expect(parseRetryAfter(String(MAX_RETRY_AFTER_MS / 1000 - 1), NOW)).toBe(
			MAX_RETRY_AFTER_MS - 1000,
		);
		for (const value of [
			'9999999999999',
			'99999999999999',
			' 99999999999999\t',
			`1${'0'.repeat(63)}`,
			'9'.repeat(64),
			'Fri, 31 Dec 9999 23:59:59 GMT',
		]) {
			const wait = parseRetryAfter(value, NOW);
			expect(wait).toBe(MAX_RETRY_AFTER_MS);
			expect(new Date(NOW + (wait ?? 0)).toISOString()).toMatch(/^21\d\d-/);
		}
	});

	it('ignores a value too long to be a delay or a date, and reads 100 KB of junk at once', () => {
		expect(parseRetryAfter('9'.repeat(400), NOW)).toBeUndefined();
		const took = cpuMsOf(() => {
			for (const junk of [
				'1'.repeat(100_000),
				`Sun, ${'0'.repeat(100_000)}`,
				' '.repeat(100_000),
			]) {
				expect(parseRetryAfter(junk, NOW)).toBeUndefined();
			}
		});
		expect(took).toBeLessThan(100);
	});
});
