import { wallHours } from '../../../../../nodes/AppBuilder/trigger/quiet/localTime';
import { HOUR, MINUTE } from '../../../../support/durations';

/** The wall-clock hour a moment falls in, as a rhythm counts its hours. */
const hourOf = (iso: string, timeZone: string) => Math.floor(wallHours(Date.parse(iso), timeZone));
const utcHour = (iso: string) => Date.parse(iso) / HOUR;

describe('the wall clock a rhythm counts its hours on', () => {
	it('is UTC in UTC, and in a zone this runtime does not know, rather than an error', () => {
		expect(wallHours(Date.parse('2026-03-02T08:30:00Z'), 'UTC')).toBe(
			utcHour('2026-03-02T08:30:00Z'),
		);
		expect(wallHours(Date.parse('2026-03-02T08:30:00Z'), 'Mars/Olympus_Mons')).toBe(
			utcHour('2026-03-02T08:30:00Z'),
		);
	});

	it('follows a clock change: 08:00 in London is the same hour of the day before and after it', () => {
		const before = hourOf('2026-03-27T08:10:00Z', 'Europe/London');
		const after = hourOf('2026-03-30T07:10:00Z', 'Europe/London');
		expect(after - before).toBe(3 * 24);
		// The hour the clock skips has no moment; the hour it repeats holds two.
		expect(hourOf('2026-03-29T01:00:00Z', 'Europe/London')).toBe(
			hourOf('2026-03-29T00:59:00Z', 'Europe/London') + 2,
		);
		expect(hourOf('2026-10-25T00:30:00Z', 'Europe/London')).toBe(
			hourOf('2026-10-25T01:30:00Z', 'Europe/London'),
		);
	});

	it('keeps offsets that are not whole hours, and the minutes within the hour', () => {
		const kathmandu = wallHours(Date.parse('2026-03-02T02:15:00Z'), 'Asia/Kathmandu');
		expect(kathmandu).toBeCloseTo(utcHour('2026-03-02T08:00:00Z'), 9);
		const kolkata = wallHours(Date.parse('2026-03-02T02:40:00Z'), 'Asia/Kolkata');
		expect((kolkata % 1) * 60).toBeCloseTo(10, 6);
		expect(wallHours(Date.parse('2026-03-02T02:40:00Z') + 30 * MINUTE, 'Asia/Kolkata')).toBe(
			kolkata + 0.5,
		);
	});
});
