/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- n8n Cloud's limits are for nodes; this runs on Node itself (built-in modules, __dirname) */
import { existsSync, readdirSync } from 'node:fs';
import { resolve } from 'node:path';

const root = resolve(__dirname, '../..');
// The trigger's pure parts: each rule has its own test beside the mirror of its file.
const MIRRORED = ['cursor', 'forms', 'plan', 'saved', 'quiet'].map(
	(folder) => `nodes/AppBuilder/trigger/${folder}`,
);

describe('tests at the same path as the code (ARCHITECTURE.md, "Folders")', () => {
	it.each(MIRRORED)('every file of %s has a test at the same path under test/', (folder) => {
		const tests = existsSync(resolve(root, 'test', folder))
			? readdirSync(resolve(root, 'test', folder))
			: [];
		const untested = readdirSync(resolve(root, folder))
			.filter((name) => name.endsWith('.ts'))
			.map((name) => name.replace(/\.ts$/, ''))
			.filter(
				(base) => !tests.some((test) => test.startsWith(`${base}.`) && test.endsWith('.test.ts')),
			);
		expect(untested).toEqual([]);
	});
});
