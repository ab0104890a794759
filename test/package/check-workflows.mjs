// Validates every GitHub Actions workflow in .github/workflows against the
// workflow schema with @action-validator/core (WebAssembly, nothing downloaded
// at run time): an unknown key, a bad `on:` or a job without `runs-on` fails
// `npm run lint` here instead of on GitHub. Plain Node, run by `npm run lint`.
//   node test/package/check-workflows.mjs [file ...]   (default: .github/workflows/*.yml)
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { validateWorkflow } from '@action-validator/core';

const root = resolve(import.meta.dirname, '../..');
const folder = join(root, '.github/workflows');
const files =
	process.argv.length > 2
		? process.argv.slice(2).map((file) => resolve(file))
		: readdirSync(folder)
				.filter((name) => /\.ya?ml$/.test(name))
				.map((name) => join(folder, name));

// A "one of" error (`on:` is a string, a list or a map; a job is steps on a
// runner or a call to a reusable workflow) holds one list per alternative.
// Alternatives of another type than the value are no match at all; of the
// rest, the one with the fewest errors is the nearest miss.
function flatten(error) {
	if (!Array.isArray(error.states) || error.states.length === 0) return [error];
	const otherType = (state) =>
		state.errors.some((e) => e.code === 'wrong_type' && e.path === error.path);
	const sameType = error.states.filter((state) => !otherType(state));
	const candidates = sameType.length > 0 ? sameType : error.states;
	const nearest = candidates.reduce((best, state) =>
		state.errors.length < best.errors.length ? state : best,
	);
	return nearest.errors.flatMap(flatten);
}

let failed = files.length === 0;
if (failed) console.error(`No workflow files in ${relative(root, folder)}`);
for (const file of files) {
	const { errors } = validateWorkflow(readFileSync(file, 'utf8'));
	if (errors.length === 0) continue;
	failed = true;
	console.error(`${relative(root, file)} is not a valid workflow:`);
	for (const error of errors.flatMap(flatten)) {
		console.error(`  ${error.path || '/'}: ${error.detail ?? error.title ?? error.code}`);
	}
}
if (failed) process.exit(1);
console.log(
	`Workflows: ${files.length} file(s) valid (${files.map((file) => relative(root, file)).join(', ')}).`,
);
