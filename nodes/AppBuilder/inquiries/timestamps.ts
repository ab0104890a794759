/**
 * addedon and updatedon arrive in a unit the API does not state; the
 * magnitude tells it (see docs/trigger-internals.md, "How times are read"). One rule for every
 * caller (the item, the trigger's cursor, Get Many's filters): a usable time
 * names a valid Date from 1973 on, in whole milliseconds. 0 is not one: read
 * as 1970 it would file a new lead as ancient.
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
	const [
		,
		year,
		month,
		day,
		hour,
		minute,
		second = '0',
		fraction = '',
		zone = '',
		sign,
		offsetHours,
		offsetMinutes = '0',
	] = match;
	const [y, mo, d, h, mi, s] = [year, month, day, hour, minute, second].map(Number);
	// Checked here, not left to the range check: Date.UTC reads years 0-99 as 1900-1999.
	if (y < 1973) return undefined;
	if (mo < 1 || mo > 12 || d < 1 || d > daysIn(y, mo) || h > 23 || mi > 59 || s > 59)
		return undefined;
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
