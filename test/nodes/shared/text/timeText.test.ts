import { durationText, momentText } from '../../../../nodes/shared/text/timeText';

describe('time in words', () => {
	it('names the two largest units, in the singular for one', () => {
		expect(durationText(45 * 60_000)).toBe('45 minutes');
		expect(durationText(61 * 60_000)).toBe('1 hour 1 minute');
		expect(durationText((3 * 1440 + 4 * 60 + 5) * 60_000)).toBe('3 days 4 hours');
		expect(durationText(2 * 1440 * 60_000)).toBe('2 days');
	});

	it('never says zero: under a minute is a minute', () => {
		expect(durationText(0)).toBe('1 minute');
		expect(durationText(20_000)).toBe('1 minute');
	});

	it("gives a moment in the workflow's time zone, or UTC's ISO time when the zone is unknown", () => {
		const time = Date.UTC(2026, 10, 26, 8, 30);
		expect(momentText(time, 'Europe/Berlin')).toBe('on 26 Nov 2026, 09:30 (Europe/Berlin)');
		expect(momentText(time, 'Not/AZone')).toBe('at 2026-11-26T08:30:00.000Z');
	});
});
