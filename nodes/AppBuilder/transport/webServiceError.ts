import type { INode } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import type { AnswerLimit } from '../../shared/http/answerLimits';
import { MAX_RETRY_AFTER_MS, MAX_RETRY_AFTER_YEARS } from '../../shared/http/retryAfter';
import { networkFailureWords, type NetworkFailure } from '../../shared/http/networkFailure';
import type { RetryPolicy, StopReason } from '../../shared/http/retryPolicy';
import { apiMessageForUser, redactOrigin } from '../../shared/text/redact';
import { durationText } from '../../shared/text/timeText';
import type { CallFailure, LimitFailure } from './callFailure';
import { CREDENTIAL } from './errorCatalog';
import { withFailureCause } from './failureCause';
import { classifyFailure, type ApiFailureClass } from './failureClass';
import type { WebServiceFailure } from './interpretResponse';

export interface FailureDetails {
	/** Attempts that failed other than with a 429, the last one included when it did. */
	failures: number;
	/** Answers of 429, the last one included when it was one. */
	rateLimited: number;
	/** Time from the call's start to its end. */
	elapsedMs: number;
	secrets: unknown[];
	itemIndex?: number;
	/** Why no further attempt was made. */
	stop: StopReason;
	/** When the last answer's Retry-After said to come back (epoch ms). */
	retryAtMs?: number;
	/** The bounds the call's retries kept to, which the words quote. */
	policy: RetryPolicy;
	/**
	 * A poll of an active trigger ('scheduled', which n8n polls again) or Fetch Test Event ('test').
	 */
	poll?: 'scheduled' | 'test';
}

/**
 * The error a node shows for a failed call: what happened and what to fix,
 * with no secret in it, and why it failed in n8n's terms, all as the
 * failure's class says (failureClass.ts).
 */
export function webServiceError(
	node: INode,
	failure: CallFailure,
	details: FailureDetails,
): NodeApiError {
	return withFailureCause(errorFor(node, failure, details), classifyFailure(failure));
}

function errorFor(node: INode, failure: CallFailure, details: FailureDetails): NodeApiError {
	const { itemIndex } = details;
	switch (failure.kind) {
		case 'redirect':
			return new NodeApiError(
				node,
				{ httpStatus: failure.httpStatus },
				{
					message: `The App Builder API answered with a redirect to ${redactOrigin(failure.target, details.secrets)}, which is not followed`,
					description: `Following it would send your access token and API key to that address. Correct the Web Service Base URL in ${CREDENTIAL} to the address the API answers on directly.`,
					httpCode: String(failure.httpStatus),
					itemIndex,
				},
			);
		case 'limit':
			return limitError(node, failure, details);
		case 'undecodable':
			return new NodeApiError(
				node,
				{ undecodable: true },
				{
					message:
						"The App Builder API's answer could not be decompressed: its compressed data is corrupt",
					description: `The answer said it was compressed, but its data could not be decoded, so none of it was used. Something between n8n and the API (a proxy) may have altered it. Check the Web Service Base URL in ${CREDENTIAL}; if it is right, try again later.`,
					itemIndex,
				},
			);
		case 'other':
			return new NodeApiError(
				node,
				{ requestFailed: true },
				{
					message: `The request to the App Builder API failed: ${apiMessageForUser(failure.message, details.secrets)}`,
					description: `Check the Web Service Base URL in ${CREDENTIAL}; if it is right, try again later.`,
					itemIndex,
				},
			);
		case 'network': {
			const description = sentences(
				whatTheNodeDid(details, undefined),
				networkFix(failure),
				details.stop === 'not-retryable' ? '' : nextStep(details, false),
			);
			return new NodeApiError(
				node,
				{ unreachable: true },
				{
					message: `Could not reach the App Builder API: ${networkFailureWords(failure)}${triedText(details, true)}`,
					description: `${description} (${failure.errorCode})`,
					itemIndex,
				},
			);
		}
		case 'api':
			return apiError(node, failure, details);
	}
}

const TRIGGER_RATE_LIMIT_FIX =
	'The limit is shared by everything that uses this access token: other workflows (Add User with a high Concurrency) or apps sending many requests leave less for the trigger. A longer Poll Times interval also helps.';

function apiError(node: INode, failure: WebServiceFailure, details: FailureDetails): NodeApiError {
	const { text: comeBack, at: comeBackAt } = comeBackOf(failure.retryAfterMs, details.retryAtMs);
	const { message, description } = apiErrorWords(
		failure,
		classifyFailure(failure),
		details,
		comeBack,
		comeBackAt,
	);
	const apiSays = failure.apiMessage
		? apiMessageForUser(failure.apiMessage, details.secrets)
		: undefined;
	return new NodeApiError(
		node,
		{
			code: failure.code,
			httpStatus: failure.httpStatus,
			...(apiSays ? { apiMessage: apiSays } : {}),
		},
		{
			message,
			description: apiSays ? `${description} The API said: "${apiSays}".` : description,
			httpCode: String(failure.code),
			itemIndex: details.itemIndex,
		},
	);
}

/** What an answer of the API that is not a success says, in the words its class gives. */
function apiErrorWords(
	failure: WebServiceFailure,
	failureClass: ApiFailureClass,
	details: FailureDetails,
	comeBack: string | undefined,
	comeBackAt: string | undefined,
): { message: string; description: string } {
	const { words } = failureClass;
	if (words.kind === 'not-json') {
		return {
			message: `The App Builder API sent an answer that is not JSON (${describeBodyKind(words.bodyKind)})${triedText(details)}`,
			description: sentences(
				whatTheNodeDid(details, comeBack),
				`The answer was cut short or came from something other than the API (a proxy, a login page). Check the Web Service Base URL in ${CREDENTIAL}.`,
				nextStep(details, comeBackAt !== undefined),
			),
		};
	}
	const { meaning } = words;
	const isRateLimit = failureClass.retry === 'wait-out';
	// The trigger has no Concurrency to lower: its requests are one per form and poll.
	const fix = isRateLimit && details.poll !== undefined ? TRIGGER_RATE_LIMIT_FIX : meaning.fix;
	return {
		message: isRateLimit
			? rateLimitMessage(failure, details)
			: `${meaning.message}${triedText(details)}`,
		description:
			details.stop === 'not-retryable'
				? fix
				: sentences(
						whatTheNodeDid(details, comeBack),
						nextStep(details, comeBackAt !== undefined),
						fix,
					),
	};
}

/**
 * How often a call was tried: always when it might have been tried again or
 * `always` (a host not reached), so an error never leaves open whether it
 * was, otherwise only when more than once; attempts that failed (like the
 * last one) and, told apart, answers of 429 on the way.
 */
function triedText(details: FailureDetails, always = false): string {
	const { failures, rateLimited } = details;
	if (rateLimited === 0) {
		if (failures > 1) return ` (tried ${failures} times)`;
		return details.stop === 'not-retryable' && !always ? '' : ' (tried once)';
	}
	return ` (tried ${failures + rateLimited} times: ${failures} failed this way, ${wasWere(rateLimited)} rate-limited)`;
}

/**
 * Why a call gave up on a rate limit: it went on too long, or the API asked for a wait
 * longer than the call may take.
 */
function rateLimitMessage(failure: WebServiceFailure, details: FailureDetails): string {
	const { failures, rateLimited, elapsedMs, stop } = details;
	const tried =
		failures === 0
			? rateLimited === 1
				? ' (tried once)'
				: ''
			: ` (tried ${failures + rateLimited} times: ${wasWere(rateLimited)} rate-limited, ${failures} failed another way)`;
	if (rateLimited > 1) {
		return `The App Builder API kept rate-limiting the request: it answered 429 (too many requests) ${rateLimited} times in ${duration(elapsedMs)}${tried}`;
	}
	const outOfTime = stop === 'rate-limit-time' || stop === 'deadline';
	if (outOfTime && failure.retryAfterMs !== undefined && failure.retryAfterMs >= 1000) {
		return `The App Builder API is rate-limiting the request (429, too many requests) and asks to wait ${waitText(failure.retryAfterMs)}, longer than the node waits${tried}`;
	}
	return outOfTime
		? `The App Builder API is rate-limiting the request (429, too many requests), and there is no time left to wait${tried}`
		: `The App Builder API is rate-limiting the request (429, too many requests)${tried}`;
}

/**
 * What the node did about a failure it might have tried again: how often it
 * tried, and when it stopped before its attempts were used up, why. Every
 * claim follows the path the call took (request.ts, retryPolicy.ts).
 */
function whatTheNodeDid(details: FailureDetails, comeBack: string | undefined): string {
	const { policy } = details;
	const attempts = details.failures + details.rateLimited;
	const stopped =
		attempts === 1
			? 'The node did not try again'
			: `The node tried ${attempts} times, then stopped`;
	const afterRateLimits =
		details.rateLimited > 1
			? 'The node waited and tried again after each 429 but the last'
			: 'The node did not try again after this 429';
	switch (details.stop) {
		case 'not-retryable':
			return '';
		case 'attempts': {
			const tried =
				attempts === 1
					? 'The node tried once and made no further attempt.'
					: `The node tried ${attempts} times in ${duration(details.elapsedMs)}.`;
			return comeBack ? `${tried} The API asked to ${comeBack}.` : tried;
		}
		case 'server-wait':
			return `${stopped}: the API asked to ${comeBack ?? 'wait'}, and the node waits at most ${duration(policy.maxDelayMs)} between attempts.`;
		case 'deadline':
			return `${stopped}: the wait before another attempt would have outlasted ${details.poll ? 'the time n8n gives one poll' : 'the time this request may take'}.`;
		case 'rate-limit-count':
			return `${afterRateLimits}: it takes at most ${policy.maxRateLimited} answers of 429 for one request.`;
		case 'rate-limit-time':
			return `${afterRateLimits}: it waits out a rate limit only until ${duration(policy.rateLimitBudgetMs)} after a request's first attempt, and ${comeBack ? `the API asked to ${comeBack}` : 'that time was up'}.`;
	}
}

/**
 * What the user can do now: the trigger polls again by itself; anyone else runs again, after the
 * time the API gave if it gave one.
 */
function nextStep(details: FailureDetails, afterComeBack: boolean): string {
	if (details.poll === 'scheduled') return 'The trigger tries again at its next poll.';
	return afterComeBack ? 'Try again after that time.' : 'Try again later.';
}

/**
 * "come back in 3 minutes (at 2030-01-02T03:04:05Z)", when the last answer
 * said so and the wait was not a mere moment; the moment alone as `at`. A
 * wait at the longest the node reads names no moment.
 */
function comeBackOf(
	retryAfterMs: number | undefined,
	retryAtMs: number | undefined,
): { text?: string; at?: string } {
	if (retryAfterMs === undefined || retryAtMs === undefined || retryAfterMs < 1000) return {};
	const moment = new Date(Math.round(retryAtMs / 1000) * 1000);
	// A time past what a Date holds is NaN, and toISOString would throw.
	if (retryAfterMs >= MAX_RETRY_AFTER_MS || Number.isNaN(moment.getTime()))
		return { text: `come back in ${waitText(retryAfterMs)}` };
	const at = moment.toISOString().replace('.000Z', 'Z');
	return { text: `come back in ${duration(retryAfterMs)} (at ${at})`, at };
}

/**
 * A wait the API asked for, in words; one at the longest the node reads
 * (retryAfter.ts) is said to be at least that.
 */
function waitText(ms: number): string {
	return ms >= MAX_RETRY_AFTER_MS ? `${MAX_RETRY_AFTER_YEARS} years or more` : duration(ms);
}

/**
 * A wait or a span in a user's words, never shorter than it was in seconds: "8 seconds", "7
 * minutes", "2 hours 5 minutes".
 */
function duration(ms: number): string {
	if (ms < 1000) return 'less than a second';
	const seconds = Math.ceil(ms / 1000);
	if (seconds < 120) return `${seconds} ${seconds === 1 ? 'second' : 'seconds'}`;
	return durationText(ms);
}

/**
 * What to check after a network failure, true to what happened: a host not
 * reached, or a connection that broke.
 */
function networkFix(failure: NetworkFailure): string {
	if (BROKEN_CONNECTION.has(failure.errorCode))
		return 'The connection to the App Builder API broke before an answer arrived.';
	if (NOT_REACHED.has(failure.errorCode))
		return `Check the Web Service Base URL in ${CREDENTIAL} and that n8n can reach that host.`;
	// No answer in time: the message says so.
	return '';
}

const BROKEN_CONNECTION = new Set(['ECONNRESET', 'EPIPE', 'UND_ERR_SOCKET']);
const NOT_REACHED = new Set([
	'ENOTFOUND',
	'ECONNREFUSED',
	'EAI_AGAIN',
	'EHOSTUNREACH',
	'EHOSTDOWN',
	'ENETUNREACH',
	'ENETDOWN',
]);

function wasWere(count: number): string {
	return `${count} ${count === 1 ? 'was' : 'were'}`;
}

/** Sentences joined by a space, the empty ones left out. */
function sentences(...parts: string[]): string {
	return parts.filter((part) => part !== '').join(' ');
}

function limitError(node: INode, failure: LimitFailure, details: FailureDetails): NodeApiError {
	const texts: Record<AnswerLimit, { message: string; description: string }> = {
		time: {
			message: `The App Builder API did not finish its answer within ${duration(failure.bound * 1000)}`,
			// The time may run out before any of the answer arrived: nothing here says part of it did.
			description: `No complete answer had arrived when the time ran out, and the node did not try again: a slow answer would only be slow again. ${nextStep(details, false)} For a very large form on a slow connection, raise Options > Timeout.`,
		},
		bytes: {
			message: `The App Builder API's answer is larger than ${Math.round(failure.bound / (1024 * 1024))} MB, so it was not read to the end`,
			description: `Reading stopped there to keep n8n's memory safe. Check the Web Service Base URL in ${CREDENTIAL}: a server that sends without end is not the App Builder API.`,
		},
		records: {
			message: `The App Builder API's answer lists more than ${failure.bound.toLocaleString('en')} inquiries, so it was not read to the end`,
			description: `Reading stopped there to keep n8n's memory safe. Check the Web Service Base URL in ${CREDENTIAL} and that the form is the one you meant.`,
		},
	};
	const { message, description } = texts[failure.limit];
	return new NodeApiError(
		node,
		{ limit: failure.limit },
		{
			message: `${message}${triedText(details)}`,
			description,
			itemIndex: details.itemIndex,
		},
	);
}

function describeBodyKind(bodyKind: WebServiceFailure['bodyKind']): string {
	switch (bodyKind) {
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
