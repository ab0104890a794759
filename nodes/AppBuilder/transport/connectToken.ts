import type { IDataObject, IHttpRequestHelper } from 'n8n-workflow';

import { CONNECT_GRANT_PATH, joinUrl } from './endpoints';
import { redactSecrets } from './redact';

/**
 * The Connect API's token exchange (refresh_token grant), shared by the
 * credential's preAuthentication and by the credential test.
 */
export interface ConnectClient {
	connectBaseUrl: string;
	clientId: string;
	clientSecret: string;
}

export interface ConnectTokens {
	accessToken: string;
	refreshToken: string;
	/** Epoch milliseconds, 0 when the service did not say. */
	expiresAtMs: number;
}

export type TokenExchangeResult =
	| { ok: true; tokens: ConnectTokens }
	| { ok: false; reason: TokenFailureReason; status: number; detail?: string };

export type TokenFailureReason =
	| 'invalid_client'
	| 'invalid_grant'
	| 'invalid_request'
	| 'unsupported_grant_type'
	| 'unexpected_response'
	| 'unreachable';

type HttpRequest = IHttpRequestHelper['helpers']['httpRequest'];

export async function exchangeRefreshToken(
	httpRequest: HttpRequest,
	client: ConnectClient,
	refreshToken: string,
): Promise<TokenExchangeResult> {
	let response: { statusCode: number; body: unknown };
	try {
		response = (await httpRequest({
			method: 'POST',
			url: joinUrl(client.connectBaseUrl, CONNECT_GRANT_PATH),
			// Client credentials in the body, as the spec's reference sample sends them.
			body: {
				grant_type: 'refresh_token',
				client_id: client.clientId,
				client_secret: client.clientSecret,
				refresh_token: refreshToken,
			},
			headers: { 'Content-Type': 'application/json' },
			json: true,
			returnFullResponse: true,
			ignoreHttpStatusErrors: true,
			timeout: 30_000,
		})) as { statusCode: number; body: unknown };
	} catch (error) {
		const detail = error instanceof Error ? error.message : String(error);
		return { ok: false, reason: 'unreachable', status: 0, detail };
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
	const known: TokenFailureReason[] = [
		'invalid_client',
		'invalid_grant',
		'invalid_request',
		'unsupported_grant_type',
	];
	const reason =
		errorCode && (known as string[]).includes(errorCode)
			? (errorCode as TokenFailureReason)
			: response.statusCode === 401
				? 'invalid_client'
				: 'unexpected_response';
	const detail = typeof body.error_description === 'string' ? body.error_description : undefined;
	return { ok: false, reason, status: response.statusCode, detail };
}

/** A sentence that names the credential field to fix, with no secret in it. */
export function describeTokenFailure(
	failure: Extract<TokenExchangeResult, { ok: false }>,
	secrets: unknown[],
): string {
	const detail = failure.detail ? ` (${redactSecrets(failure.detail, secrets)})` : '';
	switch (failure.reason) {
		case 'invalid_client':
			return `The Connect API rejected the Client ID or Client Secret${detail}. Copy both again into the App Builder API credential.`;
		case 'invalid_grant':
			return `The Connect API rejected the Refresh Token: it is wrong, expired or was already used${detail}. Get a new refresh token and paste it into the Refresh Token field of the App Builder API credential.`;
		case 'invalid_request':
		case 'unsupported_grant_type':
			return `The Connect API did not accept the token request${detail}. Check the Connect Base URL in the App Builder API credential.`;
		case 'unreachable':
			return `Could not reach the Connect API${detail}. Check the Connect Base URL in the App Builder API credential.`;
		default:
			return `The Connect API answered the token request with status ${failure.status}${detail}. Check the Connect Base URL in the App Builder API credential.`;
	}
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
