import type { Failure } from 'n8n-workflow';

import {
	API_ERROR_CATALOG,
	meaningOf,
	type ApiErrorMeaning,
} from '../../nodes/AppBuilder/transport/errorCatalog';
import type { Answer } from './recordingServer';

/**
 * What the package promises for each failed answer of the API (ARCHITECTURE.md, "Calling the web
 * services"): whether the call sends it again, the cause n8n is told and which words tell it. The
 * answer is judged by the code it names, the API's own or else its HTTP status; a 429 status is a
 * rate limit whatever it names. Written here from the codes' meanings, not from the code under test.
 */
export interface Promised {
	retry: 'wait-out' | 'again' | 'stop';
	cause: Failure['cause'] | undefined;
	/** The catalogue's meaning whose words tell it, or 'not-json' for an answer that is not the JSON promised. */
	words: ApiErrorMeaning | 'not-json';
}

export interface FailureCase {
	name: string;
	answer: Answer;
	promised: Promised;
}

const stop = (cause?: Failure['cause']) => ({ retry: 'stop', cause }) as const;
const again = { retry: 'again', cause: 'temporarily-unavailable' } as const;
const waitOut = { retry: 'wait-out', cause: 'rate-limited' } as const;

/** Every code of the catalogue, by what it is about. */
export const PROMISED_BY_CODE: Record<number, Pick<Promised, 'retry' | 'cause'>> = {
	400: stop('configuration-invalid'),
	401: stop('credential-invalid'),
	403: stop('credential-invalid'),
	404: stop('configuration-invalid'),
	405: stop('configuration-invalid'),
	406: stop('configuration-invalid'),
	410: stop('configuration-invalid'),
	429: waitOut,
	500: again,
	502: again,
	503: again,
	504: again,
	2032: stop('credential-invalid'),
	2034: stop(),
	2036: stop('credential-invalid'),
	2038: stop('credential-invalid'),
	2039: stop(),
	2040: stop(),
	2041: stop(),
};

export const CATALOGUE_CODES = Object.keys(API_ERROR_CATALOG).map(Number);

/** A code the catalogue does not list: a 5xx is a passing failure, anything else the request's own. */
function promisedFor(code: number): Promised {
	const listed = PROMISED_BY_CODE[code];
	const byClass = code >= 500 && code < 600 ? again : stop();
	return { ...(listed ?? byClass), words: meaningOf(code) };
}

const jsonError = (status: number, code: number): Answer => ({
	status,
	body: { status: 'error', code, msg: API_ERROR_CATALOG[code]?.message ?? 'Error' },
});
const page = (status: number, text: string): Answer => ({
	status,
	headers: { 'Content-Type': 'text/html; charset=UTF-8' },
	bytes: [Buffer.from(`<!DOCTYPE html><html><body><h1>${text}</h1></body></html>`)],
});
const raw = (status: number, text: string): Answer => ({
	status,
	headers: { 'Content-Type': 'text/plain' },
	bytes: text === '' ? [] : [Buffer.from(text)],
});

/** Every catalogue code as the API may send it: in a 200 body, as the HTTP status (20xx in a 400), and in an HTML page. */
const catalogueCases: FailureCase[] = CATALOGUE_CODES.flatMap((code) => [
	{ name: `${code} in a 200 body`, answer: jsonError(200, code), promised: promisedFor(code) },
	{
		name: `${code} as the HTTP status`,
		answer: jsonError(code < 600 ? code : 400, code),
		promised: promisedFor(code),
	},
	{
		name: `${code} in an HTML page`,
		answer: page(200, `Error ${code}`),
		promised: promisedFor(code),
	},
]);

/** Every HTTP error status, with no body at all: the status is the code. */
export const statusCases = (statuses: readonly number[]): FailureCase[] =>
	statuses.map((status) => ({
		name: `HTTP ${status} with no body`,
		answer: raw(status, ''),
		promised: promisedFor(status),
	}));

/** A 503 whose body names an API code: the code decides, not the status. */
const codeBeyondStatusCases: FailureCase[] = CATALOGUE_CODES.filter((code) => code !== 503).map(
	(code) => ({
		name: `503 whose body says ${code}`,
		answer: jsonError(503, code),
		promised: promisedFor(code),
	}),
);

const rateLimitCases: FailureCase[] = [
	{
		name: '429 whose body says 2039',
		answer: jsonError(429, 2039),
		promised: { ...waitOut, words: API_ERROR_CATALOG[429] },
	},
	{
		name: "429 as a gateway's page",
		answer: page(429, 'Too many requests'),
		promised: { ...waitOut, words: API_ERROR_CATALOG[429] },
	},
];

const notJson = (retry: 'again' | 'stop'): Promised => ({
	retry,
	cause: 'temporarily-unavailable',
	words: 'not-json',
});
const unreadableCases: FailureCase[] = [
	{ name: 'a 200 with no body', answer: raw(200, ''), promised: notJson('again') },
	{
		name: 'a 200 whose JSON is cut short',
		answer: raw(200, '{"data": [{"id'),
		promised: notJson('again'),
	},
	{
		name: "a 200 that is a proxy's login page",
		answer: page(200, 'Sign in'),
		promised: notJson('stop'),
	},
	{ name: 'a 200 of plain text', answer: raw(200, 'Service is busy'), promised: notJson('stop') },
];

/** Every error status from 400 to 599. */
export const ERROR_STATUSES = Array.from({ length: 200 }, (_, index) => 400 + index);

/** The answers every failure of the API may come as, each with what is promised for it. */
export const apiFailureCases = (statuses: readonly number[]): FailureCase[] => [
	...catalogueCases,
	...statusCases(statuses),
	...codeBeyondStatusCases,
	...rateLimitCases,
	...unreadableCases,
];
