/**
 * addedon and updatedon arrive as numbers or numeric strings in an unstated
 * unit. The magnitude tells the unit for any date after 1973: below 1e11 it
 * is seconds, below 1e14 milliseconds, above that microseconds.
 */
const SECONDS_BELOW = 1e11;
const MILLISECONDS_BELOW = 1e14;

export function toEpochMillis(value: unknown): number | undefined {
	const number =
		typeof value === 'number'
			? value
			: typeof value === 'string' && value.trim() !== ''
				? Number(value.trim())
				: Number.NaN;
	if (!Number.isFinite(number) || number < 0) return undefined;
	if (number < SECONDS_BELOW) return Math.round(number * 1000);
	if (number < MILLISECONDS_BELOW) return Math.round(number);
	return Math.round(number / 1000);
}

export function toIsoString(ms: number | undefined): string | undefined {
	if (ms === undefined) return undefined;
	const date = new Date(ms);
	return Number.isNaN(date.getTime()) ? undefined : date.toISOString();
}
