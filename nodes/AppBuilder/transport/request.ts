import type {
	IDataObject,
	IExecuteFunctions,
	IHttpRequestOptions,
	ILoadOptionsFunctions,
	IPollFunctions,
} from 'n8n-workflow';
import { sleep } from 'n8n-workflow';

import {
	joinUrl,
	WEB_SERVICE_ENDPOINTS,
	type WebServiceEndpoint,
} from '../../shared/appBuilderApi';
import { AnswerLimitExceeded } from '../../shared/http/answerLimits';
import { boundedChunks } from '../../shared/http/answerReading';
import { ACCEPT_ENCODING, isDecodingFailure } from '../../shared/http/contentCoding';
import { asNetworkFailure } from '../../shared/http/networkFailure';
import { redirectFailure, type RedirectFailure } from '../../shared/http/redirectTarget';
import { RequestGate } from '../../shared/http/requestGate';
import {
	DEFAULT_RETRY_POLICY,
	nextAttemptAfterFailure,
	nextAttemptAfterRateLimit,
	type NextAttempt,
	type RetryPolicy,
} from '../../shared/http/retryPolicy';
import { valueRedactor, type ValueRedactor } from '../../shared/text/redact';
import {
	MAX_WHOLE_ANSWER_BYTES,
	ReadingStopped,
	type StreamReader,
} from '../../shared/http/streamReading';
import { streamedOutcome, type AnswerReading, type StreamedResponse } from './streamedOutcome';
import { readWebServiceCredentials } from './webServiceCredentials';
import type { CallFailure, LimitFailure, OtherFailure } from './callFailure';
import { classifyFailure } from './failureClass';
import { webServiceError, type FailureDetails } from './webServiceError';

export type WebServiceContext = IExecuteFunctions | IPollFunctions | ILoadOptionsFunctions;

export interface WebServiceCallOptions {
	itemIndex?: number;
	retry?: Partial<RetryPolicy>;
	/** How long one attempt may go without a byte arriving (a hung connection ends here). */
	timeoutMs?: number;
	/**
	 * How long one answer may take from the request to its last byte (a server that drips ends here).
	 */
	answerTimeoutMs?: number;
	/** When the whole call, every attempt and wait included, must have ended (epoch ms). */
	deadlineAt?: number;
	/**
	 * Reads a successful answer chunk by chunk as it arrives instead of taking
	 * it whole (see StreamReading in nodes/shared/http/streamReading.ts).
	 */
	readStream?: StreamReader;
}

const DEFAULT_IDLE_TIMEOUT_MS = 60_000;
export const DEFAULT_ANSWER_TIMEOUT_MS = 120_000;
/**
 * An answer read as it arrives keeps only what it needs (one read whole is
 * bounded by MAX_WHOLE_ANSWER_BYTES).
 */
export const MAX_STREAMED_ANSWER_BYTES = 300 * 1024 * 1024;

/** One gate per node run (or poll): the requests of all its items share it. */
const gateOfRun = new WeakMap<WebServiceContext, RequestGate>();

function gateFor(context: WebServiceContext): RequestGate {
	let gate = gateOfRun.get(context);
	if (!gate) {
		gate = new RequestGate();
		gateOfRun.set(context, gate);
	}
	return gate;
}

/**
 * The one place that calls the App Builder web services. It sends the
 * ACCESSTOKEN header itself rather than through n8n's authenticated request,
 * which would first run the credential's Connect refresh these calls do not
 * need (see ARCHITECTURE.md, "Calling the web services").
 */
export async function callWebService(
	context: WebServiceContext,
	endpoint: WebServiceEndpoint,
	params: IDataObject,
	options: WebServiceCallOptions = {},
): Promise<IDataObject> {
	const credentials = await readWebServiceCredentials(context, options.itemIndex);
	const secrets = [...credentials.secrets, params.password];
	// Answers go into output items: an echoed secret is taken out of every
	// one, read whole or as it arrives.
	const redact = valueRedactor(secrets);
	const { path, method, sendsApiKey } = WEB_SERVICE_ENDPOINTS[endpoint];
	const url = joinUrl(credentials.baseUrl, path);
	const request: IHttpRequestOptions = {
		method: 'POST',
		url,
		body: { method, ...(sendsApiKey ? { apiKey: credentials.apiKey } : {}), ...params },
		headers: {
			'Content-Type': 'application/json',
			Accept: 'application/json',
			'Accept-Encoding': ACCEPT_ENCODING,
			ACCESSTOKEN: credentials.accessToken,
		},
		json: true,
		// Read as a stream, so that a deadline and a size bound apply to every answer
		// (decoded, when it came compressed).
		encoding: 'stream',
		returnFullResponse: true,
		ignoreHttpStatusErrors: true,
		disableFollowRedirect: true,
		timeout: options.timeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS,
	};
	const policy: RetryPolicy = { ...DEFAULT_RETRY_POLICY, ...options.retry };
	const gate = gateFor(context);
	const startedAt = Date.now();
	// 429 answers are counted apart: they are back-pressure and do not use up
	// the attempts meant for failures.
	let failures = 0;
	let rateLimited = 0;

	for (;;) {
		await gate.enter();
		let failure: CallFailure;
		try {
			const outcome = await attemptOnce(context, request, options, redact);
			if (outcome.ok) {
				gate.passed();
				return outcome.body;
			}
			failure = outcome;
		} finally {
			gate.leave();
		}

		const answeredAt = Date.now();
		const retryAfterMs = failure.kind === 'api' ? failure.retryAfterMs : undefined;
		const failureClass = classifyFailure(failure);
		let next: NextAttempt;
		if (failureClass.retry === 'wait-out') {
			gate.rateLimited();
			rateLimited++;
			next = nextAttemptAfterRateLimit(
				policy,
				{ rateLimited, elapsedMs: answeredAt - startedAt },
				retryAfterMs,
				Math.random(),
			);
		} else {
			failures++;
			next =
				failureClass.retry === 'again'
					? nextAttemptAfterFailure(policy, failures, retryAfterMs, Math.random())
					: { retry: false, stop: 'not-retryable' };
		}
		if (
			next.retry &&
			options.deadlineAt !== undefined &&
			Date.now() + next.delayMs >= options.deadlineAt
		)
			next = { retry: false, stop: 'deadline' };
		if (!next.retry) {
			// The error says what the node did: how often it tried, why it stopped, and
			// when the API said to come back.
			throw webServiceError(context.getNode(), failure, {
				failures,
				rateLimited,
				elapsedMs: Date.now() - startedAt,
				secrets,
				itemIndex: options.itemIndex,
				stop: next.stop,
				retryAtMs: retryAfterMs === undefined ? undefined : answeredAt + retryAfterMs,
				policy,
				poll: pollOf(context),
			});
		}
		await sleep(next.delayMs);
	}
}

/**
 * A trigger's poll: of an active workflow, which n8n polls again on its
 * schedule, or Fetch Test Event.
 */
function pollOf(context: WebServiceContext): FailureDetails['poll'] {
	if (typeof context.getActivationMode !== 'function') return undefined;
	return context.getMode?.() === 'manual' ? 'test' : 'scheduled';
}

/** Thrown inside an attempt when the answer is a redirect, which is never followed. */
class Redirected extends Error {
	constructor(readonly failure: RedirectFailure) {
		super('redirected');
	}
}

async function attemptOnce(
	context: WebServiceContext,
	request: IHttpRequestOptions,
	options: WebServiceCallOptions,
	redact: ValueRedactor,
): Promise<Awaited<ReturnType<typeof streamedOutcome>> | CallFailure> {
	const startedAt = Date.now();
	const deadlineAt = Math.min(
		startedAt + (options.answerTimeoutMs ?? DEFAULT_ANSWER_TIMEOUT_MS),
		options.deadlineAt ?? Number.POSITIVE_INFINITY,
	);
	const timeLimit: LimitFailure = {
		ok: false,
		kind: 'limit',
		limit: 'time',
		bound: Math.max(1, Math.round((deadlineAt - startedAt) / 1000)),
	};
	// The deadline also ends a wait for headers or for the next byte; the
	// execution's own cancel stops it too.
	const deadline = AbortSignal.timeout(Math.max(1, deadlineAt - Date.now()));
	const cancel =
		'getExecutionCancelSignal' in context ? context.getExecutionCancelSignal?.() : undefined;
	const signal = cancel ? AbortSignal.any([deadline, cancel]) : deadline;
	const send = async (reading: AnswerReading): Promise<StreamedResponse> => {
		// An answer held whole is parsed whole, so it is bounded lower than one read as it arrives.
		const maxBytes = reading === 'whole' ? MAX_WHOLE_ANSWER_BYTES : MAX_STREAMED_ANSWER_BYTES;
		const response = (await context.helpers.httpRequest({ ...request, abortSignal: signal })) as {
			statusCode: number;
			headers?: Record<string, unknown>;
			body: AsyncIterable<Buffer | string> & { destroy?: () => void };
		};
		const redirect = redirectFailure(response.statusCode, response.headers, String(request.url));
		if (redirect) {
			response.body?.destroy?.();
			throw new Redirected(redirect);
		}
		return {
			statusCode: response.statusCode,
			headers: response.headers,
			chunks: boundedChunks(response.body, { deadlineAt, maxBytes }),
		};
	};

	try {
		return await streamedOutcome(send, redact, options.readStream);
	} catch (error) {
		if (error instanceof ReadingStopped) throw error.reason;
		if (error instanceof Redirected) return error.failure;
		if (error instanceof AnswerLimitExceeded) {
			return error.limit === 'time'
				? timeLimit
				: { ok: false, kind: 'limit', limit: error.limit, bound: error.bound };
		}
		if (deadline.aborted) return timeLimit;
		if (cancel?.aborted)
			return { ok: false, kind: 'other', message: 'the execution was cancelled' };
		if (isDecodingFailure(error)) return { ok: false, kind: 'undecodable' };
		return asNetworkFailure(error) ?? otherFailure(error);
	}
}

function otherFailure(error: unknown): OtherFailure {
	return {
		ok: false,
		kind: 'other',
		message: error instanceof Error ? error.message : String(error),
	};
}
