import { zoneOffsets } from '../../../shared/text/zoneOffset';

// A form's rhythm counts the workflow's wall-clock hours: an office that opens at 08:00 opens in the same
// hour of the week all year, across clock changes, whatever its offset from UTC.

/** Offsets change only on a quarter hour of UTC. */
const QUARTER_MS = 15 * 60_000;
/** Per zone, its offsets by quarter as looked up (the poll asks for the same hours again and again). */
const zones = new Map<string, Map<number, number>>();

/** `time` on the wall clock of `timeZone` (UTC for a zone this runtime does not know), in hours from the epoch. */
export function wallHours(time: number, timeZone: string): number {
	let offsets = zones.get(timeZone);
	if (offsets === undefined || offsets.size >= 10_000) {
		if (zones.size >= 100) zones.clear();
		offsets = new Map();
		zones.set(timeZone, offsets);
	}
	const quarter = Math.floor(time / QUARTER_MS);
	let offset = offsets.get(quarter);
	if (offset === undefined) {
		offset = zoneOffsets(timeZone)?.(quarter * QUARTER_MS) ?? 0;
		offsets.set(quarter, offset);
	}
	return (time + offset) / 3_600_000;
}
