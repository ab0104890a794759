/* eslint-disable @n8n/community-nodes/no-hardcoded-secrets -- its secrets are made up, to check that none leaks */
import { CredentialTestContext } from 'n8n-core';
import type { ICredentialDataDecryptedObject, IWorkflowExecuteAdditionalData } from 'n8n-workflow';

import { appBuilderApiCredentialTest } from '../../nodes/AppBuilder/methods/credentialTest';
import { startRecordingServer, startRedirectToSink } from '../support/recordingServer';
import { useEmulator } from '../support/useEmulator';
import { credentialDataFor, FIXTURE } from '../emulator';

/** The credential's Test button, run with n8n-core's own credential-test context (real HTTP). */
describe('App Builder API credential test', () => {
	const emu = useEmulator();

	const run = async (overrides: Record<string, unknown> = {}) => {
		const data: ICredentialDataDecryptedObject = {
			...credentialDataFor(emu(), { connect: true }),
			connectAccessToken: '',
			...overrides,
		};
		const context = new CredentialTestContext({} as IWorkflowExecuteAdditionalData);
		const result = await appBuilderApiCredentialTest.call(context, {
			id: '1',
			name: 'App Builder',
			type: 'appBuilderApi',
			data,
		});
		for (const value of Object.values(data)) {
			if (typeof value === 'string' && value.length >= 8 && !value.startsWith('http')) {
				expect(result.message).not.toContain(value);
			}
		}
		return result;
	};

	it('passes with right values, without creating or changing any user and without using up the refresh token', async () => {
		const result = await run();
		expect(result.status).toBe('OK');
		expect(emu().control.users()).toHaveLength(0);
		const tokenCalls = emu()
			.control.requests()
			.filter((r) => r.path === '/v1/oauth2/token');
		expect(tokenCalls).toHaveLength(1);
		expect(tokenCalls[0].body.refresh_token).not.toBe(FIXTURE.refreshToken);
		// The stored refresh token still works afterwards.
		const response = await fetch(`${emu().connectUrl}/v1/oauth2/token`, {
			method: 'POST',
			headers: { 'Content-Type': 'application/json' },
			body: JSON.stringify({
				grant_type: 'refresh_token',
				client_id: FIXTURE.clientId,
				client_secret: FIXTURE.clientSecret,
				refresh_token: FIXTURE.refreshToken,
			}),
		});
		expect(response.status).toBe(200);
	});

	it('names the access token when it is wrong, and where Appy Pie shows it', async () => {
		const result = await run({ accessToken: 'not-the-access-token' });
		expect(result).toMatchObject({ status: 'Error' });
		expect(result.message).toMatch(/Access Token is wrong/);
		// The place as Appy Pie's Authentication page names it, as the README and the field's help do.
		expect(result.message).toContain(
			'Appy Pie Developer account, in the API section of its Authentication page',
		);
	});

	it('tells a wrong API key apart from a wrong access token', async () => {
		const malformed = await run({ apiKey: 'bad key!' });
		expect(malformed.status).toBe('Error');
		expect(malformed.message).toMatch(/API Key is wrong/);
		const unknown = await run({ apiKey: 'someone-elses-api-key' });
		expect(unknown.status).toBe('Error');
		expect(unknown.message).toMatch(/Access Token works, but the API Key is wrong/);
		// The click path of Appy Pie's Register App User reference, as the README and the field's help give it.
		expect(unknown.message).toContain('My Apps Backend > Users > User Registration API');
	});

	it('passes with an empty API key but says which operations need it', async () => {
		const result = await run({ apiKey: '' });
		expect(result.status).toBe('OK');
		expect(result.message).toMatch(/Add User and Update User will need it/);
	});

	it('names the Connect client fields when the client secret is wrong', async () => {
		const result = await run({ clientSecret: 'wrong-client-secret-value' });
		expect(result.status).toBe('Error');
		expect(result.message).toMatch(/Client ID or Client Secret/);
	});

	it('does not check Connect when it is turned off', async () => {
		const result = await run({ useConnect: false, clientSecret: 'wrong-client-secret-value' });
		expect(result.status).toBe('OK');
		expect(
			emu()
				.control.requests()
				.filter((r) => r.server === 'connect'),
		).toHaveLength(0);
	});

	it('says the base URL is wrong when nothing answers there', async () => {
		const result = await run({ baseUrl: 'http://127.0.0.1:9' });
		expect(result.status).toBe('Error');
		expect(result.message).toMatch(/Web Service Base URL/);
	});

	it('sends the Access Token as the ACCESSTOKEN header with the Connect probe, for a token endpoint that requires it', async () => {
		emu().control.configure({ connectRequiresAccessToken: true });
		const result = await run();
		expect(result.status).toBe('OK');
		const [tokenCall] = emu()
			.control.requests()
			.filter((r) => r.path === '/v1/oauth2/token');
		expect(tokenCall.headers.accesstoken).toBe(FIXTURE.accessToken);
	});

	describe.each([302, 307, 308])('a %s redirect', (status) => {
		it('of the web-service probe is not followed: the other host receives nothing, and the message names its origin and the Web Service Base URL', async () => {
			const servers = await startRedirectToSink(status);
			try {
				const result = await run({ baseUrl: servers.redirector.url });
				expect(result.status).toBe('Error');
				expect(result.message).toContain(`redirect (HTTP ${status}) to ${servers.sink.url}`);
				expect(result.message).toMatch(
					/correct the Web Service Base URL in the App Builder API credential/,
				);
				expect(result.message).not.toMatch(/collect|secret-path|leak|query-value/);
				expect(servers.redirector.requests).toHaveLength(1);
				expect(servers.sink.requests).toHaveLength(0);
			} finally {
				await servers.close();
			}
		});

		it('of the Connect probe is not followed: the other host receives nothing, and the message names its origin and the Connect Base URL', async () => {
			const servers = await startRedirectToSink(status);
			try {
				const result = await run({ connectBaseUrl: servers.redirector.url });
				expect(result.status).toBe('Error');
				expect(result.message).toContain(`redirect (HTTP ${status}) to ${servers.sink.url}`);
				expect(result.message).toMatch(
					/correct the Connect Base URL in the App Builder API credential/,
				);
				expect(result.message).not.toMatch(/collect|secret-path|leak|query-value/);
				expect(servers.redirector.requests).toHaveLength(1);
				expect(servers.sink.requests).toHaveLength(0);
			} finally {
				await servers.close();
			}
		});
	});

	describe('a redirect to a host named after a secret', () => {
		const redirectTo = async (host: string) =>
			await startRecordingServer(() => ({
				status: 302,
				headers: { Location: `http://${host}/x` },
			}));

		it('of the web-service probe names the host without the access token, even lower-cased as a host is', async () => {
			const accessToken = 'Tok3n-MiXeD-9q';
			const redirector = await redirectTo(`${accessToken}.example.com`);
			try {
				const result = await run({ baseUrl: redirector.url, accessToken });
				expect(result.message).toContain('a redirect (HTTP 302) to http://[redacted].example.com');
				expect(result.message).not.toMatch(/tok3n-mixed/i);
			} finally {
				await redirector.close();
			}
		});

		it('of the Connect probe names the host without the client secret, even lower-cased as a host is', async () => {
			const clientSecret = 'Cl13nt-SeCrEt-7z';
			const redirector = await redirectTo(`${clientSecret}.example.com`);
			try {
				const result = await run({ connectBaseUrl: redirector.url, clientSecret });
				expect(result.message).toContain('a redirect (HTTP 302) to http://[redacted].example.com');
				expect(result.message).not.toMatch(/cl13nt-secret/i);
			} finally {
				await redirector.close();
			}
		});
	});

	it('says "could not reach" only when nothing answered, not for a Web Service Base URL that is not a URL', async () => {
		const result = await run({ baseUrl: 'api host without scheme' });
		expect(result.status).toBe('Error');
		expect(result.message).not.toMatch(/could not reach/i);
		expect(result.message).toMatch(/Web Service Base URL/);
	});
});
