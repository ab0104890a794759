/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- n8n Cloud's limits are for nodes; this test reads the package's source tree (the file system, __dirname) */
import { existsSync, statSync } from 'node:fs';
import { resolve } from 'node:path';

import { CYCLE_PARTS } from './cycleProfile';
import { POLL_PARTS } from './manyPolls';

const nodes = resolve(__dirname, '../../nodes');

/** Whether a part's path names the package's code: a folder (ending in "/") or a file without its extension. */
const names = (path: string) =>
	path.endsWith('/')
		? existsSync(resolve(nodes, path)) && statSync(resolve(nodes, path)).isDirectory()
		: existsSync(resolve(nodes, `${path}.ts`));

describe("the profiles' parts of the package's own code", () => {
	it('name only files and folders the package has, so a file moved elsewhere is not charged to the wrong part', () => {
		const paths = [...POLL_PARTS, ...CYCLE_PARTS].flatMap((part) =>
			(part.packagePaths ?? []).map((path) => ({ part: part.name, path })),
		);
		expect(paths.length).toBeGreaterThan(30);
		expect(paths.filter(({ path }) => !names(path))).toEqual([]);
	});

	it("charge the inquiries' readers and their event to the parts they served wherever they live", () => {
		const partOf = (parts: typeof POLL_PARTS, url: string) =>
			parts.find((part) => part.matches(url, 'f'))?.name;
		const inProcess = (path: string) => `file:///repo/nodes/${path}.ts`;
		const inN8n = (path: string) =>
			`file:///home/n8n/.n8n/nodes/node_modules/n8n-nodes-appbuilder/dist/nodes/${path}.js`;
		expect(partOf(POLL_PARTS, inProcess('AppBuilder/trigger/events/inquiryList'))).toBe(
			'keeping the records the cursor may emit',
		);
		expect(partOf(POLL_PARTS, inProcess('AppBuilder/trigger/events/inquiryEvent'))).toBe(
			'the cursor: what is new, the state to save',
		);
		expect(partOf(CYCLE_PARTS, inN8n('AppBuilder/trigger/events/latestListings'))).toMatch(
			/^ours: reading the answer/,
		);
		expect(partOf(CYCLE_PARTS, inN8n('AppBuilder/trigger/events/inquiryEvent'))).toBe(
			"ours: the cursor and the poll's plan",
		);
	});
});
