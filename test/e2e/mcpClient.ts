/**
 * A minimal MCP client over Streamable HTTP, as n8n's MCP Server Trigger
 * serves it: JSON-RPC requests POSTed to one URL, the session in the
 * `mcp-session-id` header, each answer sent as JSON or as a server-sent
 * event stream holding the JSON-RPC response.
 */

const PROTOCOL_VERSION = '2025-06-18';

export interface McpTool {
	name: string;
	description: string;
	inputSchema: {
		type: string;
		properties?: Record<string, { type?: string; description?: string }>;
		required?: string[];
	};
}

export interface McpToolResult {
	isError?: boolean;
	content: Array<{ type: string; text: string }>;
}

interface JsonRpcResponse {
	jsonrpc: '2.0';
	id: number;
	result?: unknown;
	error?: { code: number; message: string };
}

export class McpClient {
	private sessionId = '';
	private nextId = 1;

	constructor(private readonly url: string) {}

	/** The handshake: initialize, then the initialized notification. Returns the server's answer to initialize. */
	async initialize(): Promise<{
		protocolVersion: string;
		serverInfo: { name: string };
		capabilities: Record<string, unknown>;
	}> {
		const result = await this.request('initialize', {
			protocolVersion: PROTOCOL_VERSION,
			capabilities: {},
			clientInfo: { name: 'appbuilder-e2e', version: '1.0.0' },
		});
		await this.notify('notifications/initialized');
		return result as {
			protocolVersion: string;
			serverInfo: { name: string };
			capabilities: Record<string, unknown>;
		};
	}

	async listTools(): Promise<McpTool[]> {
		return ((await this.request('tools/list', {})) as { tools: McpTool[] }).tools;
	}

	async callTool(name: string, args: Record<string, unknown>): Promise<McpToolResult> {
		return (await this.request('tools/call', { name, arguments: args })) as McpToolResult;
	}

	async close(): Promise<void> {
		if (!this.sessionId) return;
		await fetch(this.url, { method: 'DELETE', headers: this.headers() });
		this.sessionId = '';
	}

	private headers(): Record<string, string> {
		return {
			'Content-Type': 'application/json',
			Accept: 'application/json, text/event-stream',
			...(this.sessionId
				? { 'mcp-session-id': this.sessionId, 'mcp-protocol-version': PROTOCOL_VERSION }
				: {}),
		};
	}

	private async notify(method: string): Promise<void> {
		const response = await fetch(this.url, {
			method: 'POST',
			headers: this.headers(),
			body: JSON.stringify({ jsonrpc: '2.0', method }),
		});
		await response.text();
		if (!response.ok) throw new Error(`${method}: HTTP ${response.status}`);
	}

	private async request(method: string, params: unknown): Promise<unknown> {
		const id = this.nextId++;
		const response = await fetch(this.url, {
			method: 'POST',
			headers: this.headers(),
			body: JSON.stringify({ jsonrpc: '2.0', id, method, params }),
		});
		const text = await response.text();
		if (!response.ok) throw new Error(`${method}: HTTP ${response.status} ${text.slice(0, 500)}`);
		this.sessionId = response.headers.get('mcp-session-id') ?? this.sessionId;
		const answer = responseWithId(text, response.headers.get('content-type') ?? '', id);
		if (answer.error)
			throw new Error(`${method}: JSON-RPC error ${answer.error.code} ${answer.error.message}`);
		return answer.result;
	}
}

/** The JSON-RPC response with this id, from a JSON body or from the `data:` lines of an event stream. */
function responseWithId(body: string, contentType: string, id: number): JsonRpcResponse {
	const messages: unknown[] = contentType.includes('text/event-stream')
		? body
				.split('\n')
				.filter((line) => line.startsWith('data:'))
				.map((line) => JSON.parse(line.slice('data:'.length).trim()) as unknown)
		: [JSON.parse(body) as unknown];
	const answer = messages.flat().find((message) => (message as JsonRpcResponse).id === id);
	if (!answer) throw new Error(`no JSON-RPC response with id ${id} in: ${body.slice(0, 500)}`);
	return answer as JsonRpcResponse;
}
