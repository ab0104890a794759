import type { IDataObject, IHttpRequestHelper } from 'n8n-workflow';

import { CONNECT_GRANT_PATH, joinUrl } from '../appBuilderApi';
import { asNetworkFailure, networkFailureWords } from '../http/networkFailure';
import { describeRedirect, isRedirectStatus } from '../http/redirectTarget';
import { redactOrigin, redactSecrets } from '../text/redact';

/**
 * The Connect API's token exchange (refresh_token grant), shared by the
 * credential's preAuthentication and by the credential test.
 */
export interface ConnectClient {
	connectBaseUrl: string;
	clientId: string;
	clientSecret: string;
	/** The credential's web-service access token, sent as the ACCESSTOKEN header as in the spec's reference sample. */
	accessToken?: string;
}

export interface ConnectTokens {
	accessToken: string;
	refreshToken: string;
	/** Epoch milliseconds, 0 when the service did not say. */
	expiresAtMs: number;
}

export type TokenExchangeFailure = {
	ok: false;
	reason: TokenFailureReason;
	status: number;
	/** Text from the answer or the thrown error, unredacted: describeTokenFailure redacts it. */
	detail?: string;
};

export type TokenExchangeResult = { ok: true; tokens: ConnectTokens } | TokenExchangeFailure;

export type TokenFailureReason =
	| 'invalid_client'
	| 'invalid_grant'
	| 'invalid_request'
	| 'unsupported_grant_type'
	| 'invalid_token'
	| 'unauthorized'
	| 'redirected'
	| 'unexpected_response'
	| 'unreachable'
	| 'request_failed';

type HttpRequest = IHttpRequestHelper['helpers']['httpRequest'];

const KNOWN_OAUTH_ERRORS: readonly TokenFailureReason[] = [
	'invalid_client',
	'invalid_grant',
	'invalid_request',
	'unsupported_grant_type',
	'invalid_token',
];

/** Longest piece of server or error text put into a message (after redaction, so no secret is cut in half). */
const MAX_DETAIL_LENGTH = 200;

export async function exchangeRefreshToken(
	httpRequest: HttpRequest,
	client: ConnectClient,
	refreshToken: string,
): Promise<TokenExchangeResult> {
	const url = joinUrl(client.connectBaseUrl, CONNECT_GRANT_PATH);
	const headers: IDataObject = { 'Content-Type': 'application/json' };
	if (client.accessToken) headers.ACCESSTOKEN = client.accessToken;
	let response: { statusCode: number; headers?: unknown; body: unknown };
	try {
		response = (await httpRequest({
			method: 'POST',
			url,
			// Client credentials in the body, as the spec's reference sample sends them.
			body: {
				grant_type: 'refresh_token',
				client_id: client.clientId,
				client_secret: client.clientSecret,
				refresh_token: refreshToken,
			},
			headers,
			json: true,
			returnFullResponse: true,
			ignoreHttpStatusErrors: true,
			// A redirect would resend the secrets in the body and the ACCESSTOKEN header elsewhere.
			disableFollowRedirect: true,
			timeout: 30_000,
		})) as { statusCode: number; headers?: unknown; body: unknown };
	} catch (error) {
		const detail = error instanceof Error ? error.message : String(error);
		const network = asNetworkFailure(error);
		return network
			? { ok: false, reason: 'unreachable', status: 0, detail: networkFailureWords(network) }
			: { ok: false, reason: 'request_failed', status: 0, detail };
	}

	if (isRedirectStatus(response.statusCode)) {
		return {
			ok: false,
			reason: 'redirected',
			status: response.statusCode,
			detail: describeRedirect(response.statusCode, response.headers, url),
		};
	}
	const body = asObject(response.body);
	if (response.statusCode >= 200 && response.statusCode < 300 && typeof body.access_token === 'string') {
		return {
			ok: true,
			tokens: {
				accessToken: body.access_token,
				// Some servers do not rotate: keep the one we have when none comes back.
				refreshToken:
					typeof body.refresh_token === 'string' && body.refresh_token !== ''
						? body.refresh_token
						: refreshToken,
				expiresAtMs:
					body.expires_at !== undefined
						? toExpiryMs(body.expires_at, Date.now(), false)
						: toExpiryMs(body.expires_in, Date.now(), true),
			},
		};
	}
	const errorCode = typeof body.error === 'string' ? body.error : undefined;
	const reason =
		errorCode && (KNOWN_OAUTH_ERRORS as string[]).includes(errorCode)
			? (errorCode as TokenFailureReason)
			: response.statusCode === 401
				? 'unauthorized'
				: 'unexpected_response';
	const detail = typeof body.error_description === 'string' ? body.error_description : undefined;
	return { ok: false, reason, status: response.statusCode, detail };
}

/** A sentence that names the credential field to fix, with no secret in it. */
export function describeTokenFailure(failure: TokenExchangeFailure, secrets: unknown[]): string {
	const detail = failure.detail ? ` (${shorten(redactSecrets(failure.detail, secrets))})` : '';
	switch (failure.reason) {
		case 'invalid_client':
			return `The Connect API rejected the Client ID or Client Secret${detail}. Copy both again into the App Builder API credential.`;
		case 'invalid_grant':
			return `The Connect API rejected the Refresh Token: it is wrong, expired or was already used${detail}. If Connect calls worked until now, another n8n process may have used it at the same moment: run again first. Otherwise get a new refresh token and paste it into the Refresh Token field of the App Builder API credential.`;
		case 'invalid_token':
			return `The Connect API rejected the Access Token sent with the token request${detail}. Copy it again from the Authentication section of your developer account into the Access Token field of the App Builder API credential.`;
		case 'unauthorized':
			return `The Connect API refused the token request with status 401${detail}. Check the Access Token, Client ID and Client Secret in the App Builder API credential.`;
		case 'invalid_request':
		case 'unsupported_grant_type':
			return `The Connect API did not accept the token request${detail}. Check the Connect Base URL in the App Builder API credential.`;
		case 'redirected':
			return `The Connect API answered the token request with ${redactOrigin(failure.detail ?? 'a redirect', secrets)}. n8n does not follow it, so the client secret and refresh token go only to the configured host: correct the Connect Base URL in the App Builder API credential.`;
		case 'unreachable':
			return `Could not reach the Connect API${detail}. Check the Connect Base URL in the App Builder API credential and that n8n can reach that host.`;
		case 'request_failed':
			return `The token request to the Connect API failed${detail}. Check the Connect Base URL in the App Builder API credential.`;
		default:
			return `The Connect API answered the token request with status ${failure.status}${detail}. Check the Connect Base URL in the App Builder API credential.`;
	}
}

/** One line of bounded length: a long server message must not flood the error. */
function shorten(text: string): string {
	const oneLine = text
		.slice(0, MAX_DETAIL_LENGTH * 4)
		.replace(/\s+/g, ' ')
		.trim();
	return oneLine.length > MAX_DETAIL_LENGTH ? `${oneLine.slice(0, MAX_DETAIL_LENGTH - 1)}…` : oneLine;
}

/** expires_at is an epoch number of unstated unit (seconds or milliseconds); expires_in is seconds from now. */
function toExpiryMs(value: unknown, nowMs: number, isRelative: boolean): number {
	const number = typeof value === 'string' ? Number(value) : value;
	if (typeof number !== 'number' || !Number.isFinite(number) || number <= 0) return 0;
	if (isRelative) return nowMs + number * 1000;
	return number < 1e11 ? number * 1000 : number;
}

function asObject(body: unknown): IDataObject {
	if (typeof body === 'string') {
		try {
			const parsed: unknown = JSON.parse(body);
			return typeof parsed === 'object' && parsed !== null ? (parsed as IDataObject) : {};
		} catch {
			return {};
		}
	}
	return typeof body === 'object' && body !== null ? (body as IDataObject) : {};
}
