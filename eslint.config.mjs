// Lints the shipped sources with the same rule sets n8n uses to verify community
// packages: @n8n/eslint-plugin-community-nodes (recommended) plus the nodes,
// credentials and community rule sets of eslint-plugin-n8n-nodes-base.
import { defineConfig } from 'eslint/config';
import { n8nCommunityNodesPlugin } from '@n8n/eslint-plugin-community-nodes';
import n8nNodesBase from 'eslint-plugin-n8n-nodes-base';
import tsParser from '@typescript-eslint/parser';
import regexpPlugin from 'eslint-plugin-regexp';

export default defineConfig(
	{ ignores: ['dist/**', 'node_modules/**', 'test/**', '.cache/**', 'docs/**', 'coverage/**', '*.js', '*.mjs'] },
	n8nCommunityNodesPlugin.configs.recommended,
	{ rules: { 'no-console': 'error' } },
	// Every regular expression in the product must be linear on any input: server text reaches them.
	{
		files: ['nodes/**/*.ts', 'credentials/**/*.ts'],
		languageOptions: { parser: tsParser },
		plugins: { regexp: regexpPlugin },
		rules: {
			...regexpPlugin.configs['flat/recommended'].rules,
			'regexp/no-super-linear-backtracking': 'error',
			'regexp/no-super-linear-move': 'error',
		},
	},
	{ plugins: { 'n8n-nodes-base': n8nNodesBase } },
	{
		files: ['package.json'],
		languageOptions: { parser: tsParser },
		rules: { ...n8nNodesBase.configs.community.rules },
	},
	{
		files: ['credentials/**/*.ts'],
		languageOptions: { parser: tsParser },
		rules: {
			...n8nNodesBase.configs.credentials.rules,
			'n8n-nodes-base/cred-class-field-documentation-url-miscased': 'off',
			'n8n-nodes-base/cred-class-field-type-options-password-missing': 'off',
		},
	},
	{
		files: ['nodes/**/*.ts'],
		languageOptions: { parser: tsParser },
		rules: {
			...n8nNodesBase.configs.nodes.rules,
			'n8n-nodes-base/node-class-description-inputs-wrong-regular-node': 'off',
			'n8n-nodes-base/node-class-description-outputs-wrong': 'off',
			'n8n-nodes-base/node-param-type-options-max-value-present': 'off',
		},
	},
	{ files: ['**/*.json'], languageOptions: { parser: tsParser } },
);
