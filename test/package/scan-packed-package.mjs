// Packs the package as npm would publish it and checks the tarball the way
// n8n's community package scanner does: ESLint over the shipped JS and
// package.json with n8n's rule sets and inline disables ignored. Also checks
// that the tarball holds only what it should and has no runtime dependencies.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { ESLint } from 'eslint';
import { defineConfig } from 'eslint/config';
import { n8nCommunityNodesPlugin } from '@n8n/eslint-plugin-community-nodes';
import n8nNodesBase from 'eslint-plugin-n8n-nodes-base';
import tsParser from '@typescript-eslint/parser';

const root = resolve(import.meta.dirname, '../..');
const work = mkdtempSync(join(tmpdir(), 'appbuilder-scan-'));
const problems = [];

try {
	const packed = JSON.parse(
		execFileSync('npm', ['pack', '--json', '--pack-destination', work], { cwd: root, encoding: 'utf8' }),
	)[0];
	const allowed = /^(dist\/|README\.md$|LICENSE$|CHANGELOG\.md$|package\.json$)/;
	for (const file of packed.files) {
		if (!allowed.test(file.path)) problems.push(`tarball holds ${file.path}, which should not ship`);
	}
	for (const required of [
		'dist/credentials/AppBuilderApi.credentials.js',
		'dist/nodes/AppBuilder/AppBuilder.node.js',
		'dist/nodes/AppBuilder/AppBuilderTrigger.node.js',
		'dist/nodes/AppBuilder/AppBuilder.node.json',
		'dist/icons/appbuilder.svg',
		'dist/icons/appbuilder.dark.svg',
		'CHANGELOG.md',
	]) {
		if (!packed.files.some((file) => file.path === required)) problems.push(`tarball lacks ${required}`);
	}

	execFileSync('tar', ['-xzf', join(work, packed.filename), '-C', work]);
	const packageDir = join(work, 'package');
	const manifest = JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8'));
	if (manifest.dependencies && Object.keys(manifest.dependencies).length > 0) {
		problems.push('package.json has runtime dependencies');
	}

	const eslint = new ESLint({
		cwd: packageDir,
		allowInlineConfig: false,
		overrideConfigFile: true,
		overrideConfig: defineConfig(
			n8nCommunityNodesPlugin.configs.recommended,
			{ rules: { 'no-console': 'error' } },
			{ plugins: { 'n8n-nodes-base': n8nNodesBase } },
			{ files: ['package.json'], rules: { ...n8nNodesBase.configs.community.rules } },
			{ files: ['**/*.json'], languageOptions: { parser: tsParser } },
		),
	});
	const results = await eslint.lintFiles(['**/*.js', 'package.json']);
	const failing = results.filter((result) => result.errorCount > 0);
	if (failing.length > 0) {
		const formatter = await eslint.loadFormatter('stylish');
		problems.push(`ESLint violations in the packed code:\n${await formatter.format(failing)}`);
	}
	console.log(`Scanned ${packed.filename}: ${packed.files.length} files, ${results.length} linted.`);
} finally {
	rmSync(work, { recursive: true, force: true });
}

if (problems.length > 0) {
	console.error(problems.join('\n'));
	process.exit(1);
}
console.log('Packed package passes the community package checks.');
