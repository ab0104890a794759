// What n8n's verification of a community package asks beyond its lint rules,
// checked on the unpacked tarball: no runtime dependencies, no environment or
// file-system access from the nodes, the MIT licence, English, and a README
// that tells how to use the nodes and how to authenticate. Each check returns
// a list of problems, each naming what to fix.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, relative, resolve, sep } from 'node:path';

/** Every file under `dir`, as paths relative to it with `/`, skipping node_modules and dot folders and files. */
export function filesUnder(dir) {
	const walk = (folder) =>
		readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
			if (entry.name.startsWith('.') || entry.name === 'node_modules') return [];
			const path = join(folder, entry.name);
			return entry.isDirectory() ? walk(path) : [relative(dir, path).split(sep).join('/')];
		});
	return walk(dir);
}

/** No package n8n would have to install with this one: dependencies, optional and bundled ones. */
export function checkNoRuntimeDependencies(manifest) {
	return ['dependencies', 'optionalDependencies', 'bundleDependencies', 'bundledDependencies']
		.filter((field) => {
			const value = manifest[field];
			return Array.isArray(value)
				? value.length > 0
				: value !== undefined && Object.keys(value).length > 0;
		})
		.map(
			(field) =>
				`package.json: "${field}" lists packages; n8n verifies only packages without runtime dependencies (move build-time tools to devDependencies)`,
		);
}

// What shipped code may load outside its own files: n8n-workflow (the peer
// dependency n8n provides) and the modules n8n Cloud's rule allows a node. Not
// a devDependency, which n8n's lint rule lets through but n8n never installs;
// never fs, child_process, process or another built-in that reaches the machine.
const LOADABLE = new Set([
	'n8n-workflow',
	'crypto',
	'node:crypto',
	'lodash',
	'moment',
	'p-limit',
	'luxon',
	'zod',
	'ai-node-sdk',
	'@n8n/ai-node-sdk',
]);

/** The modules a compiled file loads: `require('x')` and `import('x')` with a string literal. */
export function loadedModules(code) {
	return [...code.matchAll(/\b(?:require|import)\(\s*(["'])([^"'\n]*)\1\s*\)/g)].map(
		(match) => match[2],
	);
}

/** The package a module path names: `@scope/name` or `name`, without a path inside it. */
const packageNameOf = (path) =>
	path
		.split('/')
		.slice(0, path.startsWith('@') ? 2 : 1)
		.join('/');

/** Every module the tarball's JavaScript loads is one of its own files or one n8n provides to a node. */
export function checkLoadsOnlyWhatN8nProvides(packageDir, files) {
	const problems = [];
	for (const file of files.filter((path) => path.endsWith('.js'))) {
		for (const name of loadedModules(readFileSync(join(packageDir, file), 'utf8'))) {
			if (name.startsWith('./') || name.startsWith('../')) {
				const target = resolve(packageDir, file, '..', name);
				const inside = !relative(packageDir, target).startsWith('..');
				if (
					!inside ||
					![target, `${target}.js`, `${target}.json`, join(target, 'index.js')].some((path) =>
						existsSync(path),
					)
				) {
					problems.push(`${file}: loads ${name}, which is not a file of the package`);
				}
			} else if (!LOADABLE.has(packageNameOf(name))) {
				problems.push(
					`${file}: loads '${name}', which n8n does not provide to a community node: a node may load n8n-workflow and ${[...LOADABLE].filter((module) => module !== 'n8n-workflow').join(', ')}; no file system, environment, process or network module`,
				);
			}
		}
	}
	return problems;
}

/** The MIT licence, named in package.json and shipped as its text. */
export function checkMitLicence(packageDir, manifest) {
	const problems = [];
	if (manifest.license !== 'MIT')
		problems.push(
			`package.json: "license" is ${JSON.stringify(manifest.license)}; n8n verifies MIT-licensed packages only`,
		);
	const licence = ['LICENSE', 'LICENSE.md', 'LICENSE.txt']
		.map((name) => join(packageDir, name))
		.find((path) => existsSync(path));
	const text = licence ? readFileSync(licence, 'utf8') : '';
	if (
		!/^MIT License\b/.test(text.trimStart()) ||
		!text.includes('Permission is hereby granted, free of charge')
	) {
		problems.push(
			'LICENSE: the package ships no MIT licence text (a LICENSE file beginning "MIT License")',
		);
	}
	return problems;
}

// The sections of n8n's README template for community nodes (n8n-nodes-starter).
const README_SECTIONS = [
	'Installation',
	'Operations',
	'Credentials',
	'Compatibility',
	'Usage',
	'Resources',
	'Version history',
];

/** The README's prose: its text without fenced code, inline code, link targets and HTML tags. */
export function readmeProse(markdown) {
	return markdown
		.split(/^```[^\n]*\n/m)
		.filter((_part, index) => index % 2 === 0)
		.join('\n')
		.replace(/`[^`\n]*`/g, ' ')
		.replace(/\]\([^)\s]*\)/g, ']')
		.replace(/<[^<>\n]*>/g, ' ');
}

/** A README with n8n's template sections, usage and authentication among them, each with something in it. */
export function checkReadme(packageDir) {
	const path = join(packageDir, 'README.md');
	if (!existsSync(path))
		return [
			'README.md: the package ships no README; n8n asks for one with usage and authentication',
		];
	const markdown = readFileSync(path, 'utf8');
	const problems = [];
	for (const section of README_SECTIONS) {
		const start = markdown.search(new RegExp(`^## ${section}\\s*$`, 'm'));
		const body =
			start === -1 ? '' : markdown.slice(start).split('\n').slice(1).join('\n').split(/^## /m)[0];
		if (start === -1)
			problems.push(`README.md: no "## ${section}" section (n8n's community node README template)`);
		else if (body.trim().length < 40)
			problems.push(`README.md: the "## ${section}" section is empty`);
	}
	return problems;
}

// Short words that make up a large share of any English text.
const ENGLISH_WORDS = new Set(
	'a an the and or but if of to in on at by for from with without as is are was be been it its this that these those which who what when where how not no can may must will would should do does each every all any one more than then so into out up'.split(
		' ',
	),
);

/**
 * Why `text` is not English, or null: a letter of another script, or too few of
 * English's common short words. They are about a third of this README's words
 * and of its nodes' texts; a German or Spanish text has almost none.
 */
export function whyNotEnglish(text, minShare = 0.2) {
	const foreign = /[^\P{L}\p{Script=Latin}]/u.exec(text);
	if (foreign) return `it has the letter "${foreign[0]}", not of the Latin alphabet`;
	const words = text.toLowerCase().match(/\p{L}+/gu) ?? [];
	if (words.length === 0) return null;
	const share = words.filter((word) => ENGLISH_WORDS.has(word)).length / words.length;
	return share < minShare
		? `only ${Math.round(share * 100)}% of its words are common English words (the, and, of, to, ...)`
		: null;
}

// The description fields n8n shows in the editor.
const SHOWN = new Set(['displayName', 'description', 'hint', 'placeholder', 'action']);

/** Every text the node and credential descriptions show a user. */
export function userFacingTexts(description) {
	const texts = [];
	const visit = (value, key) => {
		if (typeof value === 'string') {
			if (SHOWN.has(key)) texts.push(value);
		} else if (Array.isArray(value)) value.forEach((item) => visit(item, key));
		else if (value && typeof value === 'object')
			for (const [childKey, child] of Object.entries(value)) visit(child, childKey);
	};
	visit(description, '');
	return texts;
}

/**
 * The README and the nodes' and credentials' user-facing texts are English. The
 * nodes are loaded from the package as n8n loads them, so n8n-workflow must be
 * found from `packageDir` (n8n provides it; the scan links node_modules in).
 */
export function checkEnglish(packageDir, manifest) {
	const problems = [];
	const readme = join(packageDir, 'README.md');
	if (existsSync(readme)) {
		const why = whyNotEnglish(readmeProse(readFileSync(readme, 'utf8')));
		if (why) problems.push(`README.md is not in English: ${why}`);
	}
	const load = createRequire(join(packageDir, 'package.json'));
	const texts = [];
	for (const file of [...(manifest.n8n?.nodes ?? []), ...(manifest.n8n?.credentials ?? [])]) {
		const path = join(packageDir, file);
		if (!existsSync(path)) {
			problems.push(`package.json: n8n lists ${file}, which the package does not ship`);
			continue;
		}
		const loaded = load(path);
		for (const Class of Object.values(loaded)) {
			if (typeof Class !== 'function') continue;
			const instance = new Class();
			texts.push(
				...userFacingTexts(
					instance.description ?? {
						displayName: instance.displayName,
						properties: instance.properties,
					},
				),
			);
		}
	}
	const why = whyNotEnglish(texts.join('\n'));
	if (why) problems.push(`The nodes' texts are not in English: ${why}`);
	return problems;
}
