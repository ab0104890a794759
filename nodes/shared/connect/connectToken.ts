import type { IDataObject, IHttpRequestHelper } from 'n8n-workflow';

import { CONNECT_GRANT_PATH, joinUrl } from '../appBuilderApi';
import { AnswerLimitExceeded } from '../http/answerLimits';
import { boundedChunks, collectAnswer, type AnswerBounds } from '../http/answerReading';
import { asNetworkFailure, networkFailureWords } from '../http/networkFailure';
import { describeRedirect, isRedirectStatus } from '../http/redirectTarget';
import { redactOrigin, redactSecrets } from '../text/redact';

// The Connect API's token exchange (refresh_token grant), shared by the credential's
// preAuthentication and by the credential test.

export interface ConnectClient {
	connectBaseUrl: string;
	clientId: string;
	clientSecret: string;
	/**
	 * The credential's web-service access token, sent as the ACCESSTOKEN header as
	 * in the spec's reference sample.
	 */
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
	/** The bound that was passed: seconds for 'timed_out', bytes for 'too_large'. */
	bound?: number;
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
	| 'timed_out'
	| 'too_large'
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

/**
 * Longest piece of server or error text put into a message (after
 * redaction, so no secret is cut in half).
 */
const MAX_DETAIL_LENGTH = 200;

/**
 * How long a token request may take, from sending it to the answer's last
 * byte: a token endpoint (or a proxy) that drips its answer must not keep
 * every Connect call waiting on it (see sharedRefresh.ts).
 */
export const TOKEN_REQUEST_DEADLINE_MS = 30_000;
/** A token answer is a few hundred bytes; one past this is not a token answer. */
export const MAX_TOKEN_ANSWER_BYTES = 64 * 1024;

export interface TokenRequestBounds {
	/**
	 * Ends the request early (a shared request's own deadline); the
	 * request's deadline applies either way.
	 */
	signal?: AbortSignal;
	/** From sending the request to the answer's last byte. */
	deadlineMs?: number;
	maxBytes?: number;
}

export async function exchangeRefreshToken(
	httpRequest: HttpRequest,
	client: ConnectClient,
	refreshToken: string,
	bounds: TokenRequestBounds = {},
): Promise<TokenExchangeResult> {
	const deadlineMs = bounds.deadlineMs ?? TOKEN_REQUEST_DEADLINE_MS;
	const maxBytes = bounds.maxBytes ?? MAX_TOKEN_ANSWER_BYTES;
	const deadlineAt = Date.now() + deadlineMs;
	const deadline = AbortSignal.timeout(deadlineMs);
	const signal = bounds.signal ? AbortSignal.any([deadline, bounds.signal]) : deadline;
	const timedOut: TokenExchangeFailure = {
		ok: false,
		reason: 'timed_out',
		status: 0,
		bound: Math.ceil(deadlineMs / 1000),
	};
	const url = joinUrl(client.connectBaseUrl, CONNECT_GRANT_PATH);
	const headers: IDataObject = { 'Content-Type': 'application/json' };
	if (client.accessToken) headers.ACCESSTOKEN = client.accessToken;
	let response: { statusCode: number; headers?: unknown; body: unknown };
	try {
		// The race ends the wait at the deadline even where a helper does not stop on the signal.
		response = await untilAborted(signal, async () => {
			const answer = (await httpRequest({
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
				// Read as a stream, so the deadline and the size bound hold for the answer's every byte.
				encoding: 'stream',
				abortSignal: signal,
				returnFullResponse: true,
				ignoreHttpStatusErrors: true,
				// A redirect would resend the secrets in the body and the ACCESSTOKEN header elsewhere.
				disableFollowRedirect: true,
				timeout: deadlineMs,
			})) as { statusCode: number; headers?: unknown; body: unknown };
			return { ...answer, body: await boundedBody(answer.body, { deadlineAt, maxBytes }) };
		});
	} catch (error) {
		if (error instanceof AnswerLimitExceeded) {
			return error.limit === 'bytes'
				? { ok: false, reason: 'too_large', status: 0, bound: maxBytes }
				: timedOut;
		}
		if (signal.aborted) return timedOut;
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
	if (
		response.statusCode >= 200 &&
		response.statusCode < 300 &&
		typeof body.access_token === 'string'
	) {
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
		case 'timed_out':
			return `The Connect API did not finish answering the token request within ${seconds(failure.bound ?? TOKEN_REQUEST_DEADLINE_MS / 1000)}. Check the Connect Base URL in the App Builder API credential; if it is right, try again later.`;
		case 'too_large':
			return `The Connect API's answer to the token request is larger than ${Math.round((failure.bound ?? MAX_TOKEN_ANSWER_BYTES) / 1024)} KB, so it is not a token answer. Check the Connect Base URL in the App Builder API credential.`;
		case 'unreachable':
			return `Could not reach the Connect API${detail}. Check the Connect Base URL in the App Builder API credential and that n8n can reach that host.`;
		case 'request_failed':
			return `The token request to the Connect API failed${detail}. Check the Connect Base URL in the App Builder API credential.`;
		default:
			return `The Connect API answered the token request with status ${failure.status}${detail}. Check the Connect Base URL in the App Builder API credential.`;
	}
}

function seconds(count: number): string {
	return `${count} ${count === 1 ? 'second' : 'seconds'}`;
}

/** Runs `work` until it settles or `signal` aborts, whichever comes first. */
async function untilAborted<T>(signal: AbortSignal, work: () => Promise<T>): Promise<T> {
	let onAbort: () => void = () => {};
	const aborted = new Promise<never>((_resolve, reject) => {
		onAbort = () => reject(new Error('aborted'));
		if (signal.aborted) onAbort();
		else signal.addEventListener('abort', onAbort, { once: true });
	});
	try {
		return await Promise.race([work(), aborted]);
	} finally {
		signal.removeEventListener('abort', onAbort);
	}
}

/**
 * The answer's body within its bounds: a stream is read to its end, or
 * stopped with AnswerLimitExceeded at the deadline or the size bound. A body
 * a helper already read (the credential test's older helper) is taken as it is.
 */
async function boundedBody(body: unknown, bounds: AnswerBounds): Promise<unknown> {
	if (!isAsyncIterable(body)) return body;
	try {
		return (await collectAnswer(boundedChunks(body, bounds))).toString('utf8');
	} finally {
		(body as { destroy?: () => void }).destroy?.();
	}
}

function isAsyncIterable(value: unknown): value is AsyncIterable<Buffer | string> {
	return typeof value === 'object' && value !== null && Symbol.asyncIterator in value;
}

/** One line of bounded length: a long server message must not flood the error. */
function shorten(text: string): string {
	const oneLine = text
		.slice(0, MAX_DETAIL_LENGTH * 4)
		.replace(/\s+/g, ' ')
		.trim();
	return oneLine.length > MAX_DETAIL_LENGTH
		? `${oneLine.slice(0, MAX_DETAIL_LENGTH - 1)}…`
		: oneLine;
}

/**
 * expires_at is an epoch number of unstated unit (seconds or milliseconds);
 * expires_in is seconds from now.
 */
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
