import type { INode, JsonObject } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import type { AnswerLimit } from '../../shared/http/answerLimits';
import { networkFailureWords } from '../../shared/http/networkFailure';
import { apiMessageForUser, redactOrigin } from '../../shared/text/redact';
import type { CallFailure, LimitFailure } from './callFailure';
import { CREDENTIAL, meaningOf } from './errorCatalog';
import { withFailureCause } from './failureCause';
import { isUnreadableBody, type WebServiceFailure } from './interpretResponse';

export interface FailureDetails {
	/** Attempts that failed other than with a 429, the last one included when it did. */
	failures: number;
	/** Answers of 429, the last one included when it was one. */
	rateLimited: number;
	/** Time from the call's start to its end. */
	elapsedMs: number;
	secrets: unknown[];
	itemIndex?: number;
}

/**
 * The error a node shows for a failed call: what happened and what to fix,
 * with no secret in it, and why it failed in n8n's terms (failureCause.ts).
 */
export function webServiceError(
	node: INode,
	failure: CallFailure,
	details: FailureDetails,
): NodeApiError {
	return withFailureCause(errorFor(node, failure, details), failure);
}

function errorFor(node: INode, failure: CallFailure, details: FailureDetails): NodeApiError {
	const { itemIndex } = details;
	if ('redirect' in failure) {
		return new NodeApiError(node, { httpStatus: failure.httpStatus } as JsonObject, {
			message: `The App Builder API answered with a redirect to ${redactOrigin(failure.target, details.secrets)}, which is not followed`,
			description: `Following it would send your access token and API key to that address. Correct the Web Service Base URL in ${CREDENTIAL} to the address the API answers on directly.`,
			httpCode: String(failure.httpStatus),
			itemIndex,
		});
	}
	if ('limit' in failure) return limitError(node, failure, itemIndex);
	if ('undecodable' in failure) {
		return new NodeApiError(node, { undecodable: true } as JsonObject, {
			message:
				"The App Builder API's answer could not be decompressed: its compressed data is corrupt",
			description: `The answer said it was compressed, but its data could not be decoded, so none of it was used. Something between n8n and the API (a proxy) may have altered it. Check the Web Service Base URL in ${CREDENTIAL}; if it is right, try again later.`,
			itemIndex,
		});
	}
	if ('other' in failure) {
		return new NodeApiError(node, {} as JsonObject, {
			message: `The request to the App Builder API failed: ${apiMessageForUser(failure.message, details.secrets)}`,
			description: `Check the Web Service Base URL in ${CREDENTIAL}; if it is right, try again later.`,
			itemIndex,
		});
	}
	if ('network' in failure) {
		const tried = triedText(details);
		const fix =
			failure.errorCode === 'ENOTFOUND' || failure.errorCode === 'ECONNREFUSED'
				? `Check the Web Service Base URL in ${CREDENTIAL} and that n8n can reach that host.`
				: 'The connection to the App Builder API broke before an answer arrived. Try again later.';
		return new NodeApiError(node, { unreachable: true } as JsonObject, {
			message: `Could not reach the App Builder API: ${networkFailureWords(failure)}${tried}`,
			description: `${fix} (${failure.errorCode})`,
			itemIndex,
		});
	}
	return apiError(node, failure, details);
}

function apiError(node: INode, failure: WebServiceFailure, details: FailureDetails): NodeApiError {
	const meaning = meaningOf(failure.code);
	const isRateLimit = failure.code === 429 || failure.httpStatus === 429;
	let message = isRateLimit
		? rateLimitMessage(failure, details)
		: `${meaning.message}${triedText(details)}`;
	let description = meaning.fix;
	if (isUnreadableBody(failure)) {
		message = `The App Builder API sent an answer that is not JSON (${describeBodyKind(failure)})${triedText(details)}`;
		description = `The answer was cut short or came from something other than the API (a proxy, a login page). Check the Web Service Base URL in ${CREDENTIAL}; if it is right, try again later.`;
	}
	const apiSays = failure.apiMessage
		? apiMessageForUser(failure.apiMessage, details.secrets)
		: undefined;
	if (apiSays) description = `${description} The API said: "${apiSays}".`;
	return new NodeApiError(
		node,
		{
			code: failure.code,
			httpStatus: failure.httpStatus,
			...(apiSays ? { apiMessage: apiSays } : {}),
		},
		{ message, description, httpCode: String(failure.code), itemIndex: details.itemIndex },
	);
}

/**
 * How often a call was tried, when more than once: attempts that failed
 * (like the last one) and, told apart, answers of 429 on the way.
 */
function triedText({ failures, rateLimited }: FailureDetails): string {
	if (rateLimited === 0) return failures > 1 ? ` (tried ${failures} times)` : '';
	const limited = `${rateLimited} ${rateLimited === 1 ? 'was' : 'were'} rate-limited`;
	return ` (tried ${failures + rateLimited} times: ${failures} failed this way, ${limited})`;
}

/** Why a call gave up on a rate limit: it went on too long, or at once the API asked for a wait longer than the call may take. */
function rateLimitMessage(
	failure: WebServiceFailure,
	{ rateLimited, elapsedMs }: FailureDetails,
): string {
	const askedSeconds =
		failure.retryAfterMs === undefined ? undefined : Math.ceil(failure.retryAfterMs / 1000);
	if (rateLimited > 1) {
		return `The App Builder API kept rate-limiting the request: it answered 429 (too many requests) ${rateLimited} times in ${Math.round(elapsedMs / 1000)} seconds`;
	}
	return askedSeconds === undefined
		? 'The App Builder API is rate-limiting the request (429, too many requests), and there is no time left to wait'
		: `The App Builder API is rate-limiting the request (429, too many requests) and asks to wait ${askedSeconds} seconds, longer than the node waits`;
}

function limitError(
	node: INode,
	failure: LimitFailure,
	itemIndex: number | undefined,
): NodeApiError {
	const texts: Record<AnswerLimit, { message: string; description: string }> = {
		time: {
			message: `The App Builder API did not finish its answer within ${failure.bound} seconds`,
			description:
				'The answer was still arriving when the time ran out, so it was not used. Try again later; for a very large form on a slow connection, raise Options > Timeout.',
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
	return new NodeApiError(node, { limit: failure.limit } as JsonObject, {
		...texts[failure.limit],
		itemIndex,
	});
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
