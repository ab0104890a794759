// The ESLint setup of n8n's community package scanner, @n8n/scan-community-package
// 0.32.0 (scanner/scanner.mjs: buildScanConfig, analyzePackage), rebuilt here
// with the plugin versions that scanner depends on: @n8n/eslint-plugin-community-nodes
// 0.29.0 (installed as scanner-eslint-plugin-community-nodes) and
// eslint-plugin-n8n-nodes-base 1.16.7. The scanner ignores the package's own
// ESLint config and every eslint-disable comment; so does this.
import { ESLint } from 'eslint';
import { defineConfig } from 'eslint/config';
import { n8nCommunityNodesPlugin } from 'scanner-eslint-plugin-community-nodes';
import n8nNodesBase from 'eslint-plugin-n8n-nodes-base';
import tsParser from '@typescript-eslint/parser';

/** The scanner's rule sets: n8n's Cloud set on every file, no-console, and the node, credential and package rules. */
export function scannerConfig() {
	return defineConfig(
		n8nCommunityNodesPlugin.configs.recommended,
		{ rules: { 'no-console': 'error' } },
		{ plugins: { 'n8n-nodes-base': n8nNodesBase } },
		{ files: ['package.json'], rules: { ...n8nNodesBase.configs.community.rules } },
		{
			files: ['**/credentials/**/*.ts'],
			rules: {
				...n8nNodesBase.configs.credentials.rules,
				'n8n-nodes-base/cred-class-field-documentation-url-miscased': 'off',
				'n8n-nodes-base/cred-class-field-type-options-password-missing': 'off',
			},
		},
		{
			files: ['**/nodes/**/*.ts'],
			rules: {
				...n8nNodesBase.configs.nodes.rules,
				'n8n-nodes-base/node-class-description-inputs-wrong-regular-node': 'off',
				'n8n-nodes-base/node-class-description-outputs-wrong': 'off',
				'n8n-nodes-base/node-param-type-options-max-value-present': 'off',
			},
		},
		{ files: ['**/*.json'], languageOptions: { parser: tsParser } },
		{ files: ['**/*.ts'], languageOptions: { parser: tsParser } },
	);
}

/**
 * Which files the scanner lints, by path relative to the package's folder. The
 * attested source: `package.json` and `{nodes,credentials}/**\/*.{js,ts,json}`;
 * the published tarball: `**\/*.js` and `package.json`. Like the scanner's
 * fast-glob, no dot files or folders, nothing under node_modules, no package-lock.json.
 */
export const SCANNED_FILES = {
	source: (path) =>
		path === 'package.json' ||
		(/^(?:nodes|credentials)\//.test(path) && /\.(?:js|ts|json)$/.test(path)),
	tarball: (path) => path === 'package.json' || path.endsWith('.js'),
};

/** Lints the given files of `dir` as the scanner does; returns the formatted report of files with errors, or ''. */
export async function lintAsScanner(dir, files) {
	const eslint = new ESLint({
		cwd: dir,
		allowInlineConfig: false,
		overrideConfigFile: true,
		overrideConfig: scannerConfig(),
	});
	const results = await eslint.lintFiles(files);
	const failing = results.filter((result) => result.errorCount > 0);
	if (failing.length === 0) return '';
	const formatter = await eslint.loadFormatter('stylish');
	return formatter.format(failing);
}
