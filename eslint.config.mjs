// Lints the shipped sources with the rule sets of `n8n-node lint` for a package
// that supports n8n Cloud (@n8n/node-cli 0.48.3's `config`, mirrored below
// because that CLI's config lints every .ts file, tests included):
// @eslint/js and typescript-eslint recommended, import-x recommended,
// @n8n/eslint-plugin-community-nodes recommended (the Cloud set) and the nodes,
// credentials and community rule sets of eslint-plugin-n8n-nodes-base.
// Everything else (tests, emulator, bench, scripts, configs) gets @eslint/js
// recommended, and typescript-eslint's type-checked rules where it is TypeScript.
import { defineConfig } from 'eslint/config';
import { n8nCommunityNodesPlugin } from '@n8n/eslint-plugin-community-nodes';
import n8nNodesBase from 'eslint-plugin-n8n-nodes-base';
import tsParser from '@typescript-eslint/parser';
import regexpPlugin from 'eslint-plugin-regexp';
import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';
import importX from 'eslint-plugin-import-x';

// What n8n's package rules look at: the shipped sources and the JSON files.
const productAndJson = ['nodes/**/*.ts', 'credentials/**/*.ts', '**/*.json'];
const product = ['nodes/**', 'credentials/**'];
const productTs = ['nodes/**/*.ts', 'credentials/**/*.ts'];
// Unused names are errors, except `_`-prefixed ones and those a rest pattern leaves out on purpose.
const unusedVars = { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrorsIgnorePattern: '^_', ignoreRestSiblings: true };

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
	{ ignores: ['dist/**', 'node_modules/**', '.cache/**', 'docs/**', 'coverage/**'] },
	{ ...n8nCommunityNodesPlugin.configs.recommended, files: productAndJson },
	{ files: productAndJson, rules: { 'no-console': 'error' } },
	// The rest of n8n-node's Cloud config for TypeScript, on the product only.
	{
		files: productTs,
		extends: [js.configs.recommended, tseslint.configs.recommended, importX.flatConfigs.recommended, importX.flatConfigs.typescript],
		// The TypeScript resolver by name: eslint-plugin-import-x 4.6 and eslint-import-resolver-typescript 3.6 are
		// the last releases that need no per-platform native binding, which the registry here does not serve.
		settings: { 'import-x/resolver': { typescript: true } },
		rules: { 'prefer-spread': 'off' },
	},
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

	// Tests, harness, bench and e2e drivers in TypeScript: type-checked through tsconfig.json.
	{
		files: ['**/*.ts'],
		ignores: product,
		extends: [js.configs.recommended, tseslint.configs.recommendedTypeChecked],
		languageOptions: {
			parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
		},
		rules: {
			'@typescript-eslint/no-unused-vars': ['error', unusedVars],
			// Responses from the emulator and n8n's REST API are parsed JSON (any); the assertions check their shape.
			'@typescript-eslint/no-unsafe-argument': 'off',
			'@typescript-eslint/no-unsafe-assignment': 'off',
			'@typescript-eslint/no-unsafe-call': 'off',
			'@typescript-eslint/no-unsafe-member-access': 'off',
			'@typescript-eslint/no-unsafe-return': 'off',
			// The same parsed JSON is declared any where a test reads it field by field.
			'@typescript-eslint/no-explicit-any': 'off',
			// Test doubles implement n8n's async interfaces and feed async streams without awaiting anything.
			'@typescript-eslint/require-await': 'off',
			// Tests stringify unknown JSON values that are strings at run time; any other value fails the assertion.
			'@typescript-eslint/no-base-to-string': 'off',
			// The bench require()s the CommonJS e2e helpers and a .ts path on purpose (see the comments there).
			'@typescript-eslint/no-require-imports': 'off',
		},
	},
	// The emulator, e2e drivers, jest and gulp configs: CommonJS on Node.
	{
		files: ['**/*.js', '**/*.cjs'],
		extends: [js.configs.recommended],
		languageOptions: { sourceType: 'commonjs', globals: globals.node },
		rules: { 'no-unused-vars': ['error', unusedVars] },
	},
	{
		files: ['**/*.mjs'],
		extends: [js.configs.recommended],
		languageOptions: { sourceType: 'module', globals: globals.node },
		rules: { 'no-unused-vars': ['error', unusedVars] },
	},
);
