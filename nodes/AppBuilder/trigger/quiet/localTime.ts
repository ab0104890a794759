// A form's rhythm counts the workflow's wall-clock hours: an office that opens at 08:00 opens in the same
// hour of the week all year, across clock changes, whatever its offset from UTC.

/** Offsets change only on a quarter hour of UTC. */
const QUARTER_MS = 15 * 60_000;
/** Per zone, its format (none for a zone this runtime does not know) and its offsets by quarter, as looked up. */
const zones = new Map<string, { format?: Intl.DateTimeFormat; offsets: Map<number, number> }>();

/** `time` on the wall clock of `timeZone` (UTC for a zone this runtime does not know), in hours from the epoch. */
export function wallHours(time: number, timeZone: string): number {
	let zone = zones.get(timeZone);
	if (zone === undefined || zone.offsets.size >= 10_000) {
		if (zones.size >= 100) zones.clear();
		zone = { format: formatIn(timeZone), offsets: new Map() };
		zones.set(timeZone, zone);
	}
	const quarter = Math.floor(time / QUARTER_MS);
	let offset = zone.offsets.get(quarter);
	if (offset === undefined) {
		const parts = zone.format?.formatToParts(quarter * QUARTER_MS) ?? [];
		const part = Object.fromEntries(parts.map(({ type, value }) => [type, Number(value)]));
		const shown = Date.UTC(part.year, part.month - 1, part.day, part.hour, part.minute);
		offset = zone.format === undefined ? 0 : shown - quarter * QUARTER_MS;
		zone.offsets.set(quarter, offset);
	}
	return (time + offset) / 3_600_000;
}

function formatIn(timeZone: string): Intl.DateTimeFormat | undefined {
	try {
		const numeric = { year: 'numeric', month: 'numeric', day: 'numeric' } as const;
		return new Intl.DateTimeFormat('en-US', {
			...numeric,
			timeZone,
			hourCycle: 'h23',
			hour: 'numeric',
			minute: 'numeric',
		});
	} catch {
		return undefined;
	}
}
