/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- a test helper on Node itself: the size comes from the environment and is printed with the file's path */
import { relative } from 'node:path';

/** The counts already printed in this test file's process. */
const printed = new Set<string>();

/**
 * How many cases a sized suite runs. The quick loop (`npm run test:quick`)
 * keeps each suite at its `quick` count; `TEST_SIZE=long` (the longer runs,
 * `npm run test:long`) raises it to `long`; `<NAME>_RUNS` sets one suite's
 * count, whatever the size. Each count is printed once, beside the seed
 * test/support/propertySeed.ts prints, so a failing run says how large it was.
 */
export function caseCount(name: string, quick: number, long: number): number {
	const given = process.env[`${name}_RUNS`];
	if (given !== undefined) {
		const runs = Number(given);
		if (!Number.isSafeInteger(runs) || runs < 1)
			throw new Error(`${name}_RUNS must be a whole number of at least 1, not "${given}"`);
		return printedCount(name, runs, `${name}_RUNS`);
	}
	return process.env.TEST_SIZE === 'long'
		? printedCount(name, long, 'TEST_SIZE=long')
		: printedCount(name, quick, `the quick loop's; TEST_SIZE=long runs ${long}`);
}

function printedCount(name: string, runs: number, why: string): number {
	const line = `${name} ${runs} cases (${why})`;
	if (!printed.has(line)) {
		printed.add(line);
		const testPath = expect.getState().testPath;
		const file = testPath === undefined ? '' : `${relative(process.cwd(), testPath)}: `;
		process.stderr.write(`${file}${line}\n`);
	}
	return runs;
}

/**
 * A test of a suite's long form: run under TEST_SIZE=long, shown as skipped
 * in the quick loop, whose other tests prove the same promise more quickly.
 */
export const itInLongRuns: jest.It = process.env.TEST_SIZE === 'long' ? it : it.skip;
