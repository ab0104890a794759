/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- a test setup file: the seed comes from the environment and is printed for a replay */
import fc from 'fast-check';
import { readFileSync } from 'node:fs';
import { relative } from 'node:path';

/**
 * Every property test of a run draws from one seed, printed by each test
 * file that uses fast-check, so a failure can be replayed:
 * `PROPERTY_SEED=<seed> npx jest <file>`. fast-check adds the path of the
 * counterexample when one fails.
 */
const given = process.env.PROPERTY_SEED;
const seed = given === undefined ? (Date.now() ^ (Math.random() * 0x100000000)) | 0 : Number(given);
if (!Number.isSafeInteger(seed))
	throw new Error(`PROPERTY_SEED must be a whole number, not "${given}"`);
fc.configureGlobal({ seed });

const testPath = expect.getState().testPath;
if (testPath !== undefined && readFileSync(testPath, 'utf8').includes("from 'fast-check'")) {
	process.stderr.write(
		`${relative(process.cwd(), testPath)}: fast-check seed ${seed} (replay: PROPERTY_SEED=${seed} npx jest ${relative(process.cwd(), testPath)})\n`,
	);
}
