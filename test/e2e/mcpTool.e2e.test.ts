/* eslint-disable no-console -- it prints its progress and figures */
import { Client } from '@modelcontextprotocol/sdk/client/index';
import {
	StreamableHTTPClientTransport,
	StreamableHTTPError,
} from '@modelcontextprotocol/sdk/client/streamableHttp';
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';

import { FIXTURE } from '../emulator';
import { demoLeadFields } from '../emulator/fixtures';
import { useRealN8n } from './useRealN8n';
import { N8N_VERSIONS } from './n8nVersions';
import { mcpAcrossFormsWorkflow, mcpToolWorkflow } from './workflows';
import { sleep } from '../support/sleep';

const MCP_PATH = 'appbuilder-tools';
const INQUIRIES = 25;
const PASSWORD = 'Agent-pa55word';
const SECRETS = [FIXTURE.apiKey, FIXTURE.accessToken, PASSWORD];

/** The text of a tool result: n8n answers with one text part. */
function textOf(result: CallToolResult): string {
	expect(result.content).toEqual([{ type: 'text', text: expect.any(String) }]);
	const [part] = result.content;
	if (part.type !== 'text') throw new Error(`not a text part: ${JSON.stringify(part)}`);
	return part.text;
}

/** A user call that succeeded: the node's answer for that email, as the tool's text. */
function expectUserAnswer(result: CallToolResult, email: string): string {
	expect(result.isError).toBeUndefined();
	const text = textOf(result);
	expect(JSON.parse(text)).toEqual([expect.objectContaining({ successCode: '200', email })]);
	return text;
}

/** A JSON Schema property of a tool's input, as n8n describes each $fromAI field. */
function propertyOf(t: Tool, name: string): { type?: string; description?: string } | undefined {
	return t.inputSchema.properties?.[name];
}

/**
 * An MCP session with the trigger at `url`. n8n registers the production webhook a moment after
 * activation; a failed connect closes its client and transport, so each attempt makes new ones.
 */
async function connect(
	url: URL,
): Promise<{ client: Client; transport: StreamableHTTPClientTransport }> {
	for (let attempt = 0; ; attempt++) {
		const client = new Client({ name: 'appbuilder-e2e', version: '1.0.0' });
		const transport = new StreamableHTTPClientTransport(url);
		try {
			// initialize, then the initialized notification
			await client.connect(transport);
			return { client, transport };
		} catch (error) {
			const notYet = error instanceof StreamableHTTPError && error.code === 404;
			// eslint-disable-next-line @n8n/community-nodes/require-node-api-error -- not a node: the test fails with the client's error
			if (attempt >= 30 || !notYet) throw error;
			await sleep(1000);
		}
	}
}

function expectNoSecret(text: string): void {
	for (const secret of SECRETS) expect(text).not.toContain(secret);
}

/**
 * The App Builder node as an AI agent's tool in a real n8n: an MCP Server
 * Trigger offers it as three tools (one per operation), and this test is the
 * MCP client: the official MCP TypeScript SDK's Client over the Streamable HTTP
 * endpoint n8n serves, with the emulator behind the node.
 */
describe(`App Builder as MCP tools in a real n8n ${N8N_VERSIONS.newest}`, () => {
	let mcpUrl: URL;
	let transport: StreamableHTTPClientTransport | undefined;
	let mcp: Client;
	let tools: Tool[];

	const tool = (name: string): Tool => {
		const found = tools.find((candidate) => candidate.name === name);
		if (!found)
			throw new Error(`n8n offers no tool ${name}: ${tools.map((t) => t.name).join(', ')}`);
		return found;
	};

	const callTool = async (name: string, args: Record<string, unknown>): Promise<CallToolResult> =>
		(await mcp.callTool({ name, arguments: args })) as CallToolResult;

	const real = useRealN8n({
		// No setting is needed: n8n 2.x offers a community node that declares usableAsTool as a tool as it is.
		credential: { name: 'App Builder (emulator)' },
		async setUp({ emu, n8n, credential }) {
			const start = Date.parse('2026-02-01T09:00:00Z');
			for (let i = 0; i < INQUIRIES; i++) {
				emu.control.addInquiry({
					appId: FIXTURE.appId,
					pageId: FIXTURE.formPageId,
					fields: demoLeadFields(i),
					addedon: start + i * 3_600_000,
				});
			}
			const workflowId = await n8n.createWorkflow(
				mcpToolWorkflow(credential, { appId: FIXTURE.appId }, MCP_PATH),
			);
			await n8n.activate(workflowId);
			mcpUrl = new URL(`${n8n.url}/mcp/${MCP_PATH}`);
		},
		// Ends the session on n8n (DELETE), as an MCP client leaving should.
		async teardown() {
			await transport?.terminateSession().catch(() => undefined);
			await mcp?.close().catch(() => undefined);
		},
	});

	it('initialize: n8n answers as an MCP server that offers tools', async () => {
		({ client: mcp, transport } = await connect(mcpUrl));
		expect(mcp.getServerCapabilities()).toHaveProperty('tools');
		expect(mcp.getServerVersion()?.name).toBe('MCP_Server_Trigger');
	});

	it('tools/list: each operation is a tool whose description says what it does, with the $fromAI fields as its input', async () => {
		tools = (await mcp.listTools()).tools;
		console.log(`tools/list as n8n served it:\n${JSON.stringify(tools, null, 2)}`);
		expect(tools.map((t) => t.name).sort()).toEqual([
			'Add_app_user',
			'Get_form_inquiries',
			'Update_app_user',
		]);

		expect(tool('Add_app_user').description).toBe('Add an app user in App Builder');
		expect(tool('Update_app_user').description).toBe('Update an app user in App Builder');
		expect(tool('Get_form_inquiries').description).toBe(
			'Get many leads of one form or every form in App Builder',
		);

		const fields = (t: Tool) => Object.keys(t.inputSchema.properties ?? {}).sort();
		expect(fields(tool('Add_app_user'))).toEqual(['email', 'name', 'password', 'phone']);
		expect(fields(tool('Update_app_user'))).toEqual([
			'email',
			'group',
			'name',
			'password',
			'phone',
		]);
		expect(fields(tool('Get_form_inquiries'))).toEqual(['formId']);
		for (const t of tools) expect([...(t.inputSchema.required ?? [])].sort()).toEqual(fields(t));
		expect(propertyOf(tool('Get_form_inquiries'), 'formId')).toEqual({
			type: 'string',
			description: expect.stringContaining('formbuilder_<digits>_<digits>'),
		});
		expect(propertyOf(tool('Add_app_user'), 'phone')?.description).toMatch(/digits/);
	});

	it('tools/call Add app user: the user exists in the App Builder API afterwards', async () => {
		const { emu } = real();
		const result = await callTool('Add_app_user', {
			email: 'ana.lima@example.com',
			name: 'Ana Lima',
			password: PASSWORD,
			phone: '4155550177',
		});
		const text = expectUserAnswer(result, 'ana.lima@example.com');
		expect(emu.control.users()).toEqual([
			expect.objectContaining({
				email: 'ana.lima@example.com',
				name: 'Ana Lima',
				phone: '4155550177',
				passwordType: 'MD5',
			}),
		]);
		expectNoSecret(text);
		// "Hash With MD5 in n8n": the model's password reaches the API only as its hash.
		expect(JSON.stringify(emu.control.requests())).not.toContain(PASSWORD);
	});

	it('tools/call Update app user: the API holds the changed name, phone and group', async () => {
		const { emu } = real();
		const result = await callTool('Update_app_user', {
			email: 'ana.lima@example.com',
			name: 'Ana Lima Souza',
			password: PASSWORD,
			phone: '415 555 0188',
			group: 'Customers',
		});
		expectUserAnswer(result, 'ana.lima@example.com');
		expect(emu.control.users()).toEqual([
			expect.objectContaining({
				email: 'ana.lima@example.com',
				name: 'Ana Lima Souza',
				phone: '4155550188',
				group: 'Customers',
			}),
		]);
	});

	it('tools/call Get form inquiries: the 20 newest inquiries, flattened, in a compact answer', async () => {
		const { emu } = real();
		emu.control.clearRequests();
		const result = await callTool('Get_form_inquiries', { formId: FIXTURE.formPageId });
		expect(result.isError).toBeUndefined();
		const text = textOf(result);
		const inquiries = JSON.parse(text) as Array<Record<string, unknown>>;

		const asked = emu.control
			.requests()
			.filter((r) => r.path === '/V4/webservices/FormBuilderApi.php');
		expect(asked).toEqual([
			expect.objectContaining({
				status: 200,
				body: expect.objectContaining({ pageId: FIXTURE.formPageId }),
			}),
		]);
		const stored = emu.control.listInquiries(FIXTURE.appId, FIXTURE.formPageId) as Array<{
			_id: string;
			addedon: number;
		}>;
		const newest20 = [...stored]
			.sort((a, b) => b.addedon - a.addedon)
			.slice(0, 20)
			.map((r) => r._id);
		expect(inquiries.map((inquiry) => inquiry.inquiryId)).toEqual(newest20);
		for (const inquiry of inquiries) {
			expect(inquiry).toMatchObject({
				formName: 'Contact Us',
				submittedAt: expect.any(String),
				name: expect.any(String),
				email: expect.any(String),
			});
			expect(inquiry).not.toHaveProperty('formData');
			expect(inquiry).not.toHaveProperty('formbuilderData');
		}
		expectNoSecret(text);

		const bytes = Buffer.byteLength(text, 'utf8');
		console.log(
			`Get form inquiries answer: ${inquiries.length} inquiries, ${bytes} bytes, ~${Math.round(bytes / 4)} tokens (4 bytes a token), ~${Math.round(bytes / inquiries.length)} bytes an inquiry`,
		);
		expect(bytes).toBeLessThan(20_000);
	});

	it('tools/call with an email the API refuses: an error result that says what to fix, with no secret', async () => {
		const result = await callTool('Add_app_user', {
			email: 'ana.lima-at-example.com',
			name: 'Ana',
			password: PASSWORD,
			phone: '4155550199',
		});
		const text = textOf(result);
		console.log(`error result (bad email): ${text}`);
		expect(result.isError).toBe(true);
		expect(text).toMatch(/email is not valid/);
		expect(text).toMatch(/Set the Email field to a valid address such as jane@example\.com/);
		expectNoSecret(text);
	});

	it("tools/call with a form name instead of its ID: an error result naming the ID's shape, with no secret", async () => {
		const { emu } = real();
		emu.control.clearRequests();
		const result = await callTool('Get_form_inquiries', { formId: 'Contact Us' });
		const text = textOf(result);
		console.log(`error result (bad form ID): ${text}`);
		expect(result.isError).toBe(true);
		expect(text).toMatch(/"Contact Us" is not a form page ID/);
		expect(text).toMatch(/formbuilder_<digits>_<digits>, such as formbuilder_1234_5678/);
		expectNoSecret(text);
		expect(emu.control.requests()).toEqual([]);
	});

	it('tools/call across every form: "which leads came in since ...?" answered from all forms, newest first', async () => {
		const { emu, n8n, credential } = real();
		const start = Date.parse('2026-02-01T09:00:00Z');
		const hour = 3_600_000;
		for (const [index, offset] of [20.5, 21.5, 22.5].entries()) {
			emu.control.addInquiry({
				appId: FIXTURE.appId,
				pageId: FIXTURE.secondFormPageId,
				fields: demoLeadFields(100 + index),
				addedon: start + offset * hour,
			});
		}
		const path = `${MCP_PATH}-all-forms`;
		await n8n.activate(
			await n8n.createWorkflow(mcpAcrossFormsWorkflow(credential, { appId: FIXTURE.appId }, path)),
		);
		const session = await connect(new URL(`${n8n.url}/mcp/${path}`));
		try {
			const [listed] = (await session.client.listTools()).tools;
			expect(listed.name).toBe('Leads_of_every_form');
			expect(Object.keys(listed.inputSchema.properties ?? {})).toEqual(['since']);

			const since = new Date(start + 20 * hour).toISOString();
			const result = (await session.client.callTool({
				name: 'Leads_of_every_form',
				arguments: { since },
			})) as CallToolResult;
			expect(result.isError).toBeUndefined();
			const text = textOf(result);
			const leads = JSON.parse(text) as Array<Record<string, unknown>>;
			// After hour 20: Contact Us has a lead every hour (the last at hour 24), Quote Request three at the half hours.
			expect(leads.map((lead) => [lead.formName, lead.submittedAt])).toEqual(
				[
					['Contact Us', 24],
					['Contact Us', 23],
					['Quote Request', 22.5],
					['Contact Us', 22],
					['Quote Request', 21.5],
					['Contact Us', 21],
					['Quote Request', 20.5],
				].map(([form, offset]) => [
					form,
					new Date(start + (offset as number) * hour).toISOString(),
				]),
			);
			expect(new Set(leads.map((lead) => lead.pageId))).toEqual(
				new Set([FIXTURE.formPageId, FIXTURE.secondFormPageId]),
			);
			expectNoSecret(text);
		} finally {
			await session.transport.terminateSession().catch(() => undefined);
			await session.client.close().catch(() => undefined);
		}
	});
});
