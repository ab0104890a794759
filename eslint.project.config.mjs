// The project's own rules. `eslint.config.mjs` is n8n's default config exactly
// as `n8n-node lint` requires in strict mode, the condition for n8n Cloud
// eligibility; `npm run lint` runs `n8n-node lint` with it and then this file
// (`eslint -c eslint.project.config.mjs --max-warnings 0 .`). This file keeps:
// - every regular expression in the product linear on any input (eslint-plugin-regexp);
// - the one-way layer rules (ARCHITECTURE.md, "Layers") and the credential's one import path;
// - the package's tests apart from the bench: nothing under test/ imports from bench/;
// - no eslint-disable comment in the product: it answers to every rule as n8n's scanner does;
// - every parameter read from its declaration, not by a name written again (ARCHITECTURE.md, "Conventions");
// - n8n's package rules on every JSON file (the codex files too, which n8n's scanner lints), but
//   the bench's package.json, a private workspace;
// - typescript-eslint's type-checked rules on the tests, harness, bench and e2e drivers;
// - the JavaScript of the emulator, e2e drivers, scripts and configs.
// It also applies n8n's Cloud set and node rules as n8n's config does, so that
// a disable comment a test needs for one of them is used in both runs. It leaves
// out import-x, which n8n's config applies: the package's import-x comes with
// @n8n/node-cli, and the first run checks it.
import { defineConfig } from 'eslint/config';
import { n8nCommunityNodesPlugin } from '@n8n/eslint-plugin-community-nodes';
import n8nNodesBase from 'eslint-plugin-n8n-nodes-base';
import regexpPlugin from 'eslint-plugin-regexp';
import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const product = ['nodes/**', 'credentials/**'];
const productTs = ['nodes/**/*.ts', 'credentials/**/*.ts'];
// Unused names are errors, except `_`-prefixed ones and those a rest pattern leaves out on purpose.
const unusedVars = {
	argsIgnorePattern: '^_',
	varsIgnorePattern: '^_',
	caughtErrorsIgnorePattern: '^_',
	ignoreRestSiblings: true,
};

// Dependencies only point down: node files -> actions, trigger -> acrossForms (reading each form of an app) -> inquiries, methods -> descriptions ->
// parameters, transport -> nodes/shared (see ARCHITECTURE.md, "Layers"); inquiries/ is pure lead logic and
// reaches no I/O: the transport's calls take its readers, not the other way round. Each folder lists the folders it
// must not import from; an import string is matched by path segment, so '../inquiries/cursor' is caught.
const NODE_FILE = 'AppBuilder(Trigger)?\\.node';
// Inside trigger/ too: the poll at its top (every file directly in trigger/, so a rename cannot slip past), then
// reading/ (the calls), then plan/, saved/, forms/, quiet/, cursor/ and events/, which are pure (neither
// n8n-workflow nor the transport), so property tests drive them without n8n.
const TRIGGER = ['actions', 'credentials', NODE_FILE];
const PURE = ['n8n-workflow', 'transport', 'methods', 'descriptions', 'parameters', 'reading'];
const LAYERS = {
	'nodes/AppBuilder/actions': ['trigger', 'credentials', NODE_FILE],
	'nodes/AppBuilder/acrossForms': [
		'actions',
		'trigger',
		'methods',
		'descriptions',
		'parameters',
		'credentials',
		NODE_FILE,
	],
	'nodes/AppBuilder/trigger': TRIGGER,
	'nodes/AppBuilder/trigger/reading': [...TRIGGER, 'cursor', 'forms', 'plan', 'saved', 'quiet'],
	'nodes/AppBuilder/trigger/plan': [...TRIGGER, ...PURE],
	'nodes/AppBuilder/trigger/saved': [...TRIGGER, ...PURE, 'plan'],
	'nodes/AppBuilder/trigger/forms': [...TRIGGER, ...PURE, 'plan', 'saved'],
	'nodes/AppBuilder/trigger/quiet': [...TRIGGER, ...PURE, 'plan', 'saved', 'forms'],
	'nodes/AppBuilder/trigger/cursor': [...TRIGGER, ...PURE, 'plan', 'saved', 'forms', 'quiet'],
	'nodes/AppBuilder/trigger/events': [
		...TRIGGER,
		...PURE,
		'plan',
		'saved',
		'forms',
		'quiet',
		'cursor',
	],
	'nodes/AppBuilder/inquiries': [
		'acrossForms',
		'actions',
		'trigger',
		'methods',
		'descriptions',
		'transport',
		'credentials',
		NODE_FILE,
	],
	'nodes/AppBuilder/methods': [
		'acrossForms',
		'actions',
		'trigger',
		'inquiries',
		'credentials',
		NODE_FILE,
	],
	'nodes/AppBuilder/descriptions': [
		'acrossForms',
		'actions',
		'trigger',
		'inquiries',
		'methods',
		'transport',
		'credentials',
		NODE_FILE,
	],
	'nodes/AppBuilder/parameters': [
		'acrossForms',
		'actions',
		'trigger',
		'inquiries',
		'methods',
		'descriptions',
		'transport',
		'credentials',
		NODE_FILE,
	],
	'nodes/AppBuilder/transport': [
		'acrossForms',
		'actions',
		'trigger',
		'inquiries',
		'methods',
		'descriptions',
		'parameters',
		'credentials',
		NODE_FILE,
	],
	'nodes/shared': ['AppBuilder', 'credentials'],
};
/** The poll atop trigger/: from a folder inside trigger/, any import of a file directly in trigger/. */
const THE_POLL = '^\\.\\./[^/]+$';
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
					...(folder.startsWith('nodes/AppBuilder/trigger/')
						? [
								{
									regex: THE_POLL,
									message: `${folder} may not import the poll atop trigger/: dependencies only point down.`,
								},
							]
						: []),
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
			{
				patterns: [
					{
						regex: '^\\.\\./(?!nodes/shared/)',
						message: 'The credential imports only from nodes/shared/.',
					},
				],
			},
		],
	},
};

// A parameter is read from its declaration (parameters/readParameter.ts), so its path, default and values are
// written once. n8n's getNodeParameter by a written name stays only for the resource and operation switch
// (actions/router.ts), as n8n's own nodes route.
const parametersFromDeclarations = {
	files: productTs,
	rules: {
		'no-restricted-syntax': [
			'error',
			{
				selector:
					"CallExpression[callee.property.name='getNodeParameter'][arguments.0.type=/^(Literal|TemplateLiteral)$/]:not([arguments.0.value=/^(resource|operation)$/])",
				message:
					'Read a parameter from its declaration: readParameter or readChoice (parameters/readParameter.ts) with fieldOf or choiceFieldOf.',
			},
		],
	},
};

// The package's tests stand alone: the bench (bench/, a workspace of its own) imports what it shares with them from
// test/, and nothing under test/ imports from the bench, by import or by require.
const NOT_THE_BENCH =
	"Nothing under test/ imports from bench/: the bench uses the tests' code, not the other way round.";
const testsWithoutBench = {
	files: ['test/**/*.ts', 'test/**/*.js'],
	rules: {
		'no-restricted-imports': [
			'error',
			{ patterns: [{ regex: '(^|/)bench(/|$)', caseSensitive: true, message: NOT_THE_BENCH }] },
		],
		'no-restricted-syntax': [
			'error',
			{
				selector:
					"CallExpression[callee.name='require'][arguments.0.value=/(^|\\x2F)bench(\\x2F|$)/]",
				message: NOT_THE_BENCH,
			},
		],
	},
};

export default defineConfig(
	{ ignores: ['dist/**', 'node_modules/**', '.cache/**', 'docs/**', 'coverage/**'] },
	// n8n's Cloud set on every TypeScript file and on the JSON files, as n8n's config and scanner apply it.
	// Not on the bench's package.json: a private workspace, never published nor loaded by n8n.
	{
		...n8nCommunityNodesPlugin.configs.recommended,
		files: ['**/*.ts', '**/*.json'],
		ignores: ['bench/package.json'],
	},
	{ files: ['**/*.ts'], rules: { 'no-console': 'error' } },
	{
		files: ['**/*.json'],
		languageOptions: { parser: tseslint.parser, parserOptions: { extraFileExtensions: ['.json'] } },
	},
	{ plugins: { 'n8n-nodes-base': n8nNodesBase } },
	{ files: ['package.json'], rules: { ...n8nNodesBase.configs.community.rules } },
	{
		files: ['credentials/**/*.ts'],
		rules: {
			...n8nNodesBase.configs.credentials.rules,
			'n8n-nodes-base/cred-class-field-documentation-url-miscased': 'off',
			'n8n-nodes-base/cred-class-field-type-options-password-missing': 'off',
		},
	},
	{
		files: ['nodes/**/*.ts'],
		rules: {
			...n8nNodesBase.configs.nodes.rules,
			'n8n-nodes-base/node-class-description-inputs-wrong-regular-node': 'off',
			'n8n-nodes-base/node-class-description-outputs-wrong': 'off',
			'n8n-nodes-base/node-param-type-options-max-value-present': 'off',
		},
	},
	// The product: @eslint/js and typescript-eslint recommended, and no eslint-disable comment at all.
	{
		files: productTs,
		extends: [js.configs.recommended, tseslint.configs.recommended],
		linterOptions: { noInlineConfig: true },
		rules: { 'prefer-spread': 'off' },
	},
	// Every regular expression in the product must be linear on any input: server text reaches them.
	{
		files: productTs,
		plugins: { regexp: regexpPlugin },
		rules: {
			...regexpPlugin.configs['flat/recommended'].rules,
			'regexp/no-super-linear-backtracking': 'error',
			'regexp/no-super-linear-move': 'error',
		},
	},
	...layerRules,
	credentialLayer,
	parametersFromDeclarations,
	testsWithoutBench,

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
			// Test doubles implement n8n's async interfaces and feed async streams without awaiting anything.
			'@typescript-eslint/require-await': 'off',
			// Tests stringify unknown JSON values that are strings at run time; any other value fails the assertion.
			'@typescript-eslint/no-base-to-string': 'off',
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
