/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-dangerous-functions -- n8n Cloud's limits are for nodes; this runs eslint and Prettier on Node itself */
import { spawn } from 'node:child_process';
import { join } from 'node:path';

/**
 * `npm run lint` refuses what the project's rules forbid: each probe is a
 * product file, linted from stdin as if it stood at its path, and must fail
 * with the rule named; the same file at an allowed place must pass.
 */
const root = join(__dirname, '../..');

function run(args: string[], source: string): Promise<{ status: number | null; output: string }> {
	return new Promise((resolve) => {
		const child = spawn(process.execPath, args, { cwd: root });
		let output = '';
		child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
		child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
		child.on('close', (status) => resolve({ status, output }));
		child.stdin.end(source);
	});
}

const lint = (path: string, source: string) =>
	run(
		[
			join(root, 'node_modules/eslint/bin/eslint.js'),
			'-c',
			'eslint.project.config.mjs',
			'--stdin',
			'--stdin-filename',
			path,
		],
		source,
	);
/** The text Prettier makes of `source`, as `npm run format` would write it at `path`. */
const formatted = async (path: string, source: string) =>
	(
		await run(
			[join(root, 'node_modules/prettier/bin/prettier.cjs'), '--stdin-filepath', path],
			source,
		)
	).output;

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
	it('refuse each probe, naming the rule, and pass the same code where it is allowed', async () => {
		const results = await Promise.all([
			...probes.map(async (probe) => ({ probe, result: await lint(probe.path, probe.source) })),
			lint('nodes/AppBuilder/trigger/reading/probe.ts', probes[0].source).then((result) => ({
				probe: undefined,
				result,
			})),
			// The other way round is allowed: the bench imports what it shares with the tests.
			lint(
				'bench/lib/tryFor.ts',
				"import { sleep } from '../../test/support/sleep';\n\nexport const probe = sleep;\n",
			).then((result) => ({ probe: undefined, result })),
		]);
		for (const { probe, result } of results) {
			if (probe === undefined) {
				expect(result).toEqual({ status: 0, output: '' });
				continue;
			}
			expect({ name: probe.name, status: result.status }).toEqual({ name: probe.name, status: 1 });
			expect(result.output).toContain(probe.rule);
		}
	}, 120_000);

	it("refuse code Prettier would format otherwise (n8n-nodes-starter's settings)", async () => {
		const path = 'nodes/shared/probe.ts';
		const good = "export const probe = { a: 'x', b: 2 };\n";
		expect(await formatted(path, good)).toBe(good);
		expect(await formatted(path, 'export const probe = {a:"x",b:2}\n')).toBe(good);
	}, 60_000);
});
