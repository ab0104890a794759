/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- n8n Cloud's limits are for nodes; this runs on Node itself (timers, process, built-in modules) */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';

import {
	brokenLinks,
	headingAnchors,
	headingTexts,
	linkTargets,
	sectionReferences,
} from './markdownLinks';

/**
 * The README is a front page that links into docs/; every relative link and
 * anchor of the README, the docs pages and the architecture notes must land
 * on a file and a heading that exist, so moving a section cannot strand a link.
 */
const root = resolve(__dirname, '../..');
const pages = [
	'README.md',
	'ARCHITECTURE.md',
	'CHANGELOG.md',
	...readdirSync(resolve(root, 'docs'))
		.filter((name) => name.endsWith('.md'))
		.map((name) => `docs/${name}`),
];

describe('links between the README and docs/', () => {
	it('reads every docs page the README promises', () => {
		expect(pages).toEqual(
			expect.arrayContaining([
				'docs/trigger.md',
				'docs/reliability.md',
				'docs/errors-and-limits.md',
				'docs/benchmarks.md',
				'docs/development.md',
			]),
		);
		const fromReadme = linkTargets(readFileSync(resolve(root, 'README.md'), 'utf8'));
		for (const page of pages.filter((page) => page.startsWith('docs/'))) {
			expect(fromReadme.some((target) => target.split('#')[0] === page)).toBe(true);
		}
	});

	it('has no relative link or anchor that points nowhere', () => {
		expect(brokenLinks(root, pages)).toEqual([]);
	});
});

describe('the example workflows the pages name', () => {
	it('names only files of examples/, and the README names every one of them', () => {
		const examples = readdirSync(resolve(root, 'examples')).filter((name) =>
			name.endsWith('.json'),
		);
		// Named as a link or as code (`examples/....json`), from any page.
		const named = new Set(
			pages.flatMap((page) =>
				[...readFileSync(resolve(root, page), 'utf8').matchAll(/examples\/([\w-]+\.json)/g)].map(
					(match) => match[1],
				),
			),
		);
		expect([...named].filter((name) => !examples.includes(name))).toEqual([]);
		const readme = readFileSync(resolve(root, 'README.md'), 'utf8');
		expect(examples.filter((name) => !readme.includes(`examples/${name}`))).toEqual([]);
	});
});

/** Every source file of the package and of its tests, bench included. */
function sourceFiles(dir: string): string[] {
	return readdirSync(resolve(root, dir), { withFileTypes: true }).flatMap((entry) => {
		const path = `${dir}/${entry.name}`;
		if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : sourceFiles(path);
		return /\.(ts|js|mjs)$/.test(entry.name) ? [path] : [];
	});
}

describe('sections named in code comments', () => {
	it('each names a page and a heading that exist', () => {
		const dirs = ['nodes', 'credentials', 'test', 'bench'].filter((dir) =>
			existsSync(resolve(root, dir)),
		);
		const missing: string[] = [];
		let found = 0;
		// The check's own files hold made-up references.
		const check = ['test/package/docsLinks.test.ts', 'test/package/markdownLinks.ts'];
		for (const file of dirs.flatMap(sourceFiles).filter((path) => !check.includes(path))) {
			for (const { page, heading } of sectionReferences(
				readFileSync(resolve(root, file), 'utf8'),
			)) {
				found++;
				const path = resolve(root, page);
				if (!existsSync(path)) missing.push(`${file}: ${page} does not exist`);
				else if (!headingTexts(readFileSync(path, 'utf8')).has(heading))
					missing.push(`${file}: ${page} has no heading "${heading}"`);
			}
		}
		expect(missing).toEqual([]);
		expect(found).toBeGreaterThan(5);
	});

	it('reads a reference that runs over comment lines, and only a quoted heading', () => {
		const source = [
			'/**',
			' * as the trigger saves it (docs/trigger.md, "Watching every',
			' * form of an app"); see docs/benchmarks.md too.',
			' */',
			'// and (README.md, "Credentials")',
		].join('\n');
		expect(sectionReferences(source)).toEqual([
			{ page: 'docs/trigger.md', heading: 'Watching every form of an app' },
			{ page: 'README.md', heading: 'Credentials' },
		]);
	});
});

describe('the link check itself', () => {
	const page = resolve(root, 'page.md');
	const texts: Record<string, string> = {
		[page]: [
			'# Top',
			'## Rate limits',
			'## `Options > Timeout` and bounds',
			'## Top',
			'[ok](#rate-limits) [ok](#options--timeout-and-bounds) [ok](#top-1) [site](https://example.com/x#y)',
			'[missing anchor](#nowhere) [missing file](docs/nothing.md) [outside](../../etc/passwd)',
			'[wrong anchor in another page](README.md#no-such-heading) ![image](docs/credential.png)',
			'`[in code](nothing.md)`',
			'```',
			'[in a fence](nothing.md)',
			'## Not a heading',
			'```',
			'[not a heading](#not-a-heading)',
		].join('\n'),
	};
	// The made-up page lives in memory; the files it links to are the repository's own.
	const files = {
		read: (path: string) => texts[path] ?? readFileSync(path, 'utf8'),
		exists: (path: string) => path in texts || existsSync(path),
	};

	it('names GitHub anchors as GitHub does', () => {
		expect([...headingAnchors(texts[page])]).toEqual([
			'top',
			'rate-limits',
			'options--timeout-and-bounds',
			'top-1',
		]);
	});

	it('reports each broken target and passes the good ones', () => {
		const found = brokenLinks(root, ['page.md'], files);
		expect(found.map((link) => link.target)).toEqual([
			'#nowhere',
			'docs/nothing.md',
			'../../etc/passwd',
			'README.md#no-such-heading',
			'#not-a-heading',
		]);
	});
});
