/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- n8n Cloud's limits are for nodes; this test reads the docs (the file system, __dirname) */
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';

const root = resolve(__dirname, '..');

/** The bench's files the report and the development notes name, as `bench/…`. */
function benchPaths(page: string): string[] {
	const text = readFileSync(resolve(root, page), 'utf8');
	return [...text.matchAll(/`(bench\/[\w./-]*)/g)].map((match) => match[1]);
}

describe("the bench's files the docs name", () => {
	it.each(['docs/benchmarks.md', 'docs/development.md'])('exist, in %s', (page) => {
		const paths = benchPaths(page);
		expect(paths.length).toBeGreaterThan(0);
		expect(paths.filter((path) => !existsSync(resolve(root, path)))).toEqual([]);
	});
});
