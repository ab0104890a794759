/* eslint-disable @n8n/community-nodes/no-restricted-globals -- a test helper: the size comes from the environment */

/**
 * How many cases a sized suite runs. The quick loop (`npm run test:quick`)
 * keeps each suite at its `quick` count; `TEST_SIZE=long` (the longer runs)
 * raises it to `long`; `<NAME>_RUNS` sets one suite's count, whatever the
 * size. Each suite names its count in its test title, beside the seed
 * test/support/propertySeed.ts prints.
 */
export function caseCount(name: string, quick: number, long: number): number {
	const given = process.env[`${name}_RUNS`];
	if (given !== undefined) {
		const runs = Number(given);
		if (!Number.isSafeInteger(runs) || runs < 1)
			throw new Error(`${name}_RUNS must be a whole number of at least 1, not "${given}"`);
		return runs;
	}
	return process.env.TEST_SIZE === 'long' ? long : quick;
}
