// Lints the shipped sources with the same rule sets n8n uses to verify community
// packages: @n8n/eslint-plugin-community-nodes (recommended) plus the nodes,
// credentials and community rule sets of eslint-plugin-n8n-nodes-base.
import { defineConfig } from 'eslint/config';
import { n8nCommunityNodesPlugin } from '@n8n/eslint-plugin-community-nodes';
import n8nNodesBase from 'eslint-plugin-n8n-nodes-base';
import tsParser from '@typescript-eslint/parser';
import regexpPlugin from 'eslint-plugin-regexp';

// Dependencies only point down: node files -> actions, trigger -> inquiries, methods -> descriptions ->
// parameters, transport -> nodes/shared (see ARCHITECTURE.md, "Layers"). Each folder lists the folders it
// must not import from; an import string is matched by path segment, so '../inquiries/cursor' is caught.
const NODE_FILE = 'AppBuilder(Trigger)?\\.node';
const LAYERS = {
	'nodes/AppBuilder/actions': ['trigger', 'credentials', NODE_FILE],
	'nodes/AppBuilder/trigger': ['actions', 'credentials', NODE_FILE],
	'nodes/AppBuilder/inquiries': ['actions', 'trigger', 'methods', 'descriptions', 'credentials', NODE_FILE],
	'nodes/AppBuilder/methods': ['actions', 'trigger', 'inquiries', 'credentials', NODE_FILE],
	'nodes/AppBuilder/descriptions': ['actions', 'trigger', 'inquiries', 'methods', 'transport', 'credentials', NODE_FILE],
	'nodes/AppBuilder/parameters': ['actions', 'trigger', 'inquiries', 'methods', 'descriptions', 'transport', 'credentials', NODE_FILE],
	'nodes/AppBuilder/transport': ['actions', 'trigger', 'inquiries', 'methods', 'descriptions', 'parameters', 'credentials', NODE_FILE],
	'nodes/shared': ['AppBuilder', 'credentials'],
};
const layerRules = Object.entries(LAYERS).map(([folder, forbidden]) => ({
	files: [`${folder}/**/*.ts`],
	rules: {
		'no-restricted-imports': [
			'error',
			{
				patterns: [
					{
						regex: `(^|/)(${forbidden.join('|')})(/|$)`,
						caseSensitive: true,
						message: `${folder} may not import from ${forbidden.join(', ').replace(NODE_FILE, 'a node file')}: dependencies only point down.`,
					},
				],
			},
		],
	},
}));
// The credential reaches only what it shares with the nodes, never into a node's folders.
const credentialLayer = {
	files: ['credentials/**/*.ts'],
	rules: {
		'no-restricted-imports': [
			'error',
			{ patterns: [{ regex: '^\\.\\./(?!nodes/shared/)', message: 'The credential imports only from nodes/shared/.' }] },
		],
	},
};

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
	...layerRules,
	credentialLayer,
);
