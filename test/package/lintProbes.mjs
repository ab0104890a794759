// Lints probe files with the project's rules (eslint.project.config.mjs) in
// this one process, for test/package/lintRules.test.ts: each probe is linted
// from its text as if it stood at its path, as `eslint --stdin
// --stdin-filename <path>` would, without writing it into the tree. One
// process shares one ESLint and one TypeScript program across the probes,
// so the run costs about the same on one core as on many.
//
// Reads [{ path, source }] as JSON on stdin; prints, per probe and in order,
// its problems as JSON: [{ ruleId, severity, message }].
import { ESLint } from 'eslint';
import { resolve } from 'node:path';
import { text } from 'node:stream/consumers';

const root = resolve(import.meta.dirname, '../..');
const eslint = new ESLint({ cwd: root, overrideConfigFile: 'eslint.project.config.mjs' });
const probes = JSON.parse(await text(process.stdin));

const problems = [];
for (const probe of probes) {
	const [result] = await eslint.lintText(probe.source, { filePath: resolve(root, probe.path) });
	problems.push(
		result.messages.map(({ ruleId, severity, message }) => ({ ruleId, severity, message })),
	);
}
process.stdout.write(JSON.stringify(problems));
