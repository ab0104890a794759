import type { ICredentialDataDecryptedObject } from 'n8n-workflow';

import { AppBuilderApi } from '../../credentials/AppBuilderApi.credentials';
import { credentialDataFor, FIXTURE } from '../emulator';
import { MemoryCredentialsHelper, runNode } from '../harness';
import { ConnectCallerNode } from '../support/connectCallerNode';
import { useEmulator } from '../support/useEmulator';

/**
 * The credential through n8n-core's real request helpers: preAuthentication,
 * authenticate and the refresh-and-retry on 401 of httpRequestWithAuthentication.
 */
describe('App Builder API credential in the n8n engine', () => {
	const emu = useEmulator();

	const credentialData = (overrides: ICredentialDataDecryptedObject = {}): ICredentialDataDecryptedObject => ({
		...credentialDataFor(emu(), { connect: true }),
		connectAccessToken: '',
		...overrides,
	});

	/** Runs the Connect Caller node (the HTTP Request node's stand-in) against a URL with the credential. */
	const callWith = async (helper: MemoryCredentialsHelper, url: string, method: 'GET' | 'POST' = 'GET') =>
		await runNode({
			nodeType: new ConnectCallerNode(),
			typeName: 'test.connectCaller',
			parameters: { url, method },
			credentials: { appBuilderApi: { id: '1', name: 'App Builder' } },
			inputItems: [{}],
			credentialsHelper: helper,
		});
	const callConnect = async (helper: MemoryCredentialsHelper) => await callWith(helper, `${emu().connectUrl}/v1/profile`);
	const inquiriesUrl = () =>
		`${emu().webUrl}/V4/webservices/FormBuilderApi.php?method=formBuilderInquiries&appId=${FIXTURE.appId}&pageId=${FIXTURE.formPageId}`;

	const helperWith = (data: ICredentialDataDecryptedObject) =>
		new MemoryCredentialsHelper({
			types: { appBuilderApi: new AppBuilderApi() },
			credentials: { appBuilderApi: data },
		});

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

		const tokenCalls = emu().control.requests().filter((r) => r.path === '/v1/oauth2/token');
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
		const paths = emu().control.requests().map((r) => `${r.path} ${r.status}`);
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
		const text = JSON.stringify({ message: result.error?.message, description: result.error?.description });
		expect(text).toMatch(/Client ID or Client Secret/);
		for (const secret of [wrongSecret, FIXTURE.refreshToken, FIXTURE.accessToken, FIXTURE.apiKey]) {
			expect(text).not.toContain(secret);
		}
	});

	it('sends ACCESSTOKEN only to the web-service host and the bearer only to the Connect host', async () => {
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
		for (const request of connectRequests) {
			expect(request.headers.accesstoken).toBeUndefined();
		}
		expect(connectRequests.some((r) => String(r.headers.authorization).startsWith('Bearer '))).toBe(true);
	});

	it('leaves web-service calls alone when no Connect client is configured', async () => {
		const helper = helperWith(credentialData({ useConnect: false, clientId: '', clientSecret: '', refreshToken: '' }));
		const result = await callWith(helper, inquiriesUrl(), 'POST');
		expect(result.error).toBeUndefined();
		expect(emu().control.requests().filter((r) => r.server === 'connect')).toHaveLength(0);
		expect(helper.stored('appBuilderApi').connectAccessToken).toBe('');
	});
});
