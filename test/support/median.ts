/** The middle value (the upper one of the two middles for an even count); the input is left as it is. */
export const median = (values: readonly number[]): number =>
	[...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
