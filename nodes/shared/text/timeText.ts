/**
 * How long, in words a person reads at a glance: "3 days 4 hours", "5
 * hours 12 minutes", "45 minutes".
 */
export function durationText(ms: number): string {
	const minutes = Math.max(1, Math.round(ms / 60_000));
	const parts: Array<[number, string]> = [
		[Math.floor(minutes / 1440), 'day'],
		[Math.floor((minutes % 1440) / 60), 'hour'],
		[minutes % 60, 'minute'],
	];
	const shown = parts.filter(([count]) => count > 0).slice(0, 2);
	return shown.map(([count, unit]) => `${count} ${unit}${count === 1 ? '' : 's'}`).join(' ');
}

/**
 * "on 26 Nov 2026, 09:30 (Europe/Berlin)" in the workflow's time zone; an
 * unknown zone gives UTC's ISO time.
 */
export function momentText(time: number, timeZone: string): string {
	try {
		const text = new Intl.DateTimeFormat('en-GB', {
			timeZone,
			dateStyle: 'medium',
			timeStyle: 'short',
		}).format(time);
		return `on ${text} (${timeZone})`;
	} catch {
		return `at ${new Date(time).toISOString()}`;
	}
}
