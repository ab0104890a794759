import { readDateText, wallTimeIn } from '../../../../nodes/AppBuilder/parameters/dateText';
import { cpuMsOf } from '../../../support/cpuTime';

const at = (iso: string) => ({ ok: true, ms: Date.parse(iso) });

describe('readDateText', () => {
	it('reads ISO 8601 with an offset as it says, whatever the time zone', () => {
		expect(readDateText('2026-01-31T09:00:00Z', 'Asia/Tokyo')).toEqual(at('2026-01-31T09:00:00Z'));
		expect(readDateText('2026-01-31T09:00:00+01:00', 'Asia/Tokyo')).toEqual(
			at('2026-01-31T08:00:00Z'),
		);
		expect(readDateText('2026-01-31T09:00:00-0530', 'UTC')).toEqual(at('2026-01-31T14:30:00Z'));
		expect(readDateText('2026-01-31t09:00:00.123456789z', 'UTC')).toEqual(
			at('2026-01-31T09:00:00.123Z'),
		);
		expect(readDateText('2026-01-31T09:00:00.000+01:00', 'UTC')).toEqual(
			at('2026-01-31T08:00:00Z'),
		);
	});

	it('reads a date, or a date and time, without an offset as wall-clock time in the time zone given', () => {
		expect(readDateText('2026-01-31T09:00:00', 'America/New_York')).toEqual(
			at('2026-01-31T14:00:00Z'),
		);
		expect(readDateText('2026-01-31T09:00', 'Asia/Kolkata')).toEqual(at('2026-01-31T03:30:00Z'));
		expect(readDateText('2026-01-31', 'Asia/Tokyo')).toEqual(at('2026-01-30T15:00:00Z'));
		// Summer time.
		expect(readDateText('2026-07-01 09:00:00', 'Europe/Berlin')).toEqual(
			at('2026-07-01T07:00:00Z'),
		);
	});

	it('reads a wall time a daylight-saving jump skips as Luxon does (an hour later), and one it repeats once', () => {
		expect(readDateText('2026-03-08T02:30:00', 'America/New_York')).toEqual(
			at('2026-03-08T07:30:00Z'),
		);
		expect(readDateText('2026-11-01T01:30:00', 'America/New_York')).toEqual(
			at('2026-11-01T05:30:00Z'),
		);
	});

	it('reads other text only when it states its zone, as a JavaScript Date writes itself', () => {
		expect(
			readDateText(
				'Sat Jan 31 2026 09:00:00 GMT+0100 (Central European Standard Time)',
				'Asia/Tokyo',
			),
		).toEqual(at('2026-01-31T08:00:00Z'));
		expect(readDateText('Sat, 31 Jan 2026 09:00:00 GMT', 'Asia/Tokyo')).toEqual(
			at('2026-01-31T09:00:00Z'),
		);
		expect(readDateText('Sat, 31 Jan 2026 09:00:00 +0100', 'Asia/Tokyo')).toEqual(
			at('2026-01-31T08:00:00Z'),
		);
		for (const text of [
			'March 1, 2026',
			'01/31/2026 09:00',
			'31.01.2026',
			'tomorrow',
			'5',
			'2026',
			'GMT',
		]) {
			expect(readDateText(text, 'UTC')).toEqual({ ok: false, refused: 'not-a-date' });
		}
	});

	it.each([
		'2026-13-01',
		'2026-02-30',
		'2026-01-31T24:00:00',
		'2026-01-31T09:60:00',
		'2026-01-31T09:00:60',
		'2026-01-31T09:00:00+24:00',
		'2026-1-31',
		'+2026-01-31',
	])('refuses %j, which names no moment', (text) => {
		expect(readDateText(text, 'UTC')).toEqual({ ok: false, refused: 'not-a-date' });
	});

	it('refuses a date and time without an offset when the time zone is unknown, and not one with an offset', () => {
		expect(readDateText('2026-01-31T09:00:00', 'Mars/Olympus')).toEqual({
			ok: false,
			refused: 'unknown-zone',
		});
		expect(readDateText('2026-01-31T09:00:00Z', 'Mars/Olympus')).toEqual(
			at('2026-01-31T09:00:00Z'),
		);
	});

	it('reads 100 characters of junk at once', () => {
		const took = cpuMsOf(() => {
			for (const junk of [
				'2'.repeat(100),
				`2026-01-31T${'0'.repeat(90)}`,
				`${'+01:00'.repeat(16)}2026`,
			])
				readDateText(junk, 'UTC');
		});
		expect(took).toBeLessThan(50);
	});
});

describe('wallTimeIn', () => {
	it("agrees with the zone's own clock on every hour of a year, across both daylight-saving changes", () => {
		const format = new Intl.DateTimeFormat('en-CA', {
			timeZone: 'Europe/London',
			hourCycle: 'h23',
			year: 'numeric',
			month: '2-digit',
			day: '2-digit',
			hour: '2-digit',
			minute: '2-digit',
		});
		for (let moment = Date.UTC(2026, 0, 1); moment < Date.UTC(2027, 0, 1); moment += 3600_000) {
			const wall = format.format(new Date(moment)).replace(', ', 'T');
			const back = wallTimeIn(Date.parse(`${wall}:00Z`), 'Europe/London') as number;
			// In the hour the clocks go back, a wall time names two moments: either shows that wall time.
			expect(format.format(new Date(back)).replace(', ', 'T')).toBe(wall);
			expect(Math.abs(back - moment)).toBeLessThanOrEqual(3600_000);
		}
	});
});
