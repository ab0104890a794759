import type {
	ICredentialDataDecryptedObject,
	ICredentialTestFunctions,
	ICredentialsDecrypted,
	IHttpRequestOptions,
	INodeCredentialTestResult,
} from 'n8n-workflow';

import {
	DEFAULT_CONNECT_BASE_URL,
	DEFAULT_WEB_SERVICE_BASE_URL,
	joinUrl,
	WEB_SERVICE_ENDPOINTS,
} from '../../shared/appBuilderApi';
import { describeTokenFailure, exchangeRefreshToken } from '../../shared/connect/connectToken';
import { asNetworkFailure, networkFailureWords } from '../../shared/http/networkFailure';
import { describeRedirect, isRedirectStatus } from '../../shared/http/redirectTarget';
import { redactOrigin, redactSecrets } from '../../shared/text/redact';
import { interpretResponse } from '../transport/interpretResponse';

/**
 * Tests the credential without changing anything on the account:
 * - web services: an editUser call with an empty email. The API checks the
 *   access token (401), then the API key (2032/2036/2038), then the email
 *   (2034): reaching the email check proves both secrets right, and no user is
 *   touched because the request is refused there.
 * - Connect: a token request with a deliberately wrong refresh token. The API
 *   checks the client first (invalid_client) and then the refresh token
 *   (invalid_grant), so the client credentials are proved without using up the
 *   stored refresh token, which a real refresh would rotate.
 */
export async function appBuilderApiCredentialTest(
	this: ICredentialTestFunctions,
	credential: ICredentialsDecrypted,
): Promise<INodeCredentialTestResult> {
	const data = credential.data ?? {};
	const secrets = [
		data.accessToken,
		data.apiKey,
		data.clientSecret,
		data.refreshToken,
		data.connectAccessToken,
	];
	const send = legacyRequestAdapter(this);

	const web = await testWebServices(send, data, secrets);
	if (web.status === 'Error') return web;
	if (data.useConnect !== true) return web;

	const connect = await testConnectClient(send, data, secrets);
	if (connect.status === 'Error') return connect;
	return { status: 'OK', message: `${web.message} ${connect.message}` };
}

type Send = (
	options: IHttpRequestOptions,
) => Promise<{ statusCode: number; headers?: Record<string, unknown>; body: unknown }>;

async function testWebServices(
	send: Send,
	data: ICredentialDataDecryptedObject,
	secrets: unknown[],
): Promise<INodeCredentialTestResult> {
	const { path, method } = WEB_SERVICE_ENDPOINTS.editUser;
	const url = joinUrl(String(data.baseUrl || DEFAULT_WEB_SERVICE_BASE_URL), path);
	let response;
	try {
		response = await send({
			method: 'POST',
			url,
			headers: { ACCESSTOKEN: String(data.accessToken ?? ''), Accept: 'application/json' },
			body: { method, apiKey: String(data.apiKey ?? ''), email: '' },
			json: true,
		});
	} catch (error) {
		const network = asNetworkFailure(error);
		if (network) {
			return {
				status: 'Error',
				message: `Could not reach the App Builder web services (${networkFailureWords(network)}). Check the Web Service Base URL.`,
			};
		}
		const reason = redactSecrets(error instanceof Error ? error.message : String(error), secrets);
		return {
			status: 'Error',
			message: `The test request to the App Builder web services failed (${reason.slice(0, 200)}). Check the Web Service Base URL.`,
		};
	}
	if (isRedirectStatus(response.statusCode)) {
		const redirect = redactOrigin(
			describeRedirect(response.statusCode, response.headers, url),
			secrets,
		);
		return {
			status: 'Error',
			message: `The web services answered with ${redirect}. n8n does not follow it, so the Access Token and API Key go only to the configured host: correct the Web Service Base URL in the App Builder API credential.`,
		};
	}
	const outcome = interpretResponse(response, Date.now());
	const apiKeySet = String(data.apiKey ?? '') !== '';
	if (outcome.ok) return { status: 'OK', message: 'Access token and API key accepted.' };
	switch (outcome.code) {
		case 401:
			return {
				status: 'Error',
				message:
					'The Access Token is wrong: the App Builder API refused it. Copy it again from your Appy Pie Developer account, in the API section of its Authentication page (api.appypie.com/authentication).',
			};
		case 2032:
			return apiKeySet
				? {
						status: 'Error',
						message: 'The API did not receive the API Key. Check the API Key field.',
					}
				: {
						status: 'OK',
						message:
							'Access token accepted. API Key is empty: Add User and Update User will need it.',
					};
		case 2036:
		case 2038:
			return {
				status: 'Error',
				message:
					'The Access Token works, but the API Key is wrong. Copy it again from your app: My Apps Backend > Users > User Registration API.',
			};
		case 2034:
		case 2041:
		case 400:
			return { status: 'OK', message: 'Access token and API key accepted.' };
		default:
			return {
				status: 'Error',
				message: `The Web Service Base URL did not answer like the App Builder API (code ${outcome.code}). Check the Web Service Base URL.`,
			};
	}
}

/** A refresh token no server has issued, so the request can only prove the client credentials. */
const UNISSUED_PROBE_VALUE = 'n8n-credential-test-probe';

async function testConnectClient(
	send: Send,
	data: ICredentialDataDecryptedObject,
	secrets: unknown[],
): Promise<INodeCredentialTestResult> {
	const result = await exchangeRefreshToken(
		async (options: IHttpRequestOptions) => await send(options),
		{
			connectBaseUrl: String(data.connectBaseUrl || DEFAULT_CONNECT_BASE_URL),
			clientId: String(data.clientId ?? ''),
			clientSecret: String(data.clientSecret ?? ''),
			accessToken: String(data.accessToken ?? ''),
		},
		UNISSUED_PROBE_VALUE,
	);
	if (result.ok || result.reason === 'invalid_grant') {
		return { status: 'OK', message: 'Connect client ID and secret accepted.' };
	}
	return { status: 'Error', message: describeTokenFailure(result, secrets) };
}

/**
 * Credential tests only get the older `request` helper; this adapts it to the
 * options the rest of the package uses and always returns the full response.
 * Redirects are never followed: every request here carries secrets.
 */
function legacyRequestAdapter(context: ICredentialTestFunctions): Send {
	return async (options) => {
		const response = (await context.helpers.request({
			method: options.method,
			uri: options.url,
			headers: options.headers,
			body: options.body,
			json: true,
			simple: false,
			resolveWithFullResponse: true,
			followRedirect: false,
			followAllRedirects: false,
			timeout: 30_000,
		})) as { statusCode: number; headers?: Record<string, unknown>; body: unknown };
		return { statusCode: response.statusCode, headers: response.headers, body: response.body };
	};
}
