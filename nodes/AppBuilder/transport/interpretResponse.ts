import type { IDataObject } from 'n8n-workflow';

import { headerValue } from '../../shared/http/headerValue';
import { parseRetryAfter } from '../../shared/http/retryAfter';
import { htmlToText } from '../../shared/text/htmlText';
import { isRecord } from '../../shared/valueShapes';

// Decides whether a web-service response is a success or an error. The spec
// does not say whether codes arrive as the HTTP status or inside a 200 body,
// nor what an error body looks like, so every plausible form is recognised
// (see ARCHITECTURE.md, "Calling the web services"). Server text is capped
// before any pattern reads it. Pure, so every form is unit-tested.

export type ResponseBodyKind = 'json' | 'html' | 'text' | 'empty' | 'malformed-json';

export interface WebServiceSuccess {
	ok: true;
	body: IDataObject;
}

export interface WebServiceFailure {
	ok: false;
	/** The API (or something in its place) answered, and not with success. */
	kind: 'api';
	/** The API's error code (spec table) when one was found, else the HTTP status. */
	code: number;
	httpStatus: number;
	bodyKind: ResponseBodyKind;
	/**
	 * The API's own text, when it gave one, capped at MAX_ERROR_TEXT_LENGTH.
	 * Neither redacted nor shortened: show it through apiMessageForUser
	 * (redact.ts), which redacts and then shortens.
	 */
	apiMessage?: string;
	/** From a Retry-After header, in milliseconds. */
	retryAfterMs?: number;
}

export type WebServiceOutcome = WebServiceSuccess | WebServiceFailure;

export interface RawResponse {
	statusCode: number;
	headers?: Record<string, unknown>;
	body: unknown;
}

const ERROR_STATUS_WORDS = new Set(['error', 'fail', 'failed', 'failure', 'false']);
/** How much of an error text is kept: far more than any message, little enough to read quickly. */
export const MAX_ERROR_TEXT_LENGTH = 64 * 1024;

export function interpretResponse(response: RawResponse, nowMs: number): WebServiceOutcome {
	const { kind, value } = parseBody(response.body);
	const httpStatus = response.statusCode;
	const retryAfterMs = parseRetryAfter(headerValue(response.headers, 'retry-after'), nowMs);
	const fail = (code: number, apiMessage?: string): WebServiceFailure => ({
		ok: false,
		kind: 'api',
		code,
		httpStatus,
		bodyKind: kind,
		...(apiMessage ? { apiMessage: capped(apiMessage) } : {}),
		...(retryAfterMs !== undefined ? { retryAfterMs } : {}),
	});

	if (kind === 'json' && isRecord(value)) {
		const bodyError = errorInJsonBody(value);
		if (bodyError)
			return fail(bodyError.code ?? httpStatusOrBadRequest(httpStatus), bodyError.message);
		if (httpStatus >= 400) return fail(httpStatus, messageIn(value));
		if (httpStatus >= 200 && httpStatus < 300) return { ok: true, body: value as IDataObject };
		return fail(httpStatus, messageIn(value));
	}

	if (kind === 'html' || kind === 'text') {
		const text = kind === 'html' ? htmlToText(value as string) : (value as string);
		const codeInPage = findKnownCode(text);
		return fail(codeInPage ?? httpStatus, text);
	}

	if (httpStatus >= 400) return fail(httpStatus);
	// A 2xx that is empty, cut short, or JSON of an unexpected type (an array, a number).
	return fail(httpStatus);
}

/**
 * A 2xx answer whose JSON stopped in the middle, known as such without its bytes
 * (they were read as they came).
 */
export function cutShortAnswer(httpStatus: number): WebServiceFailure {
	return { ok: false, kind: 'api', code: httpStatus, httpStatus, bodyKind: 'malformed-json' };
}

/** Whether a failure's body says the response was not the JSON the API promises. */
export function isUnreadableBody(failure: WebServiceFailure): boolean {
	const codeFoundInPage = failure.code !== failure.httpStatus;
	return (
		failure.bodyKind !== 'json' &&
		!codeFoundInPage &&
		failure.httpStatus >= 200 &&
		failure.httpStatus < 300
	);
}

function parseBody(body: unknown): { kind: ResponseBodyKind; value: unknown } {
	if (body === undefined || body === null) return { kind: 'empty', value: undefined };
	if (typeof body === 'object' && !isBuffer(body)) return { kind: 'json', value: body };
	const text = isBuffer(body) ? body.toString('utf8') : String(body);
	const trimmed = text.trim();
	if (trimmed === '') return { kind: 'empty', value: undefined };
	if (trimmed.startsWith('{') || trimmed.startsWith('[')) {
		try {
			return { kind: 'json', value: JSON.parse(trimmed) };
		} catch {
			return { kind: 'malformed-json', value: capped(trimmed) };
		}
	}
	if (trimmed.startsWith('<')) return { kind: 'html', value: capped(trimmed) };
	return { kind: 'text', value: capped(trimmed) };
}

function errorInJsonBody(
	body: Record<string, unknown>,
): { code?: number; message?: string } | undefined {
	const message = messageIn(body);
	if ('successCode' in body) {
		const code = toCode(body.successCode);
		if (code !== 200) return { code, message };
	}
	const status = body.status;
	const statusSaysError =
		(typeof status === 'string' && ERROR_STATUS_WORDS.has(status.trim().toLowerCase())) ||
		status === false;
	const code = toCode(body.code ?? body.errorCode ?? body.error_code);
	if (statusSaysError) return { code, message };
	if (code !== undefined && code >= 400) return { code, message };
	if (typeof body.error === 'string' && body.error !== '' && body.data === undefined) {
		return { code, message };
	}
	return undefined;
}

function messageIn(body: Record<string, unknown>): string | undefined {
	for (const key of ['msg', 'message', 'error_description', 'error', 'errorMessage']) {
		const value = body[key];
		if (typeof value === 'string' && value.trim() !== '') return value.trim();
	}
	return undefined;
}

function toCode(value: unknown): number | undefined {
	if (typeof value === 'number' && Number.isInteger(value)) return value;
	if (typeof value === 'string' && /^\d{3,4}$/.test(value.trim())) return Number(value.trim());
	return undefined;
}

function httpStatusOrBadRequest(httpStatus: number): number {
	return httpStatus >= 400 ? httpStatus : 400;
}

/** The first number in an error page that is a code the API documents (20xx or an HTTP error). */
function findKnownCode(text: string): number | undefined {
	const match = /\b(20(?:3[2-9]|4[01])|4(?:[01]\d|29)|50[0-4])\b/.exec(text);
	return match ? Number(match[1]) : undefined;
}

/** The first MAX_ERROR_TEXT_LENGTH units of a server's text. */
function capped(text: string): string {
	return text.length > MAX_ERROR_TEXT_LENGTH ? text.slice(0, MAX_ERROR_TEXT_LENGTH) : text;
}

function isBuffer(value: unknown): value is Buffer {
	return Buffer.isBuffer(value);
}
