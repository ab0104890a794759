/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- n8n Cloud's limits are for nodes; this test serves on a socket of its own */
import { createServer, type AddressInfo, type Server, type Socket } from 'node:net';

import { N8nInstance } from '../../test/e2e/n8nInstance';
import { NoAnswerError } from './n8nForBench';

describe("the benchmark's calls to n8n", () => {
	let server: Server;
	const sockets: Socket[] = [];
	let port: number;
	beforeAll(async () => {
		// An n8n far behind: it takes the connection and the request, and never answers.
		server = createServer((socket) => {
			sockets.push(socket);
			socket.on('data', () => undefined);
		});
		await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
		port = (server.address() as AddressInfo).port;
	});
	afterAll(async () => {
		for (const socket of sockets) socket.destroy();
		await new Promise((resolve) => server.close(resolve));
	});

	const instance = (callTimeoutMs: number | undefined) => {
		const n8n = new N8nInstance('0.0.0', '/nonexistent', port, 'key', {} as never, {});
		// eslint-disable-next-line @n8n/community-nodes/no-hardcoded-secrets -- a made-up key, looked for in the error
		n8n.apiKey = 'n8n-api-key-secret';
		n8n.callTimeoutMs = callTimeoutMs;
		return n8n;
	};

	it('give up on a call n8n does not answer within the call timeout, naming the call and not the key', async () => {
		const started = Date.now();
		const failure = await instance(300)
			.api('POST', '/workflows/7/activate')
			.catch((error: unknown) => error);
		expect(failure).toBeInstanceOf(NoAnswerError);
		expect((failure as Error).message).toBe(
			'POST /api/v1/workflows/7/activate: no answer within 0.3 s',
		);
		expect((failure as Error).message).not.toContain('secret');
		expect(Date.now() - started).toBeLessThan(5_000);
		await expect(instance(300).rest('GET', '/rest/login')).rejects.toThrow(NoAnswerError);
	});

	it('wait for the answer when no timeout is given, as the tests do', async () => {
		const outcome = await Promise.race([
			instance(undefined)
				.api('GET', '/workflows/7')
				.then(
					() => 'answered',
					() => 'failed',
				),
			new Promise((resolve) => setTimeout(() => resolve('still waiting'), 1_000)),
		]);
		expect(outcome).toBe('still waiting');
	});
});
