/**
 * addedon and updatedon arrive as numbers or numeric strings in a unit the
 * API does not state. The magnitude tells the unit for any date from 1973 on:
 * below 1e11 the value is seconds, below 1e14 milliseconds, otherwise
 * microseconds. Fractions of a second are kept to the millisecond; the result
 * is whole milliseconds, so one instant written in two units compares equal.
 *
 * 0 counts as "no time": it is how back ends commonly store a missing time,
 * and reading it as 1970 would file a new lead as ancient.
 */
const SECONDS_BELOW = 1e11;
const MILLISECONDS_BELOW = 1e14;

/** Plain decimal notation, optionally with an exponent: no sign, hex or words. */
const NUMERIC_TEXT = /^(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i;

export function toEpochMillis(value: unknown): number | undefined {
	const number = toNumber(value);
	if (number === undefined || !Number.isFinite(number) || number <= 0) return undefined;
	if (number < SECONDS_BELOW) return Math.round(number * 1000);
	if (number < MILLISECONDS_BELOW) return Math.round(number);
	return Math.round(number / 1000);
}

export function toIsoString(ms: number | undefined): string | undefined {
	if (ms === undefined || !Number.isFinite(ms)) return undefined;
	const date = new Date(ms);
	return Number.isNaN(date.getTime()) ? undefined : date.toISOString();
}

function toNumber(value: unknown): number | undefined {
	if (typeof value === 'number') return value;
	if (typeof value !== 'string') return undefined;
	const text = value.trim();
	return NUMERIC_TEXT.test(text) ? Number(text) : undefined;
}
