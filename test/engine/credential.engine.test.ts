/* eslint-disable @n8n/community-nodes/no-hardcoded-secrets -- its secrets are made up, to check that none leaks */
import type { ICredentialDataDecryptedObject } from 'n8n-workflow';

import { AppBuilderApi } from '../../credentials/AppBuilderApi.credentials';
import { connectRefreshes } from '../../nodes/shared/connect/sharedRefresh';
import { credentialDataFor, FIXTURE } from '../emulator';
import { MemoryCredentialsHelper, runNode } from '../harness';
import { connectCallerNode } from '../support/connectCallerNode';
import { startRecordingServer, startRedirectToSink } from '../support/recordingServer';
import { useEmulator } from '../support/useEmulator';

/**
 * The credential through n8n-core's real request helpers: preAuthentication,
 * authenticate and the refresh-and-retry on 401 of httpRequestWithAuthentication.
 */
describe('App Builder API credential in the n8n engine', () => {
	const emu = useEmulator();
	// Every test starts from the seeded refresh token again, so nothing kept by an earlier test may answer for it.
	beforeEach(() => connectRefreshes.clear());

	const credentialData = (
		overrides: ICredentialDataDecryptedObject = {},
	): ICredentialDataDecryptedObject => ({
		...credentialDataFor(emu(), { connect: true }),
		connectAccessToken: '',
		...overrides,
	});

	/** Runs the Connect Caller node (the HTTP Request node's stand-in) against a URL with the credential. */
	const callWith = async (
		helper: MemoryCredentialsHelper,
		url: string,
		method: 'GET' | 'POST' = 'GET',
		options: { items?: number; parallel?: boolean } = {},
	) =>
		await runNode({
			nodeType: connectCallerNode,
			typeName: 'test.connectCaller',
			parameters: { url, method, parallel: options.parallel ?? false },
			credentials: { appBuilderApi: { id: '1', name: 'App Builder' } },
			inputItems: Array.from({ length: options.items ?? 1 }, () => ({})),
			credentialsHelper: helper,
		});
	const callConnect = async (helper: MemoryCredentialsHelper) =>
		await callWith(helper, `${emu().connectUrl}/v1/profile`);
	const inquiriesUrl = () =>
		`${emu().webUrl}/V4/webservices/FormBuilderApi.php?method=formBuilderInquiries&appId=${FIXTURE.appId}&pageId=${FIXTURE.formPageId}`;

	const helperWith = (data: ICredentialDataDecryptedObject) =>
		new MemoryCredentialsHelper({
			types: { appBuilderApi: new AppBuilderApi() },
			credentials: { appBuilderApi: data },
		});
	const tokenCallsOf = () =>
		emu()
			.control.requests()
			.filter((r) => r.path === '/v1/oauth2/token');
	const errorText = (result: { error?: { message?: string; description?: string | null } }) =>
		`${result.error?.message ?? ''} ${result.error?.description ?? ''}`;
	const allSecrets = [
		FIXTURE.clientSecret,
		FIXTURE.refreshToken,
		FIXTURE.accessToken,
		FIXTURE.apiKey,
	];

	it('fetches a Connect access token when it has none, and saves it with the rotated refresh token', async () => {
		const helper = helperWith(credentialData());
		const result = await callConnect(helper);

		expect(result.error).toBeUndefined();
		expect(result.items[0].json).toMatchObject({ clientId: FIXTURE.clientId });
		const stored = helper.stored('appBuilderApi');
		expect(stored.connectAccessToken).toEqual(expect.any(String));
		expect(stored.connectAccessToken).not.toBe('');
		expect(stored.refreshToken).not.toBe(FIXTURE.refreshToken);
		expect(Number(stored.connectExpiresAt)).toBeGreaterThan(Date.now());

		const tokenCalls = emu()
			.control.requests()
			.filter((r) => r.path === '/v1/oauth2/token');
		expect(tokenCalls).toHaveLength(1);
		expect(tokenCalls[0].body).toMatchObject({
			grant_type: 'refresh_token',
			client_id: FIXTURE.clientId,
			refresh_token: FIXTURE.refreshToken,
		});
	});

	it('refreshes once on 401 after the access token expired, retries, and keeps the rotated refresh token', async () => {
		const helper = helperWith(credentialData());
		await callConnect(helper);
		const firstRefreshToken = helper.stored('appBuilderApi').refreshToken;
		emu().control.expireAccessTokens();
		emu().control.clearRequests();

		const result = await callConnect(helper);

		expect(result.error).toBeUndefined();
		expect(result.items[0].json).toMatchObject({ clientId: FIXTURE.clientId });
		const paths = emu()
			.control.requests()
			.map((r) => `${r.path} ${r.status}`);
		expect(paths).toEqual(['/v1/profile 401', '/v1/oauth2/token 200', '/v1/profile 200']);
		const stored = helper.stored('appBuilderApi');
		expect(stored.refreshToken).not.toBe(firstRefreshToken);

		// The rotated token is the one that works now: the old one was revoked.
		emu().control.expireAccessTokens();
		const again = await callConnect(helper);
		expect(again.error).toBeUndefined();
	});

	it('reports a wrong client secret with a message naming the fields, and without any secret', async () => {
		const wrongSecret = 'wrong-client-secret-value';
		const helper = helperWith(credentialData({ clientSecret: wrongSecret }));
		const result = await callConnect(helper);

		expect(result.error).toBeDefined();
		const text = JSON.stringify({
			message: result.error?.message,
			description: result.error?.description,
		});
		expect(text).toMatch(/Client ID or Client Secret/);
		for (const secret of [wrongSecret, FIXTURE.refreshToken, FIXTURE.accessToken, FIXTURE.apiKey]) {
			expect(text).not.toContain(secret);
		}
	});

	it('sends ACCESSTOKEN only to the web-service host and the token request, and the bearer only to the Connect host', async () => {
		const helper = helperWith(credentialData());
		await callConnect(helper);
		const web = await callWith(helper, inquiriesUrl(), 'POST');
		expect(web.error).toBeUndefined();

		const requests = emu().control.requests();
		const webRequests = requests.filter((r) => r.server === 'web');
		const connectRequests = requests.filter((r) => r.server === 'connect');
		expect(webRequests.length).toBeGreaterThan(0);
		expect(connectRequests.length).toBeGreaterThan(0);
		for (const request of webRequests) {
			expect(request.headers.accesstoken).toBe(FIXTURE.accessToken);
			expect(request.headers.authorization).toBeUndefined();
		}
		// The token request carries ACCESSTOKEN as the spec's sample does; no other Connect call does.
		for (const request of connectRequests.filter((r) => r.path !== '/v1/oauth2/token')) {
			expect(request.headers.accesstoken).toBeUndefined();
		}
		expect(connectRequests.some((r) => String(r.headers.authorization).startsWith('Bearer '))).toBe(
			true,
		);
	});

	it('leaves web-service calls alone when no Connect client is configured', async () => {
		const helper = helperWith(
			credentialData({ useConnect: false, clientId: '', clientSecret: '', refreshToken: '' }),
		);
		const result = await callWith(helper, inquiriesUrl(), 'POST');
		expect(result.error).toBeUndefined();
		expect(
			emu()
				.control.requests()
				.filter((r) => r.server === 'connect'),
		).toHaveLength(0);
		expect(helper.stored('appBuilderApi').connectAccessToken).toBe('');
	});

	describe('refreshes that happen at the same time', () => {
		const callConnectInParallel = async (helper: MemoryCredentialsHelper) =>
			await callWith(helper, `${emu().connectUrl}/v1/profile`, 'GET', { items: 5, parallel: true });

		it('five items in parallel with no Connect token share one token request, and all succeed', async () => {
			const helper = helperWith(credentialData());
			const result = await callConnectInParallel(helper);

			expect(result.error).toBeUndefined();
			expect(result.items).toHaveLength(5);
			for (const item of result.items)
				expect(item.json).toMatchObject({ clientId: FIXTURE.clientId });
			expect(tokenCallsOf()).toHaveLength(1);
			// The rotated refresh token that was saved is the one the API will accept next.
			const stored = helper.stored('appBuilderApi');
			expect(emu().control.refreshTokens.get(String(stored.refreshToken))).toBe(FIXTURE.clientId);
		});

		it('five items in parallel refused with 401 after the tokens expired share one refresh, and all succeed', async () => {
			const helper = helperWith(credentialData());
			expect((await callConnect(helper)).error).toBeUndefined();
			emu().control.expireAccessTokens();
			emu().control.clearRequests();

			const result = await callConnectInParallel(helper);

			expect(result.error).toBeUndefined();
			expect(result.items).toHaveLength(5);
			expect(tokenCallsOf()).toHaveLength(1);
			const profileStatuses = emu()
				.control.requests()
				.filter((r) => r.path === '/v1/profile')
				.map((r) => r.status);
			expect(profileStatuses.filter((status) => status === 401)).toHaveLength(5);
			expect(profileStatuses.filter((status) => status === 200)).toHaveLength(5);
		});

		it('a call refused after the shared refresh finished, still holding the old refresh token, gets its result instead of spending that token again', async () => {
			const helper = helperWith(credentialData());
			expect((await callConnect(helper)).error).toBeUndefined();
			emu().control.expireAccessTokens();
			emu().control.clearRequests();
			// One item's 401 comes back long after the other four have refreshed and saved the rotated token.
			emu().control.injectFault({ endpoint: 'profile', kind: 'latency', times: 1, ms: 400 });

			const result = await callConnectInParallel(helper);

			expect(result.error).toBeUndefined();
			expect(result.items).toHaveLength(5);
			expect(tokenCallsOf()).toHaveLength(1);
			// The delayed 401 did arrive after the token request had finished.
			const refusedAt = emu()
				.control.requests()
				.filter((r) => r.path === '/v1/profile' && r.status === 401)
				.map((r) => r.finishedAt ?? 0);
			expect(Math.max(...refusedAt)).toBeGreaterThan(tokenCallsOf()[0].finishedAt ?? Infinity);
		});

		it('does not remember a failure: after a refused refresh the next run asks again', async () => {
			const helper = helperWith(credentialData());
			emu().control.injectFault({ endpoint: 'token', kind: 'status', status: 503, times: 1 });
			const failed = await callConnectInParallel(helper);
			expect(failed.error).toBeDefined();
			expect(tokenCallsOf()).toHaveLength(1);

			const retried = await callConnectInParallel(helper);
			expect(retried.error).toBeUndefined();
			expect(tokenCallsOf()).toHaveLength(2);
		});
	});

	describe('the token request', () => {
		it('carries the Access Token as the ACCESSTOKEN header, which only the token request gets on the Connect host', async () => {
			emu().control.configure({ connectRequiresAccessToken: true });
			const helper = helperWith(credentialData());
			const result = await callConnect(helper);

			expect(result.error).toBeUndefined();
			const [tokenCall] = tokenCallsOf();
			expect(tokenCall.headers.accesstoken).toBe(FIXTURE.accessToken);
			expect(tokenCall.body).toMatchObject({
				client_id: FIXTURE.clientId,
				client_secret: FIXTURE.clientSecret,
			});
			const profileCalls = emu()
				.control.requests()
				.filter((r) => r.path === '/v1/profile');
			expect(profileCalls.length).toBeGreaterThan(0);
			for (const call of profileCalls) expect(call.headers.accesstoken).toBeUndefined();
		});

		it('names the Access Token field when the token endpoint refuses the ACCESSTOKEN header', async () => {
			emu().control.configure({ connectRequiresAccessToken: true });
			const wrongAccessToken = 'wrong-access-token-value';
			const helper = helperWith(credentialData({ accessToken: wrongAccessToken }));
			const result = await callConnect(helper);

			expect(result.error).toBeDefined();
			const text = errorText(result);
			expect(text).toMatch(/Access Token field/);
			expect(text).not.toMatch(/Client ID or Client Secret/);
			for (const secret of [wrongAccessToken, ...allSecrets]) expect(text).not.toContain(secret);
		});

		it.each([302, 307, 308])(
			'does not follow a %s redirect: the other host receives nothing and the error names its origin and the Connect Base URL',
			async (status) => {
				const servers = await startRedirectToSink(status);
				try {
					const helper = helperWith(credentialData({ connectBaseUrl: servers.redirector.url }));
					const result = await callWith(helper, `${servers.redirector.url}/v1/profile`);

					expect(result.error).toBeDefined();
					const text = errorText(result);
					expect(text).toContain(`redirect (HTTP ${status}) to ${servers.sink.url}`);
					expect(text).toMatch(/correct the Connect Base URL in the App Builder API credential/);
					expect(text).not.toMatch(/collect|secret-path|leak|query-value/);
					for (const secret of allSecrets) expect(text).not.toContain(secret);
					expect(servers.redirector.requests).toHaveLength(1);
					expect(servers.sink.requests).toHaveLength(0);
					expect(helper.stored('appBuilderApi').connectAccessToken).toBe('');
				} finally {
					await servers.close();
				}
			},
		);

		it('names a redirect to a host whose first label is the client secret without showing it, even lower-cased as a host is', async () => {
			const clientSecret = 'Cl13nt-SeCrEt-7z';
			const redirector = await startRecordingServer(() => ({
				status: 302,
				headers: { Location: `http://${clientSecret}.example.com/x` },
			}));
			try {
				const result = await callWith(
					helperWith(credentialData({ connectBaseUrl: redirector.url, clientSecret })),
					`${redirector.url}/v1/profile`,
				);
				expect(errorText(result)).toContain(
					'a redirect (HTTP 302) to http://[redacted].example.com',
				);
				expect(errorText(result)).not.toMatch(/cl13nt-secret/i);
			} finally {
				await redirector.close();
			}
		});

		it('says "could not reach" only for a network failure, not for a Connect Base URL that is not a URL', async () => {
			const malformed = await callConnect(
				helperWith(credentialData({ connectBaseUrl: 'connect host without scheme' })),
			);
			expect(malformed.error).toBeDefined();
			expect(errorText(malformed)).not.toMatch(/could not reach/i);
			expect(errorText(malformed)).toMatch(/Connect Base URL/);

			const refused = await callConnect(
				helperWith(credentialData({ connectBaseUrl: 'http://127.0.0.1:9' })),
			);
			expect(refused.error).toBeDefined();
			expect(errorText(refused)).toMatch(
				/Could not reach the Connect API \(the connection was refused\)/,
			);
		});

		it('redacts the Connect API error_description before shortening it, so no piece of a secret survives the cut', async () => {
			const echoed = `${'x'.repeat(190)} ${FIXTURE.clientSecret} ${'y'.repeat(5000)}`;
			const server = await startRecordingServer(() => ({
				status: 400,
				body: { error: 'invalid_request', error_description: echoed },
			}));
			try {
				const result = await callConnect(
					helperWith(credentialData({ connectBaseUrl: server.url })),
				);
				const text = errorText(result);
				expect(text).toMatch(/did not accept the token request/);
				expect(text).not.toContain(FIXTURE.clientSecret.slice(0, 6));
				expect(text.length).toBeLessThan(1000);
			} finally {
				await server.close();
			}
		});
	});

	it('behind one gateway, sends ACCESSTOKEN under the web-service path and the bearer under the Connect path, and nothing elsewhere', async () => {
		const gateway = await startRecordingServer((request) => ({
			status: 200,
			body: request.url.startsWith('/connect/v1/oauth2/token')
				? {
						access_token: 'gateway-connect-token',
						refresh_token: 'gateway-refresh-2',
						expires_at: 4102444800,
						type: 'bearer',
					}
				: { ok: true },
		}));
		try {
			const helper = helperWith(
				credentialData({
					baseUrl: `${gateway.url}/appbuilder`,
					connectBaseUrl: `${gateway.url}/connect`,
				}),
			);
			for (const path of [
				'/appbuilder/V4/webservices/FormBuilderApi.php',
				'/connect/v1/profile',
				'/elsewhere',
			]) {
				expect((await callWith(helper, `${gateway.url}${path}`, 'POST')).error).toBeUndefined();
			}
			const byPath = Object.fromEntries(gateway.requests.map((r) => [r.url, r.headers]));
			expect(byPath['/connect/v1/oauth2/token'].accesstoken).toBe(FIXTURE.accessToken);
			expect(byPath['/appbuilder/V4/webservices/FormBuilderApi.php']).toMatchObject({
				accesstoken: FIXTURE.accessToken,
			});
			expect(byPath['/appbuilder/V4/webservices/FormBuilderApi.php'].authorization).toBeUndefined();
			expect(byPath['/connect/v1/profile']).toMatchObject({
				authorization: 'Bearer gateway-connect-token',
			});
			expect(byPath['/connect/v1/profile'].accesstoken).toBeUndefined();
			expect(byPath['/elsewhere'].accesstoken).toBeUndefined();
			expect(byPath['/elsewhere'].authorization).toBeUndefined();
		} finally {
			await gateway.close();
		}
	});
});
