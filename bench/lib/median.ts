/** The middle value (the upper one of the two middles for an even count); the input is left as it is. */
export const median = (values: readonly number[]): number =>
	[...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/**
 * The value below which a share `p` of the values lie, by nearest rank: one
 * of the values, never a blend of two (quantile(values, 0.1) of 5 values is
 * the smallest). The input is left as it is; an empty list has none.
 */
export function quantile(values: readonly number[], p: number): number {
	const sorted = [...values].sort((a, b) => a - b);
	return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1))];
}
