/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- n8n Cloud's limits are for nodes; this runs on Node itself (timers, process, built-in modules) */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';

import { brokenLinks, headingAnchors, linkTargets } from './markdownLinks';

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
