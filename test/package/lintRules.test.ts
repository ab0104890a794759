/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-dangerous-functions -- n8n Cloud's limits are for nodes; this runs eslint and Prettier on Node itself */
import { spawn } from 'node:child_process';
import { join } from 'node:path';

/**
 * `npm run lint` refuses what the project's rules forbid: each probe is a
 * product file, linted as if it stood at its path, and must fail with the
 * rule named; the same file at an allowed place must pass. Every probe is
 * linted in one ESLint process (test/package/lintProbes.mjs), so the time
 * does not grow with the probes nor shrink with the cores.
 */
const root = join(__dirname, '../..');
/**
 * The bound on each child process below: a bound on a hang, not on speed
 * (the probes take about 15 s on a quiet 2-core machine).
 */
const PROCESS_BOUND_MS = 10 * 60_000;

interface Problem {
	ruleId: string | null;
	severity: number;
	message: string;
}

/** Runs node with `args`, `input` on its stdin, and gives its output; fails past PROCESS_BOUND_MS, naming what it waited for. */
function run(what: string, args: string[], input: string): Promise<string> {
	return new Promise((resolve, reject) => {
		const child = spawn(process.execPath, args, { cwd: root, timeout: PROCESS_BOUND_MS });
		let stdout = '';
		let stderr = '';
		child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
		child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
		child.on('close', (status, signal) => {
			if (signal !== null)
				reject(new Error(`${what} did not end within ${PROCESS_BOUND_MS / 60_000} minutes`));
			else if (status !== 0) reject(new Error(`${what} failed (${status}):\n${stderr}`));
			else resolve(stdout);
		});
		child.stdin.end(input);
	});
}

/** Each file's problems under the project's rules, in the order given, from one ESLint process. */
async function lintAll(files: Array<{ path: string; source: string }>): Promise<Problem[][]> {
	const output = await run(
		`the ESLint process linting ${files.length} probes`,
		[join(__dirname, 'lintProbes.mjs')],
		JSON.stringify(files),
	);
	return JSON.parse(output) as Problem[][];
}

/** The text Prettier makes of `source`, as `npm run format` would write it at `path`. */
const formatted = async (path: string, source: string) =>
	await run(
		'Prettier',
		[join(root, 'node_modules/prettier/bin/prettier.cjs'), '--stdin-filepath', path],
		source,
	);

const probes: Array<{ name: string; path: string; source: string; rule: string }> = [
	{
		name: 'n8n-workflow imported into the pure cursor',
		path: 'nodes/AppBuilder/trigger/cursor/probe.ts',
		source:
			"import { NodeOperationError } from 'n8n-workflow';\n\nexport const probe = NodeOperationError;\n",
		rule: 'no-restricted-imports',
	},
	{
		name: 'the transport imported into the saved position',
		path: 'nodes/AppBuilder/trigger/saved/probe.ts',
		source:
			"import { fetchAppForms } from '../../transport/appForms';\n\nexport const probe = fetchAppForms;\n",
		rule: 'no-restricted-imports',
	},
	{
		name: 'the cursor importing upwards, from the plan',
		path: 'nodes/AppBuilder/trigger/cursor/probe.ts',
		source:
			"import { MIN_TRACKED_PER_FORM } from '../plan/pollPlan';\n\nexport const probe = MIN_TRACKED_PER_FORM;\n",
		rule: 'no-restricted-imports',
	},
	{
		name: 'the actions importing the trigger',
		path: 'nodes/AppBuilder/actions/probe.ts',
		source:
			"import { FETCH_ATTEMPTS } from '../trigger/pollWatchedForms';\n\nexport const probe = FETCH_ATTEMPTS;\n",
		rule: 'no-restricted-imports',
	},
	{
		name: 'the forms shared by both nodes importing the trigger',
		path: 'nodes/AppBuilder/acrossForms/probe.ts',
		source:
			"import { FETCH_ATTEMPTS } from '../trigger/pollWatchedForms';\n\nexport const probe = FETCH_ATTEMPTS;\n",
		rule: 'no-restricted-imports',
	},
	{
		name: 'the transport importing the forms shared by both nodes',
		path: 'nodes/AppBuilder/transport/probe.ts',
		source:
			"import { FORM_CONCURRENCY } from '../acrossForms/readForms';\n\nexport const probe = FORM_CONCURRENCY;\n",
		rule: 'no-restricted-imports',
	},
	{
		name: 'a parameter read by a name written again, not from its declaration',
		path: 'nodes/AppBuilder/actions/probe.ts',
		source:
			"import type { IExecuteFunctions } from 'n8n-workflow';\n\nexport function probe(this: IExecuteFunctions) {\n\treturn this.getNodeParameter('limit', 0);\n}\n",
		rule: 'no-restricted-syntax',
	},
	{
		name: 'a test importing from the bench',
		path: 'test/support/sleep.ts',
		source:
			"import { lineChart } from '../../bench/lib/svgChart';\n\nexport const probe = lineChart;\n",
		rule: 'no-restricted-imports',
	},
	{
		name: 'a test helper requiring the bench',
		path: 'test/emulator/cli.js',
		source:
			"'use strict';\nconst { lineChart } = require('../../bench/lib/svgChart');\n\nmodule.exports = { lineChart };\n",
		rule: 'no-restricted-syntax',
	},
	{
		name: 'an eslint-disable comment in the product',
		path: 'nodes/shared/probe.ts',
		source: '// eslint-disable-next-line no-console\nconsole.log(1);\n',
		rule: 'no-console',
	},
	{
		name: 'a regular expression that is not linear',
		path: 'nodes/shared/probe.ts',
		source: 'export const probe = /^(a+)+$/;\n',
		rule: 'regexp/no-super-linear-backtracking',
	},
];

describe('the lint rules of the project', () => {
	it(
		'refuse each probe, naming the rule, and pass the same code where it is allowed',
		async () => {
			const allowed = [
				{ path: 'nodes/AppBuilder/trigger/reading/probe.ts', source: probes[0].source },
				// The other way round is allowed: the bench imports what it shares with the tests.
				{
					path: 'bench/lib/tryFor.ts',
					source:
						"import { sleep } from '../../test/support/sleep';\n\nexport const probe = sleep;\n",
				},
			];
			const problems = await lintAll([...probes, ...allowed]);
			probes.forEach((probe, index) => {
				const errors = problems[index].filter((problem) => problem.severity === 2);
				expect({ name: probe.name, rules: errors.map((error) => error.ruleId) }).toEqual({
					name: probe.name,
					rules: expect.arrayContaining([expect.stringContaining(probe.rule)]),
				});
			});
			allowed.forEach((file, index) => {
				expect({ path: file.path, problems: problems[probes.length + index] }).toEqual({
					path: file.path,
					problems: [],
				});
			});
		},
		PROCESS_BOUND_MS + 60_000,
	);

	it(
		"refuse code Prettier would format otherwise (n8n-nodes-starter's settings)",
		async () => {
			const path = 'nodes/shared/probe.ts';
			const good = "export const probe = { a: 'x', b: 2 };\n";
			expect(await formatted(path, good)).toBe(good);
			expect(await formatted(path, 'export const probe = {a:"x",b:2}\n')).toBe(good);
		},
		2 * PROCESS_BOUND_MS + 60_000,
	);
});
