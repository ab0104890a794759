// Fails when two product files (under nodes/ or credentials/) have the same file
// name, compared without case: a name should tell a reader which file it is
// without its folder. An operation file is the exception: n8n's own layout names
// it <resource>/<operation>.operation.ts, so two resources may each have a
// delete.operation.ts. Plain Node, run by `npm run lint` after ESLint.
import { readdirSync } from 'node:fs';
import { basename, join, relative, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '../..');

function filesUnder(dir) {
	return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
		const path = join(dir, entry.name);
		return entry.isDirectory() ? filesUnder(path) : [path];
	});
}

const byName = new Map();
for (const path of ['nodes', 'credentials'].flatMap((dir) => filesUnder(join(root, dir)))) {
	const name = basename(path).toLowerCase();
	if (name.endsWith('.operation.ts')) continue;
	byName.set(name, [...(byName.get(name) ?? []), relative(root, path)]);
}

const clashes = [...byName.values()].filter((paths) => paths.length > 1);
for (const paths of clashes)
	console.error(`Two product files share a name: ${paths.join(' and ')}`);
if (clashes.length > 0) process.exit(1);
console.log(`Layout: ${byName.size} product files, no two with the same name.`);
