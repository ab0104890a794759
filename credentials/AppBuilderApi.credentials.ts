import type {
	ICredentialDataDecryptedObject,
	ICredentialType,
	IDataObject,
	IHttpRequestHelper,
	IHttpRequestOptions,
	INodeProperties,
	Icon,
} from 'n8n-workflow';

import {
	CONNECT_GRANT_PATH,
	DEFAULT_CONNECT_BASE_URL,
	DEFAULT_WEB_SERVICE_BASE_URL,
	joinUrl,
} from '../nodes/shared/appBuilderApi';
import { describeTokenFailure, exchangeRefreshToken } from '../nodes/shared/connect/connectToken';
import { connectRefreshes } from '../nodes/shared/connect/sharedRefresh';
import { destinationOf } from '../nodes/shared/hostRouting';

const usesConnect = { show: { useConnect: [true] } };

export class AppBuilderApi implements ICredentialType {
	name = 'appBuilderApi';

	displayName = 'App Builder API';

	icon: Icon = { light: 'file:../icons/appbuilder.svg', dark: 'file:../icons/appbuilder.dark.svg' };

	documentationUrl = 'https://www.npmjs.com/package/n8n-nodes-appbuilder#credentials';

	properties: INodeProperties[] = [
		{
			displayName: 'Access Token',
			name: 'accessToken',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			required: true,
			description:
				'Log in to the Appy Pie Developer account the app was built under: the token is shown in the API section of its Authentication page (api.appypie.com/authentication)',
		},
		{
			displayName: 'API Key',
			name: 'apiKey',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			description:
				'For Add User and Update User: in your app, go to My Apps Backend > Users > User Registration API > Generate Key',
		},
		{
			displayName: 'Web Service Base URL',
			name: 'baseUrl',
			type: 'string',
			default: DEFAULT_WEB_SERVICE_BASE_URL,
			description: 'Change only for a private deployment or a proxy',
		},
		{
			displayName: 'Use Connect API',
			name: 'useConnect',
			type: 'boolean',
			default: false,
			description:
				'Whether to also sign Connect API calls made from the HTTP Request node (Predefined Credential Type) with an access token that refreshes itself. The App Builder nodes do not need it.',
		},
		{
			displayName: 'Connect Base URL',
			name: 'connectBaseUrl',
			type: 'string',
			default: DEFAULT_CONNECT_BASE_URL,
			displayOptions: usesConnect,
			description: 'Change only if App Builder gave you another address for the Connect API',
		},
		{
			displayName: 'Client ID',
			name: 'clientId',
			type: 'string',
			default: '',
			required: true,
			displayOptions: usesConnect,
			description:
				"The Connect client's ID; it comes with the Client Secret and a first Refresh Token. Where to get them is not documented: ask App Builder's support.",
		},
		{
			displayName: 'Client Secret',
			name: 'clientSecret',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			required: true,
			displayOptions: usesConnect,
			description: "The Connect client's secret, which comes with its Client ID",
		},
		{
			displayName: 'Refresh Token',
			name: 'refreshToken',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			required: true,
			displayOptions: usesConnect,
			description:
				'The Connect refresh token. Each refresh returns a new one, which n8n saves here in place of the old.',
		},
		{
			// Filled by preAuthentication; n8n refreshes it when empty or
			// when a Connect call answers 401.
			displayName: 'Connect Access Token',
			name: 'connectAccessToken',
			type: 'hidden',
			typeOptions: { expirable: true, password: true },
			default: '',
		},
		{
			displayName: 'Connect Access Token Expires At',
			name: 'connectExpiresAt',
			type: 'hidden',
			default: 0,
		},
	];

	/**
	 * Fetches a fresh Connect access token with the refresh token. The rotated
	 * refresh token is returned together with the access token, because n8n
	 * saves what this returns only when the expirable field is part of it.
	 * Calls that run at once with the same refresh token share one request
	 * (the refresh token is single-use); see sharedRefresh.ts.
	 */
	async preAuthentication(this: IHttpRequestHelper, credentials: ICredentialDataDecryptedObject) {
		if (!isConnectConfigured(credentials)) return {};
		const client = {
			connectBaseUrl: String(credentials.connectBaseUrl || DEFAULT_CONNECT_BASE_URL),
			clientId: String(credentials.clientId),
			clientSecret: String(credentials.clientSecret),
			accessToken: String(credentials.accessToken ?? ''),
		};
		const refreshToken = String(credentials.refreshToken);
		const httpRequest = this.helpers.httpRequest;
		const result = await connectRefreshes.run(
			{
				tokenUrl: joinUrl(client.connectBaseUrl, CONNECT_GRANT_PATH),
				clientId: client.clientId,
				refreshToken,
			},
			String(credentials.connectAccessToken ?? ''),
			async (signal) => await exchangeRefreshToken(httpRequest, client, refreshToken, { signal }),
		);
		if (!result.ok) {
			// No node is at hand here, so a plain Error; n8n shows its message on the failing node.
			throw new Error(
				describeTokenFailure(result, [
					credentials.clientSecret,
					credentials.refreshToken,
					credentials.accessToken,
					credentials.connectAccessToken,
				]),
			);
		}
		const refreshed: IDataObject = {
			connectAccessToken: result.tokens.accessToken,
			refreshToken: result.tokens.refreshToken,
			connectExpiresAt: result.tokens.expiresAtMs,
		};
		return refreshed;
	}

	/**
	 * Adds each secret only to requests under the base URL it belongs to (see
	 * hostRouting.ts), so the credential is safe to use from the HTTP Request
	 * node against any URL.
	 */
	async authenticate(
		credentials: ICredentialDataDecryptedObject,
		requestOptions: IHttpRequestOptions,
	): Promise<IHttpRequestOptions> {
		const legacyUri = (requestOptions as IHttpRequestOptions & { uri?: string }).uri;
		const destination = destinationOf(
			requestOptions.url ?? legacyUri,
			requestOptions.baseURL,
			String(credentials.baseUrl || DEFAULT_WEB_SERVICE_BASE_URL),
			isConnectConfigured(credentials)
				? String(credentials.connectBaseUrl || DEFAULT_CONNECT_BASE_URL)
				: undefined,
		);
		const headers: IDataObject = { ...(requestOptions.headers ?? {}) };
		if (destination === 'webService') {
			headers.ACCESSTOKEN = credentials.accessToken;
		} else if (destination === 'connect' && credentials.connectAccessToken) {
			headers.Authorization = `Bearer ${String(credentials.connectAccessToken)}`;
		}
		return { ...requestOptions, headers };
	}
}

function isConnectConfigured(credentials: ICredentialDataDecryptedObject): boolean {
	return (
		credentials.useConnect === true &&
		Boolean(credentials.clientId) &&
		Boolean(credentials.clientSecret) &&
		Boolean(credentials.refreshToken)
	);
}
