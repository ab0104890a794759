/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- n8n Cloud's limits are for nodes; this runs on Node itself (timers, process, built-in modules) */
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

import * as semver from 'semver';
import { parse } from 'yaml';

/**
 * package.json's links and engines agree with each other, with the CI
 * workflow and with the changelog: npm and n8n's community package pages
 * show these fields, and a wrong one sends a user to another repository or
 * promises a Node version nothing tests.
 */
const root = resolve(__dirname, '../..');
const read = (path: string) => readFileSync(join(root, path), 'utf8');
const manifest = JSON.parse(read('package.json'));

interface Step {
	uses?: string;
	with?: Record<string, unknown>;
}
interface Job {
	strategy?: { matrix?: Record<string, unknown> };
	steps?: Step[];
}

/** Every Node major version a workflow sets up: each actions/setup-node step, matrix values expanded. */
function nodeMajorsIn(workflowFile: string): number[] {
	const workflow = parse(read(workflowFile)) as { jobs: Record<string, Job> };
	return Object.values(workflow.jobs).flatMap((job) =>
		(job.steps ?? [])
			.filter((step) => step.uses?.startsWith('actions/setup-node@'))
			.flatMap((step) => {
				const version = String(step.with?.['node-version']);
				const fromMatrix = /^\$\{\{\s*matrix\.(\w+)\s*\}\}$/.exec(version);
				const values = fromMatrix ? job.strategy?.matrix?.[fromMatrix[1]] : [version];
				if (!Array.isArray(values))
					throw new Error(`${workflowFile}: node-version ${version} is not a list of versions`);
				return values.map((value) => Number(String(value).split('.')[0]));
			}),
	);
}

/** The Node version test/e2e/install-n8n.sh runs n8n on: the package's runtime in n8n 2.x. */
function nodeUnderN8n(): string {
	const pinned = /^node_version="(\d+\.\d+\.\d+)"$/m.exec(read('test/e2e/install-n8n.sh'));
	if (!pinned) throw new Error('test/e2e/install-n8n.sh pins no node_version');
	return pinned[1];
}

describe('package.json', () => {
	const repository = /^git\+https:\/\/github\.com\/([\w.-]+)\/([\w.-]+)\.git$/.exec(
		String(manifest.repository?.url),
	);

	it('names a GitHub repository of the package’s own name', () => {
		expect(manifest.repository?.type).toBe('git');
		expect(repository).not.toBeNull();
		expect(repository?.[2]).toBe(manifest.name);
	});

	it('points bugs, homepage and the author to that same repository', () => {
		const [, owner, name] = repository ?? [];
		const base = `https://github.com/${owner}/${name}`;
		expect(manifest.bugs?.url).toBe(`${base}/issues`);
		expect(manifest.homepage).toBe(`${base}#readme`);
		expect(manifest.author?.name).toEqual(expect.any(String));
		expect(manifest.author?.url).toBe(`${base}/issues`);
	});

	it('is the only GitHub repository the README and the docs pages name', () => {
		const pages = [
			'README.md',
			...readdirSync(join(root, 'docs'))
				.filter((name) => name.endsWith('.md'))
				.map((name) => `docs/${name}`),
		];
		const named = pages.flatMap((page) =>
			[...read(page).matchAll(/github\.com\/([\w.-]+\/[\w.-]+)/g)].map((match) => match[1]),
		);
		expect(named.length).toBeGreaterThan(0);
		expect(new Set(named)).toEqual(new Set([`${repository?.[1]}/${repository?.[2]}`]));
	});

	it('declares the Node versions CI tests, and none older', () => {
		const range = String(manifest.engines?.node);
		const tested = [
			...nodeMajorsIn('.github/workflows/ci.yml'),
			...nodeMajorsIn('.github/workflows/publish.yml'),
		];
		expect(tested.length).toBeGreaterThan(0);
		for (const major of tested)
			expect({ major, covered: semver.intersects(range, `^${major}`) }).toEqual({
				major,
				covered: true,
			});
		expect(semver.minVersion(range)?.major).toBe(Math.min(...tested));
	});

	it('declares the Node version n8n runs the package on in the end-to-end suites', () => {
		expect(semver.satisfies(nodeUnderN8n(), String(manifest.engines?.node))).toBe(true);
	});

	it('ships the changelog, whose newest release is this version', () => {
		expect(manifest.files).toContain('CHANGELOG.md');
		const released = /^## \[(\d+\.\d+\.\d+[^\]]*)\]/m.exec(read('CHANGELOG.md'));
		expect(released?.[1]).toBe(manifest.version);
	});
});
