import type { IHttpRequestOptions } from 'n8n-workflow';

import {
	describeTokenFailure,
	exchangeRefreshToken,
	type TokenExchangeResult,
} from '../../../../nodes/shared/connect/connectToken';

/**
 * The token exchange's mapping from what the HTTP helper answered or threw to
 * a failure that names the field to fix. Real HTTP paths are in
 * test/engine/credential*.engine.test.ts; these cover answers no emulator gives.
 */
describe('exchangeRefreshToken failures', () => {
	const client = {
		connectBaseUrl: 'https://connect.example',
		clientId: 'client-id',
		clientSecret: 'client-secret-value',
		accessToken: 'web-access-token',
	};
	const secrets = [client.clientSecret, client.accessToken, 'refresh-token-value'];

	const answering = (response: { statusCode: number; headers?: object; body?: unknown }) => {
		const sent: IHttpRequestOptions[] = [];
		const httpRequest = async (options: IHttpRequestOptions) => {
			sent.push(options);
			return response;
		};
		return { httpRequest, sent };
	};
	const throwing = (error: unknown) => async () => {
		throw error;
	};
	const failureOf = (result: TokenExchangeResult) => {
		if (result.ok) throw new Error('expected a failure');
		return result;
	};

	it('asks the helper not to follow redirects, and sends ACCESSTOKEN and the client credentials to the token URL only', async () => {
		const { httpRequest, sent } = answering({
			statusCode: 200,
			body: { access_token: 'a', refresh_token: 'r', expires_at: 2_000_000_000 },
		});
		const result = await exchangeRefreshToken(httpRequest as never, client, 'refresh-token-value');
		expect(result).toEqual({
			ok: true,
			tokens: { accessToken: 'a', refreshToken: 'r', expiresAtMs: 2_000_000_000_000 },
		});
		expect(sent).toHaveLength(1);
		expect(sent[0]).toMatchObject({
			url: 'https://connect.example/v1/oauth2/token',
			disableFollowRedirect: true,
			headers: { ACCESSTOKEN: 'web-access-token' },
			body: {
				client_id: 'client-id',
				client_secret: 'client-secret-value',
				refresh_token: 'refresh-token-value',
			},
		});
	});

	it('reports a 3xx by the origin it pointed to, never its path or query', async () => {
		const { httpRequest } = answering({
			statusCode: 301,
			headers: { location: 'https://user:pw@elsewhere.example:8443/steal?token=x' },
		});
		const message = describeTokenFailure(
			failureOf(await exchangeRefreshToken(httpRequest as never, client, 'r')),
			secrets,
		);
		expect(message).toContain('a redirect (HTTP 301) to https://elsewhere.example:8443.');
		expect(message).toMatch(/correct the Connect Base URL/);
		expect(message).not.toMatch(/steal|token=x|user|pw@/);
	});

	it('reports a 3xx without a Location as a redirect all the same', async () => {
		const { httpRequest } = answering({ statusCode: 302, headers: {} });
		const message = describeTokenFailure(
			failureOf(await exchangeRefreshToken(httpRequest as never, client, 'r')),
			secrets,
		);
		expect(message).toMatch(/redirect \(HTTP 302\) without a usable Location.*Connect Base URL/);
	});

	it('names the Access Token, Client ID and Client Secret for a 401 without an OAuth error code', async () => {
		const { httpRequest } = answering({
			statusCode: 401,
			body: { status: 'error', msg: 'Unauthorized' },
		});
		const message = describeTokenFailure(
			failureOf(await exchangeRefreshToken(httpRequest as never, client, 'r')),
			secrets,
		);
		expect(message).toMatch(/Access Token, Client ID and Client Secret/);
	});

	it('says "could not reach" for a network failure, in words n8n will not replace, also when the code sits in the cause', async () => {
		const refused = Object.assign(new Error('connect ECONNREFUSED 10.0.0.1:443'), {
			code: 'ECONNREFUSED',
		});
		const wrapped = new Error('request failed', { cause: refused });
		const message = describeTokenFailure(
			failureOf(await exchangeRefreshToken(throwing(wrapped) as never, client, 'r')),
			secrets,
		);
		expect(message).toMatch(/^Could not reach the Connect API \(the connection was refused\)/);
		expect(message).not.toMatch(/ECONNREFUSED/);
	});

	it.each([
		['a malformed URL', Object.assign(new TypeError('Invalid URL'), { code: 'ERR_INVALID_URL' })],
		[
			'a rejected certificate',
			Object.assign(new Error('certificate has expired'), { code: 'CERT_HAS_EXPIRED' }),
		],
		['a host blocked by policy', new Error('The host is not allowed')],
	])('does not say "could not reach" for %s', async (_case, error) => {
		const message = describeTokenFailure(
			failureOf(await exchangeRefreshToken(throwing(error) as never, client, 'r')),
			secrets,
		);
		expect(message).not.toMatch(/could not reach/i);
		expect(message).toMatch(
			/^The token request to the Connect API failed \(.+\)\. Check the Connect Base URL/,
		);
	});

	it('keeps the field-naming messages and redacts every secret the API echoes', () => {
		const echo = `bad ${client.clientSecret} / ${client.accessToken} / refresh-token-value`;
		const cases: Array<[TokenExchangeResult & { ok: false }, RegExp]> = [
			[
				{ ok: false, reason: 'invalid_client', status: 401, detail: echo },
				/Client ID or Client Secret/,
			],
			[{ ok: false, reason: 'invalid_grant', status: 400, detail: echo }, /Refresh Token field/],
			[{ ok: false, reason: 'invalid_token', status: 401, detail: echo }, /Access Token field/],
			[{ ok: false, reason: 'invalid_request', status: 400, detail: echo }, /Connect Base URL/],
		];
		for (const [failure, fieldNamed] of cases) {
			const message = describeTokenFailure(failure, secrets);
			expect(message).toMatch(fieldNamed);
			for (const secret of secrets) expect(message).not.toContain(secret);
		}
	});
});
