/**
 * addedon and updatedon arrive as numbers or numeric strings in a unit the
 * API does not state. The magnitude tells the unit for any date from 1973 on:
 * below 1e11 the value is seconds, below 1e14 milliseconds, otherwise
 * microseconds. Fractions of a second are kept to the millisecond; the result
 * is whole milliseconds, so one instant written in two units compares equal.
 *
 * An ISO 8601 date-time string ("2026-11-10T09:12:05Z", "2026-11-10 09:12:05",
 * with or without a fraction and an offset) is read as the instant it names;
 * without an offset it is read as UTC, so the result never depends on the
 * time zone n8n runs in. A date without a time of day is not read.
 *
 * One rule for every caller (the item's submittedAt, the trigger's cursor,
 * Get Many's filters): a value is a usable time only if it names a valid Date
 * from 1973-01-01 on. Anything else is undefined, "not a usable time": 0 (how
 * back ends commonly store a missing time; reading it as 1970 would file a
 * new lead as ancient), times before 1973 (the units overlap there), and
 * times beyond what a Date holds (reading them would date a lead far in the
 * future and hold back every later one).
 */
const SECONDS_BELOW = 1e11;
const MILLISECONDS_BELOW = 1e14;
const EARLIEST_USABLE_MS = Date.UTC(1973, 0, 1);
/** The largest time value a Date holds (ECMAScript, "Time Values and Time Range"). */
const LATEST_DATE_MS = 8.64e15;
/** Longer than any time written in digits or ISO 8601; longer text is refused before a pattern reads it. */
const MAX_TIME_TEXT_LENGTH = 64;

/** Plain decimal notation, optionally with an exponent: no sign, hex or words. */
const NUMERIC_TEXT = /^(?:\d+(?:\.\d*)?|\.\d+)(?:e[+-]?\d+)?$/i;
/** YYYY-MM-DD, T or a space, hh:mm, optional :ss and fraction, optional Z or ±hh[:]mm / ±hh. */
const ISO_DATE_TIME =
	/^(\d{4})-(\d{2})-(\d{2})[ t](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(z|([+-])(\d{2})(?::?(\d{2}))?)?$/i;

export function toEpochMillis(value: unknown): number | undefined {
	const ms = typeof value === 'string' ? textToMillis(value) : numberToMillis(value);
	if (ms === undefined || ms < EARLIEST_USABLE_MS || ms > LATEST_DATE_MS) return undefined;
	return ms;
}

export function toIsoString(ms: number | undefined): string | undefined {
	if (ms === undefined || !Number.isFinite(ms)) return undefined;
	const date = new Date(ms);
	return Number.isNaN(date.getTime()) ? undefined : date.toISOString();
}

function numberToMillis(value: unknown): number | undefined {
	if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0) return undefined;
	if (value < SECONDS_BELOW) return Math.round(value * 1000);
	if (value < MILLISECONDS_BELOW) return Math.round(value);
	return Math.round(value / 1000);
}

function textToMillis(value: string): number | undefined {
	if (value.length > MAX_TIME_TEXT_LENGTH) return undefined;
	const text = value.trim();
	if (NUMERIC_TEXT.test(text)) return numberToMillis(Number(text));
	return isoToMillis(text);
}

function isoToMillis(text: string): number | undefined {
	const match = ISO_DATE_TIME.exec(text);
	if (!match) return undefined;
	const [, year, month, day, hour, minute, second = '0', fraction = '', zone = '', sign, offsetHours, offsetMinutes = '0'] =
		match;
	const [y, mo, d, h, mi, s] = [year, month, day, hour, minute, second].map(Number);
	// Checked here, not left to the range check: Date.UTC reads years 0-99 as 1900-1999.
	if (y < 1973) return undefined;
	if (mo < 1 || mo > 12 || d < 1 || d > daysIn(y, mo) || h > 23 || mi > 59 || s > 59) return undefined;
	let offsetMs = 0;
	if (zone !== '' && sign !== undefined) {
		const oh = Number(offsetHours);
		const om = Number(offsetMinutes);
		if (oh > 23 || om > 59) return undefined;
		offsetMs = (sign === '-' ? -1 : 1) * (oh * 60 + om) * 60_000;
	}
	const fractionMs = fraction === '' ? 0 : Math.round(Number(`0.${fraction}`) * 1000);
	return Date.UTC(y, mo - 1, d, h, mi, s) + fractionMs - offsetMs;
}

function daysIn(year: number, month: number): number {
	return new Date(Date.UTC(year, month, 0)).getUTCDate();
}
