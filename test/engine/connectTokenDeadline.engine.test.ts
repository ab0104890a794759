/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- n8n Cloud's limits are for nodes; this runs on Node itself (timers, process, built-in modules) */
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

import type { IExecuteFunctions } from 'n8n-workflow';

import {
	describeTokenFailure,
	exchangeRefreshToken,
	type TokenExchangeResult,
} from '../../nodes/shared/connect/connectToken';
import { SharedRefresh } from '../../nodes/shared/connect/sharedRefresh';
import { MemoryCredentialsHelper, runNode, testNodeType } from '../harness';
import { AppBuilderApi } from '../../credentials/AppBuilderApi.credentials';

/**
 * The Connect token request against a token endpoint that drips its answer
 * or sends without end, through n8n's own HTTP helper (real HTTP). The
 * shared request is given a deadline of 1.5 s here; its default of 30 s is
 * asserted in sharedRefresh.test.ts.
 */
type TokenEndpoint = 'drip' | 'endless' | 'tokens';

let mode: TokenEndpoint = 'drip';
let requests = 0;
let server: Server;
let tokenUrlBase = '';

/** Answers as `mode` says: one byte every 200 ms for ever, bytes without end, or a token answer. */
function answer(res: ServerResponse): void {
	requests++;
	res.writeHead(200, { 'Content-Type': 'application/json' });
	if (mode === 'tokens') {
		res.end(
			JSON.stringify({
				access_token: `access-${requests}`,
				refresh_token: `refresh-${requests}`,
				expires_in: 3600,
			}),
		);
		return;
	}
	res.write('{');
	if (mode === 'drip') {
		const timer = setInterval(() => res.write(' '), 200);
		res.on('close', () => clearInterval(timer));
		return;
	}
	const pump = () => {
		while (!res.destroyed && res.write(' '.repeat(16 * 1024)));
	};
	res.on('drain', pump);
	pump();
}

const shared = new SharedRefresh({ deadlineMs: 1500 });
const CLIENT_SECRET = 'client-secret-value';

/** Refreshes the token with n8n's HTTP helper, `callers` at once through one SharedRefresh, as the credential does. */
const tokenRefreshNode = testNodeType({
	displayName: 'Token Refresh',
	description: 'Refreshes a Connect token',
	properties: [
		{ displayName: 'Callers', name: 'callers', type: 'number', default: 1 },
		{ displayName: 'Shared', name: 'shared', type: 'boolean', default: true },
	],
	async execute() {
		const httpRequest: IExecuteFunctions['helpers']['httpRequest'] = async (options) =>
			await this.helpers.httpRequest(options);
		const client = {
			connectBaseUrl: tokenUrlBase,
			clientId: 'client',
			clientSecret: CLIENT_SECRET,
		};
		const callers = this.getNodeParameter('callers', 0) as number;
		const viaShared = this.getNodeParameter('shared', 0) as boolean;
		const once = async (): Promise<TokenExchangeResult> =>
			viaShared
				? await shared.run(
						{ tokenUrl: tokenUrlBase, clientId: 'client', refreshToken: 'refresh-0' },
						'',
						async (signal) =>
							await exchangeRefreshToken(httpRequest, client, 'refresh-0', { signal }),
					)
				: await exchangeRefreshToken(httpRequest, client, 'refresh-0', { deadlineMs: 1000 });
		const started = Date.now();
		const results = await Promise.all(Array.from({ length: callers }, once));
		return [results.map((result) => ({ json: { result, tookMs: Date.now() - started } as never }))];
	},
});

async function refresh(callers: number, viaShared = true) {
	const run = await runNode({
		nodeType: tokenRefreshNode,
		typeName: 'test.tokenRefresh',
		parameters: { callers, shared: viaShared },
		credentialsHelper: new MemoryCredentialsHelper({
			types: { appBuilderApi: new AppBuilderApi() },
			credentials: {},
		}),
	});
	if (run.error) throw run.error;
	return run.items.map(
		(item) => item.json as unknown as { result: TokenExchangeResult; tookMs: number },
	);
}

describe('the Connect token request has a deadline and a size bound', () => {
	beforeAll(async () => {
		server = createServer((_req, res) => answer(res));
		await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
		tokenUrlBase = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
	});
	afterAll(async () => {
		server.closeAllConnections();
		await new Promise<void>((resolve) => server.close(() => resolve()));
	});
	beforeEach(() => {
		requests = 0;
		shared.clear();
	});

	it('fails every caller that joined a dripping token request at its deadline, and the next caller starts afresh', async () => {
		mode = 'drip';
		const joined = await refresh(2);
		expect(requests).toBe(1);
		for (const { result, tookMs } of joined) {
			expect(result).toEqual({ ok: false, reason: 'timed_out', status: 0, bound: 2 });
			expect(tookMs).toBeLessThan(3000);
		}

		mode = 'tokens';
		const [next] = await refresh(1);
		expect(requests).toBe(2);
		expect(next.result).toMatchObject({ ok: true, tokens: { accessToken: 'access-2' } });
	});

	it('ends a token request of its own at its deadline, with a message that names the Connect Base URL and no secret', async () => {
		mode = 'drip';
		const [{ result, tookMs }] = await refresh(1, false);
		expect(result).toEqual({ ok: false, reason: 'timed_out', status: 0, bound: 1 });
		expect(tookMs).toBeLessThan(2500);
		if (result.ok) return;
		const message = describeTokenFailure(result, [CLIENT_SECRET, 'refresh-0']);
		expect(message).toBe(
			'The Connect API did not finish answering the token request within 1 second. Check the Connect Base URL in the App Builder API credential; if it is right, try again later.',
		);
	});

	it('stops reading a token answer that does not end at 64 KB', async () => {
		mode = 'endless';
		const [{ result, tookMs }] = await refresh(1);
		expect(result).toEqual({ ok: false, reason: 'too_large', status: 0, bound: 64 * 1024 });
		expect(tookMs).toBeLessThan(1500);
		if (!result.ok)
			expect(describeTokenFailure(result, [])).toMatch(
				/^The Connect API's answer to the token request is larger than 64 KB/,
			);
	});
});
