import type { INode, JsonObject } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import type { AnswerLimit } from '../../shared/http/answerLimits';
import { networkFailureWords, type NetworkFailure } from '../../shared/http/networkFailure';
import type { RedirectFailure } from '../../shared/http/redirectTarget';
import { apiMessageForUser } from '../../shared/text/redact';
import { meaningOf } from './errorCatalog';
import { withFailureCause } from './failureCause';
import { isUnreadableBody, type WebServiceFailure } from './interpretResponse';

/** An answer that went past its deadline, its size or its number of records. */
export interface LimitFailure {
	ok: false;
	limit: AnswerLimit;
	/** Seconds for 'time', bytes for 'bytes', a count for 'records'. */
	bound: number;
}

/** Anything else that was thrown: its own message is the best description there is. */
export interface OtherFailure {
	ok: false;
	other: true;
	message: string;
}

/** A compressed answer whose data could not be decoded. */
export interface DecodingFailure {
	ok: false;
	undecodable: true;
}

export type CallFailure = WebServiceFailure | NetworkFailure | RedirectFailure | LimitFailure | DecodingFailure | OtherFailure;

const CREDENTIAL = 'the App Builder API credential';

export interface FailureDetails {
	attempts: number;
	waitedForRateLimitMs: number;
	secrets: unknown[];
	itemIndex?: number;
}

/**
 * The error a node shows for a failed call: what happened and what to fix,
 * with no secret in it, and why it failed in n8n's terms (failureCause.ts).
 */
export function webServiceError(node: INode, failure: CallFailure, details: FailureDetails): NodeApiError {
	return withFailureCause(errorFor(node, failure, details), failure);
}

function errorFor(node: INode, failure: CallFailure, details: FailureDetails): NodeApiError {
	const { itemIndex } = details;
	if ('redirect' in failure) {
		return new NodeApiError(node, { httpStatus: failure.httpStatus } as JsonObject, {
			message: `The App Builder API answered with a redirect to ${failure.target}, which is not followed`,
			description: `Following it would send your access token and API key to that address. Correct the Web Service Base URL in ${CREDENTIAL} to the address the API answers on directly.`,
			httpCode: String(failure.httpStatus),
			itemIndex,
		});
	}
	if ('limit' in failure) return limitError(node, failure, itemIndex);
	if ('undecodable' in failure) {
		return new NodeApiError(node, { undecodable: true } as JsonObject, {
			message: "The App Builder API's answer could not be decompressed: its compressed data is corrupt",
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
		const tried = details.attempts > 1 ? ` (tried ${details.attempts} times)` : '';
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
	let tried = '';
	if (isRateLimit && details.waitedForRateLimitMs > 0) {
		tried = ` (waited ${Math.round(details.waitedForRateLimitMs / 1000)} seconds in all for it to pass)`;
	} else if (details.attempts > 1) {
		tried = ` (tried ${details.attempts} times)`;
	}
	let message = meaning.message;
	let description = meaning.fix;
	if (isUnreadableBody(failure)) {
		message = `The App Builder API sent an answer that is not JSON (${describeBodyKind(failure)})`;
		description = `The answer was cut short or came from something other than the API (a proxy, a login page). Check the Web Service Base URL in ${CREDENTIAL}; if it is right, try again later.`;
	}
	const apiSays = failure.apiMessage ? apiMessageForUser(failure.apiMessage, details.secrets) : undefined;
	if (apiSays) description = `${description} The API said: "${apiSays}".`;
	return new NodeApiError(
		node,
		{ code: failure.code, httpStatus: failure.httpStatus, ...(apiSays ? { apiMessage: apiSays } : {}) },
		{ message: `${message}${tried}`, description, httpCode: String(failure.code), itemIndex: details.itemIndex },
	);
}

function limitError(node: INode, failure: LimitFailure, itemIndex: number | undefined): NodeApiError {
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
	return new NodeApiError(node, { limit: failure.limit } as JsonObject, { ...texts[failure.limit], itemIndex });
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
