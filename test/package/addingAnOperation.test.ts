/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- n8n Cloud's limits are for nodes; this runs on Node itself (built-in modules, __dirname) */
import { cpSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import type { INodeProperties, INodeType } from 'n8n-workflow';
import ts from 'typescript';

import { MemoryCredentialsHelper, runNode } from '../harness';
import { startRecordingServer } from '../support/recordingServer';
import { AppBuilderApi } from '../../credentials/AppBuilderApi.credentials';

/**
 * ARCHITECTURE.md, "Adding an operation", followed on a copy of the code: a fake User > Remove
 * calling an endpoint the package does not call yet, written in the places that section names and
 * nowhere else. The copy must type-check, list the operation and send its request through n8n's
 * engine; each file written must be one the section names.
 */
const root = resolve(__dirname, '../..');
let copy: string;

/** The places edited, each as ARCHITECTURE.md names it, and what is done there. */
const PLACES: Array<{ named: string; path: string; edit: (text: string) => string }> = [
	{
		named: 'actions/<resource>/<name>.operation.ts',
		path: 'nodes/AppBuilder/actions/user/remove.operation.ts',
		edit: () => `import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { fieldOf } from '../../parameters/readParameter';
import { userRequestSender, type UserRequest } from './sendUserRequest';
import * as user from './userFields';

const reasonField: INodeProperties = { ...user.groupField, displayName: 'Reason', name: 'reason' };

export const description = updateDisplayOptions(
	{ show: { resource: ['user'], operation: ['remove'] } },
	[user.emailField, reasonField],
);

const EMAIL = fieldOf(user.emailField);
const REASON = fieldOf(reasonField);

export function prepare(this: IExecuteFunctions, itemIndex: number): UserRequest {
	const email = user.requireText(this, EMAIL, itemIndex);
	return { email, params: { email, reason: user.readText(this, REASON, itemIndex) } };
}

export const send = userRequestSender('removeUser');
`,
	},
	{
		named: '<Resource>.resource.ts',
		path: 'nodes/AppBuilder/actions/user/User.resource.ts',
		edit: (text) =>
			text
				.replace(
					"import * as add from './add.operation';",
					"$&\nimport * as remove from './remove.operation';",
				)
				.replace(
					'	operations: [',
					"$&\n\t\t{ name: 'Remove', value: 'remove', description: 'Remove an app user', action: 'Remove an app user', module: remove },",
				),
	},
	{
		named: 'WEB_SERVICE_ENDPOINTS',
		path: 'nodes/shared/appBuilderApi.ts',
		edit: (text) =>
			text.replace(
				'export const WEB_SERVICE_ENDPOINTS = {',
				"$&\n\tremoveUser: { path: '/V4/webservices/removeUser.php', method: 'removeUser', sendsApiKey: true },",
			),
	},
];

beforeAll(() => {
	copy = mkdtempSync(join(tmpdir(), 'adding-an-operation-'));
	for (const folder of ['nodes', 'credentials'])
		cpSync(join(root, folder), join(copy, folder), { recursive: true });
	symlinkSync(join(root, 'node_modules'), join(copy, 'node_modules'), 'dir');
	for (const place of PLACES) {
		const file = join(copy, place.path);
		let text = '';
		try {
			text = readFileSync(file, 'utf8');
		} catch {
			// A new file.
		}
		const edited = place.edit(text);
		expect(edited).not.toBe(text);
		writeFileSync(file, edited);
	}
});
afterAll(() => rmSync(copy, { recursive: true, force: true }));

describe('ARCHITECTURE.md, "Adding an operation"', () => {
	it('names every place the new operation was written in', () => {
		const architecture = readFileSync(join(root, 'ARCHITECTURE.md'), 'utf8');
		const section = architecture.slice(
			architecture.indexOf('## Adding an operation'),
			architecture.indexOf('\n## ', architecture.indexOf('## Adding an operation') + 1),
		);
		expect(PLACES.filter((place) => !section.includes(place.named))).toEqual([]);
	});

	it('needs no other place for the code to type-check', () => {
		const { config } = ts.readConfigFile(join(root, 'tsconfig.json'), (path) =>
			ts.sys.readFile(path),
		);
		const { options } = ts.parseJsonConfigFileContent(config, ts.sys, root);
		const files = ts.sys.readDirectory(
			copy,
			['.ts'],
			['node_modules'],
			['nodes/**/*', 'credentials/**/*'],
		);
		const program = ts.createProgram(files, {
			...options,
			rootDir: copy,
			types: ['node'],
			noEmit: true,
		});
		const problems = ts
			.getPreEmitDiagnostics(program)
			.map(
				(problem) =>
					`${problem.file ? relative(copy, problem.file.fileName) : ''}: ${ts.flattenDiagnosticMessageText(problem.messageText, ' ')}`,
			);
		expect(problems).toEqual([]);
	}, 120_000);

	it("lists the operation and sends its request, through n8n's engine", async () => {
		// eslint-disable-next-line @typescript-eslint/no-require-imports -- the copy's node, by its path
		const { AppBuilder } = require(join(copy, 'nodes/AppBuilder/AppBuilder.node.ts')) as {
			AppBuilder: new () => INodeType;
		};
		const node = new AppBuilder();
		const operations = node.description.properties.find(
			(property: INodeProperties) =>
				property.name === 'operation' && property.displayOptions?.show?.resource?.includes('user'),
		);
		expect(operations?.options?.map((option) => ('value' in option ? option.value : ''))).toContain(
			'remove',
		);

		const server = await startRecordingServer(() => ({
			status: 200,
			body: { status: 'success', msg: 'Removed' },
		}));
		try {
			const run = await runNode({
				nodeType: node,
				typeName: 'n8n-nodes-appbuilder.appBuilder',
				parameters: {
					resource: 'user',
					operation: 'remove',
					email: 'jane@example.com',
					reason: 'moved away',
				},
				credentials: { appBuilderApi: { id: '1', name: 'App Builder' } },
				credentialsHelper: new MemoryCredentialsHelper({
					types: { appBuilderApi: new AppBuilderApi() },
					credentials: {
						appBuilderApi: { baseUrl: server.url, accessToken: 'token', apiKey: 'key' },
					},
				}),
			});
			expect(run.error).toBeUndefined();
			expect(run.items.map((item) => item.json)).toEqual([
				{ status: 'success', msg: 'Removed', email: 'jane@example.com' },
			]);
			expect(
				server.requests.map(({ url, body }) => [
					url,
					JSON.parse(body).method,
					JSON.parse(body).reason,
				]),
			).toEqual([['/V4/webservices/removeUser.php', 'removeUser', 'moved away']]);
		} finally {
			await server.close();
		}
	});
});
