import { zoneOffsets } from '../../shared/text/zoneOffset';

// Reads a date written as text into epoch milliseconds the way an n8n user
// means it: ISO 8601 (2026-01-31, 2026-01-31T09:00, 2026-01-31 09:00:00.250,
// each with or without an offset); a date and time without an offset is
// wall-clock time in the workflow's time zone, never in the n8n server's.
// Other text is read only when it states its own offset (GMT, UTC or
// +0100, as JavaScript's Date writes it), since otherwise its meaning
// depends on where n8n runs. Pure.

const ISO_DATE_TIME =
	/^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?)?(Z|[+-]\d{2}(?::?\d{2})?)?$/i;
/**
 * A zone named in free text: GMT or UTC (GMT+0100 included), or a numeric offset right
 * after a time (09:00:00 +0100).
 */
const STATED_ZONE = /\b(?:GMT|UTC)\b|\d{2}:\d{2}(?::\d{2})?\s?[+-]\d{2}:?\d{2}\b/;

export type DateTextReading =
	| { ok: true; ms: number }
	/**
	 * Text that is no date, or one whose zone is unknown, or a time zone this system does not know.
	 */
	| { ok: false; refused: 'not-a-date' | 'unknown-zone' };

export function readDateText(text: string, timeZone: string): DateTextReading {
	const iso = ISO_DATE_TIME.exec(text);
	if (iso) return readIso(iso, timeZone);
	if (!/\d{4}/.test(text) || !STATED_ZONE.test(text)) return { ok: false, refused: 'not-a-date' };
	const ms = Date.parse(text);
	return Number.isFinite(ms) ? { ok: true, ms } : { ok: false, refused: 'not-a-date' };
}

function readIso(match: RegExpExecArray, timeZone: string): DateTextReading {
	const [year, month, day, hour, minute, second] = match
		.slice(1, 7)
		.map((part) => (part === undefined ? 0 : Number(part)));
	const ms = Number((match[7] ?? '').slice(0, 3).padEnd(3, '0'));
	if (month < 1 || month > 12 || hour > 23 || minute > 59 || second > 59)
		return { ok: false, refused: 'not-a-date' };
	const wall = utcOf(year, month - 1, day, hour, minute, second, ms);
	if (wall === undefined) return { ok: false, refused: 'not-a-date' };
	const offset = match[8];
	if (offset !== undefined) {
		const offsetMs = offsetOf(offset);
		return offsetMs === undefined
			? { ok: false, refused: 'not-a-date' }
			: { ok: true, ms: wall - offsetMs };
	}
	const zoned = wallTimeIn(wall, timeZone);
	return zoned === undefined ? { ok: false, refused: 'unknown-zone' } : { ok: true, ms: zoned };
}

/** Epoch ms of a wall-clock time read as UTC; undefined for a day that does not exist (31 Feb). */
function utcOf(
	year: number,
	month: number,
	day: number,
	hour: number,
	minute: number,
	second: number,
	ms: number,
): number | undefined {
	// setUTCFullYear, not Date.UTC, which reads a year below 100 as 19xx.
	const date = new Date(0);
	date.setUTCFullYear(year, month, day);
	if (date.getUTCMonth() !== month || date.getUTCDate() !== day) return undefined;
	return date.getTime() + ((hour * 60 + minute) * 60 + second) * 1000 + ms;
}

/** "Z", "+01", "+0130" or "-05:30" in milliseconds east of UTC. */
function offsetOf(text: string): number | undefined {
	if (text.toUpperCase() === 'Z') return 0;
	const digits = text.slice(1).replace(':', '');
	const hours = Number(digits.slice(0, 2));
	const minutes = digits.length > 2 ? Number(digits.slice(2)) : 0;
	if (hours > 23 || minutes > 59) return undefined;
	return (text[0] === '-' ? -1 : 1) * (hours * 60 + minutes) * 60_000;
}

/**
 * The moment a wall-clock time (given as if it were UTC) is in `timeZone`,
 * or undefined when the zone is unknown. A wall time that a daylight-saving
 * jump skips is read with the offset before the jump (02:30 on a night that
 * jumps from 02:00 to 03:00 is 03:30), as Luxon, and so n8n, reads it.
 */
export function wallTimeIn(wallAsUtc: number, timeZone: string): number | undefined {
	const offsetAt = zoneOffsets(timeZone);
	if (offsetAt === undefined) return undefined;
	const first = offsetAt(wallAsUtc);
	const second = offsetAt(wallAsUtc - first);
	if (second === first) return wallAsUtc - first;
	const third = offsetAt(wallAsUtc - second);
	return third === second ? wallAsUtc - second : wallAsUtc - Math.min(second, third);
}
