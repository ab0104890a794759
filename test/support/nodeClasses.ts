// The node classes, loaded by their TypeScript sources: without the extension,
// Node's resolver (tsx, child processes) finds the codex files (*.node.json) first.
export const { AppBuilder } =
	// eslint-disable-next-line @typescript-eslint/no-require-imports -- an import cannot name the .ts extension
	require('../../nodes/AppBuilder/AppBuilder.node.ts') as typeof import('../../nodes/AppBuilder/AppBuilder.node');
export const { AppBuilderTrigger } =
	// eslint-disable-next-line @typescript-eslint/no-require-imports -- an import cannot name the .ts extension
	require('../../nodes/AppBuilder/AppBuilderTrigger.node.ts') as typeof import('../../nodes/AppBuilder/AppBuilderTrigger.node');
