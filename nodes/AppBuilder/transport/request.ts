import type {
	ICredentialDataDecryptedObject,
	ICredentialsDecrypted,
	IDataObject,
	IExecuteFunctions,
	IHttpRequestOptions,
	ILoadOptionsFunctions,
	IPollFunctions,
	JsonObject,
} from 'n8n-workflow';
import { NodeApiError, sleep } from 'n8n-workflow';

import { CREDENTIAL_TYPE } from '../credentialType';
import { joinUrl, WEB_SERVICE_ENDPOINTS, type WebServiceEndpoint } from './endpoints';
import { meaningOf } from './errorCatalog';
import { interpretResponse, isUnreadableBody, type WebServiceFailure } from './interpretResponse';
import type { StreamReading } from './readInquiryStream';
import { redactSecrets } from './redact';
import { DEFAULT_RETRY_POLICY, delayBeforeNextAttempt, type RetryPolicy } from './retryPolicy';
import { streamedOutcome, type HttpResponse } from './streamedOutcome';

export type WebServiceContext = IExecuteFunctions | IPollFunctions | ILoadOptionsFunctions;

export interface WebServiceCallOptions {
	itemIndex?: number;
	retry?: Partial<RetryPolicy>;
	/** How long one attempt may wait for an answer (a hung connection ends here). */
	timeoutMs?: number;
	/**
	 * Reads a successful answer chunk by chunk as it arrives instead of taking
	 * it whole (see readInquiryStream.ts).
	 */
	readStream?: (chunks: AsyncIterable<Buffer | string>) => Promise<StreamReading>;
}

const DEFAULT_TIMEOUT_MS = 60_000;

/**
 * The credential as read once per node run (or poll). n8n reads and decrypts
 * a credential from its database on every request otherwise, which over a
 * thousand items costs more than the requests themselves. A Connect token
 * fetched during the run is written into this same object by n8n.
 */
const credentialsOfRun = new WeakMap<WebServiceContext, Promise<ICredentialsDecrypted>>();

function credentialsFor(context: WebServiceContext, itemIndex: number): Promise<ICredentialsDecrypted> {
	let cached = credentialsOfRun.get(context);
	if (!cached) {
		const reference = context.getNode().credentials?.[CREDENTIAL_TYPE];
		cached = context.getCredentials<ICredentialDataDecryptedObject>(CREDENTIAL_TYPE, itemIndex).then((data) => ({
			id: reference?.id ?? '',
			name: reference?.name ?? '',
			type: CREDENTIAL_TYPE,
			data,
		}));
		// A failed read is not kept, so the next item reports its own error.
		cached.catch(() => credentialsOfRun.delete(context));
		credentialsOfRun.set(context, cached);
	}
	return cached;
}

/** Network failures that say nothing about the request itself, so a later attempt may pass. */
const TRANSIENT_NETWORK_CODES = new Set([
	'ECONNRESET',
	'ECONNABORTED',
	'ETIMEDOUT',
	'ESOCKETTIMEDOUT',
	'EPIPE',
	'EAI_AGAIN',
	'ECONNREFUSED',
	'ERR_SOCKET_CONNECTION_TIMEOUT',
]);

/**
 * The one place that calls the App Builder web services: sends the request
 * with the credential's ACCESSTOKEN, recognises every error form, retries what
 * is worth retrying (honouring Retry-After), and turns the rest into a
 * NodeApiError that says what to fix. No secret reaches the error.
 */
export async function callWebService(
	this: WebServiceContext,
	endpoint: WebServiceEndpoint,
	params: IDataObject,
	options: WebServiceCallOptions = {},
): Promise<IDataObject> {
	const credentialsDecrypted = await credentialsFor(this, options.itemIndex ?? 0);
	const credentials = credentialsDecrypted.data ?? {};
	const secrets = [
		credentials.accessToken,
		credentials.apiKey,
		credentials.clientSecret,
		credentials.refreshToken,
		credentials.connectAccessToken,
		params.password,
	];
	const { path, method, sendsApiKey } = WEB_SERVICE_ENDPOINTS[endpoint];
	const request: IHttpRequestOptions = {
		method: 'POST',
		url: joinUrl(String(credentials.baseUrl ?? ''), path),
		body: { method, ...(sendsApiKey ? { apiKey: String(credentials.apiKey ?? '') } : {}), ...params },
		headers: { 'Content-Type': 'application/json' },
		json: true,
		// Read the body as text: an HTML error page or a cut-short JSON body
		// must reach interpretResponse intact rather than fail inside the HTTP client.
		encoding: 'text',
		returnFullResponse: true,
		ignoreHttpStatusErrors: true,
		timeout: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
	};
	const policy: RetryPolicy = { ...DEFAULT_RETRY_POLICY, ...options.retry };
	const send = async (sent: IHttpRequestOptions) =>
		(await this.helpers.httpRequestWithAuthentication.call(this, CREDENTIAL_TYPE, sent, {
			credentialsDecrypted,
		})) as HttpResponse;

	for (let attempt = 1; ; attempt++) {
		let failure: WebServiceFailure | NetworkFailure;
		try {
			const outcome = options.readStream
				? await streamedOutcome(send, request, options.readStream)
				: interpretResponse(await send(request), Date.now());
			if (outcome.ok) return outcome.body;
			failure = outcome;
		} catch (error) {
			failure = toNetworkFailure(error);
		}

		const retryable = isRetryable(failure);
		const delay = retryable
			? delayBeforeNextAttempt(policy, attempt, retryAfterOf(failure), Math.random())
			: undefined;
		if (delay === undefined) {
			throw buildError(this, failure, { attempts: attempt, retryable, secrets, itemIndex: options.itemIndex });
		}
		await sleep(delay);
	}
}

const NETWORK_FAILURE_WORDS: Record<string, string> = {
	ECONNRESET: 'the connection was reset',
	EPIPE: 'the connection was reset',
	ECONNABORTED: 'no answer in time',
	ETIMEDOUT: 'no answer in time',
	ESOCKETTIMEDOUT: 'no answer in time',
	ERR_SOCKET_CONNECTION_TIMEOUT: 'no answer in time',
	ECONNREFUSED: 'the connection was refused',
	ENOTFOUND: 'the host name was not found',
	EAI_AGAIN: 'the host name could not be looked up',
};

interface NetworkFailure {
	ok: false;
	network: true;
	errorCode?: string;
	message: string;
}

function isNetworkFailure(failure: WebServiceFailure | NetworkFailure): failure is NetworkFailure {
	return 'network' in failure;
}

function isRetryable(failure: WebServiceFailure | NetworkFailure): boolean {
	if (isNetworkFailure(failure)) {
		return failure.errorCode !== undefined && TRANSIENT_NETWORK_CODES.has(failure.errorCode);
	}
	// A 2xx whose body is cut short or not JSON: the connection most likely broke mid-answer.
	if (failure.bodyKind === 'malformed-json' || failure.bodyKind === 'empty') return true;
	return meaningOf(failure.code).retryable || meaningOf(failure.httpStatus).retryable;
}

function retryAfterOf(failure: WebServiceFailure | NetworkFailure): number | undefined {
	return isNetworkFailure(failure) ? undefined : failure.retryAfterMs;
}

/** Digs the system error code (ECONNRESET, ...) out of whatever the HTTP helper threw. */
function toNetworkFailure(error: unknown): NetworkFailure {
	let current: unknown = error;
	let errorCode: string | undefined;
	for (let depth = 0; depth < 5 && current && typeof current === 'object'; depth++) {
		const code = (current as { code?: unknown }).code;
		if (typeof code === 'string' && /^E[A-Z_]+$/.test(code)) {
			errorCode = code;
			break;
		}
		current = (current as { cause?: unknown }).cause;
	}
	const message = error instanceof Error ? error.message : String(error);
	if (!errorCode) {
		const match = /\b(E[A-Z]{4,}[A-Z_]*)\b/.exec(message);
		errorCode = match?.[1];
	}
	if (!errorCode && /timeout/i.test(message)) errorCode = 'ETIMEDOUT';
	if (!errorCode && /socket hang up/i.test(message)) errorCode = 'ECONNRESET';
	return { ok: false, network: true, errorCode, message };
}

function buildError(
	context: WebServiceContext,
	failure: WebServiceFailure | NetworkFailure,
	details: { attempts: number; retryable: boolean; secrets: unknown[]; itemIndex?: number },
): NodeApiError {
	const tried = details.retryable && details.attempts > 1 ? ` (tried ${details.attempts} times)` : '';
	const node = context.getNode();

	if (isNetworkFailure(failure)) {
		// In words: n8n replaces a message that names a system code with its own generic text.
		const reason = NETWORK_FAILURE_WORDS[failure.errorCode ?? ''] ?? 'the connection failed';
		const fix =
			failure.errorCode === 'ENOTFOUND' || failure.errorCode === 'ECONNREFUSED'
				? 'Check the Web Service Base URL in the App Builder API credential and that n8n can reach that host.'
				: 'The connection to the App Builder API broke before an answer arrived. Try again later.';
		return new NodeApiError(node, { unreachable: true } as JsonObject, {
			message: `Could not reach the App Builder API: ${reason}${tried}`,
			description: failure.errorCode ? `${fix} (${failure.errorCode})` : fix,
			itemIndex: details.itemIndex,
		});
	}

	const meaning = meaningOf(failure.code);
	let message = meaning.message;
	let description = meaning.fix;
	if (isUnreadableBody(failure)) {
		message = `The App Builder API sent an answer that is not JSON (${describeBodyKind(failure)})`;
		description =
			'The answer was cut short or came from something other than the API (a proxy, a login page). Check the Web Service Base URL in the App Builder API credential; if it is right, try again later.';
	}
	const apiSays = failure.apiMessage
		? redactSecrets(failure.apiMessage, details.secrets)
		: undefined;
	if (apiSays) description = `${description} The API said: "${apiSays}".`;
	return new NodeApiError(
		node,
		{ code: failure.code, httpStatus: failure.httpStatus, ...(apiSays ? { apiMessage: apiSays } : {}) },
		{
			message: `${message}${tried}`,
			description,
			httpCode: String(failure.code),
			itemIndex: details.itemIndex,
		},
	);
}

function describeBodyKind(failure: WebServiceFailure): string {
	switch (failure.bodyKind) {
		case 'html':
			return 'an HTML page';
		case 'malformed-json':
			return 'JSON cut short';
		case 'empty':
			return 'an empty body';
		case 'text':
			return 'plain text';
		default:
			return 'unexpected JSON';
	}
}
