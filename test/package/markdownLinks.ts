/* eslint-disable @n8n/community-nodes/no-restricted-imports -- n8n Cloud's limits are for nodes; this runs on Node itself (timers, process, built-in modules) */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, extname, relative, resolve } from 'node:path';

/**
 * Finds the relative links and anchors of Markdown pages that point nowhere:
 * a file that does not exist, or a `#fragment` that is no heading of the page
 * it names. Web addresses are not followed (the tests run offline).
 */

export interface BrokenLink {
	page: string;
	target: string;
	why: string;
}

/** Lines outside fenced code blocks, so code never counts as a link or a heading. */
function linesOutsideFences(text: string): string[] {
	let inFence = false;
	const lines: string[] = [];
	for (const line of text.split('\n')) {
		if (line.trimStart().startsWith('```')) {
			inFence = !inFence;
			continue;
		}
		if (!inFence) lines.push(line);
	}
	return lines;
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens, repeats numbered. */
export function headingAnchors(text: string): Set<string> {
	const anchors = new Set<string>();
	const seen = new Map<string, number>();
	for (const line of linesOutsideFences(text)) {
		const heading = /^#{1,6}\s(.*)$/.exec(line);
		if (!heading) continue;
		const base = heading[1]
			.trim()
			.toLowerCase()
			.replace(/[^\p{L}\p{N}\s_-]/gu, '')
			.replace(/\s/g, '-');
		const count = seen.get(base) ?? 0;
		seen.set(base, count + 1);
		anchors.add(count === 0 ? base : `${base}-${count}`);
	}
	return anchors;
}

/** The headings of a page as written, e.g. "Rate limits". */
export function headingTexts(text: string): Set<string> {
	const headings = new Set<string>();
	for (const line of linesOutsideFences(text)) {
		const heading = /^#{1,6}\s(.*)$/.exec(line);
		if (heading) headings.add(heading[1].trim());
	}
	return headings;
}

/**
 * The sections a source file's comments point at, written as
 * `docs/page.md, "Heading"` (a page of the repository and a heading of it),
 * the comment possibly running over several lines.
 */
export function sectionReferences(source: string): Array<{ page: string; heading: string }> {
	// A comment that runs on: its line breaks and leading "*" or "//" read as one space.
	const joined = source.replace(/\n[ \t]*(?:\*(?!\/)|\/\/)?[ \t]*/g, ' ');
	return [...joined.matchAll(/\b((?:docs\/)?[\w-]+\.md), "([^"]{1,200})"/g)].map((match) => ({
		page: match[1],
		heading: match[2],
	}));
}

/** The targets of inline links and images, `[text](target "title")`, in prose. */
export function linkTargets(text: string): string[] {
	const targets: string[] = [];
	for (const line of linesOutsideFences(text)) {
		// Inline code spans are blanked: `[a](b)` in code is no link.
		for (const match of line.replace(/`[^`]*`/g, '``').matchAll(/\]\(([^()\s]*)(?:\s[^()]*)?\)/g))
			targets.push(match[1]);
	}
	return targets;
}

export interface Files {
	read: (path: string) => string;
	exists: (path: string) => boolean;
}
const onDisk: Files = { read: (path) => readFileSync(path, 'utf8'), exists: existsSync };

/** Every broken relative link of the pages (paths from `root`). */
export function brokenLinks(root: string, pages: string[], files: Files = onDisk): BrokenLink[] {
	const { read, exists } = files;
	const broken: BrokenLink[] = [];
	for (const page of pages) {
		const pagePath = resolve(root, page);
		for (const target of linkTargets(read(pagePath))) {
			if (/^[a-z][\d+.a-z-]*:/i.test(target)) continue;
			const [pathPart, fragment] = target.split('#', 2);
			const file = pathPart === '' ? pagePath : resolve(dirname(pagePath), decodeURI(pathPart));
			if (relative(root, file).startsWith('..')) {
				broken.push({ page, target, why: 'points outside the repository' });
			} else if (!exists(file)) {
				broken.push({ page, target, why: 'no such file' });
			} else if (
				fragment !== undefined &&
				extname(file) === '.md' &&
				!headingAnchors(read(file)).has(fragment)
			) {
				broken.push({ page, target, why: `no heading #${fragment} in ${relative(root, file)}` });
			}
		}
	}
	return broken;
}
