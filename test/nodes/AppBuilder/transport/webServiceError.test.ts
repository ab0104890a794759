import type { INode } from 'n8n-workflow';

import type { CallFailure } from '../../../../nodes/AppBuilder/transport/callFailure';
import type { WebServiceFailure } from '../../../../nodes/AppBuilder/transport/interpretResponse';
import {
	webServiceError,
	type FailureDetails,
} from '../../../../nodes/AppBuilder/transport/webServiceError';
import { MAX_RETRY_AFTER_MS } from '../../../../nodes/shared/http/retryAfter';
import { DEFAULT_RETRY_POLICY } from '../../../../nodes/shared/http/retryPolicy';
import { appBuilderNode } from '../../../harness/workflowNode';

/**
 * The words of a failed call's error, for paths the engine tests do not
 * reach cheaply (a host that cannot be reached, a wait asked for after
 * earlier attempts). Each claim about retrying matches `details`.
 */
describe("a failed call's error", () => {
	const node: INode = appBuilderNode();
	const details = (extra: Partial<FailureDetails> = {}): FailureDetails => ({
		failures: 1,
		rateLimited: 0,
		elapsedMs: 50,
		secrets: ['the-access-token'],
		stop: 'attempts',
		policy: DEFAULT_RETRY_POLICY,
		...extra,
	});
	const api = (code: number, extra: Partial<WebServiceFailure> = {}): CallFailure => ({
		ok: false,
		kind: 'api',
		code,
		httpStatus: code,
		bodyKind: 'json',
		...extra,
	});
	const COME_BACK_AT = Date.UTC(2030, 0, 2, 3, 4, 5);

	it('a host that cannot be reached and is not tried again: says so, and claims no broken connection', () => {
		const error = webServiceError(
			node,
			{ ok: false, kind: 'network', errorCode: 'EHOSTUNREACH' },
			details({ stop: 'not-retryable' }),
		);
		expect(error.message).toBe(
			'Could not reach the App Builder API: the host is unreachable (tried once)',
		);
		expect(error.description).toBe(
			'Check the Web Service Base URL in the App Builder API credential and that n8n can reach that host. (EHOSTUNREACH)',
		);
	});

	it('a host name that could not be looked up, tried 4 times: no broken connection either', () => {
		const error = webServiceError(
			node,
			{ ok: false, kind: 'network', errorCode: 'EAI_AGAIN' },
			details({ failures: 4, elapsedMs: 7400 }),
		);
		expect(error.message).toBe(
			'Could not reach the App Builder API: the host name could not be looked up (tried 4 times)',
		);
		expect(error.description).toBe(
			'The node tried 4 times in 8 seconds. Check the Web Service Base URL in the App Builder API credential and that n8n can reach that host. Try again later. (EAI_AGAIN)',
		);
	});

	it('a long wait asked for after an earlier attempt: says how many attempts, then why it stopped', () => {
		const error = webServiceError(
			node,
			api(503, { retryAfterMs: 120_000 }),
			details({ failures: 2, stop: 'server-wait', retryAtMs: COME_BACK_AT }),
		);
		expect(error.message).toBe(
			'The App Builder API is temporarily unavailable (maintenance) (tried 2 times)',
		);
		expect(error.description).toBe(
			'The node tried 2 times, then stopped: the API asked to come back in 2 minutes (at 2030-01-02T03:04:05Z), and the node waits at most 60 seconds between attempts. Try again after that time. If it keeps failing, contact App Builder support.',
		);
	});

	it('the last attempt used up, with a wait asked for: says both, and when to come back', () => {
		const error = webServiceError(
			node,
			api(500, { retryAfterMs: 30_000 }),
			details({ failures: 4, elapsedMs: 9000, retryAtMs: COME_BACK_AT }),
		);
		expect(error.description).toBe(
			'The node tried 4 times in 9 seconds. The API asked to come back in 30 seconds (at 2030-01-02T03:04:05Z). Try again after that time. If it keeps failing, contact App Builder support.',
		);
	});

	it('in a trigger poll: says the trigger tries again, not to run it again', () => {
		const error = webServiceError(
			node,
			api(504),
			details({ failures: 2, elapsedMs: 1300, poll: 'scheduled' }),
		);
		expect(error.description).toBe(
			'The node tried 2 times in 2 seconds. The trigger tries again at its next poll. If it keeps failing, contact App Builder support.',
		);
	});

	it('a 429 in a trigger poll: no Concurrency to lower, what shares the limit instead', () => {
		const error = webServiceError(
			node,
			api(429),
			details({ rateLimited: 30, elapsedMs: 5000, stop: 'rate-limit-count', poll: 'scheduled' }),
		);
		expect(error.description).not.toMatch(/Concurrency option/);
		expect(error.description).toMatch(
			/The trigger tries again at its next poll\. The limit is shared by everything that uses this access token/,
		);
		const action = webServiceError(
			node,
			api(429),
			details({ rateLimited: 30, elapsedMs: 5000, stop: 'rate-limit-count' }),
		);
		expect(action.description).toMatch(/lower the Concurrency option/);
	});

	it('many 429s after other failures: counts both', () => {
		const error = webServiceError(
			node,
			api(429),
			details({ failures: 2, rateLimited: 3, elapsedMs: 5000, stop: 'rate-limit-count' }),
		);
		expect(error.message).toBe(
			'The App Builder API kept rate-limiting the request: it answered 429 (too many requests) 3 times in 5 seconds (tried 5 times: 3 were rate-limited, 2 failed another way)',
		);
	});

	it('a 429 asking for a wait past the time left after earlier ones: says the node waited before, and when to come back', () => {
		const error = webServiceError(
			node,
			api(429, { retryAfterMs: 90_000 }),
			details({
				failures: 0,
				rateLimited: 4,
				elapsedMs: 250_000,
				stop: 'rate-limit-time',
				retryAtMs: COME_BACK_AT,
			}),
		);
		expect(error.description).toMatch(
			/^The node waited and tried again after each 429 but the last: it waits out a rate limit only until 5 minutes after a request's first attempt, and the API asked to come back in 90 seconds \(at 2030-01-02T03:04:05Z\)\. Try again after that time\./,
		);
	});

	it('a wait at the longest the node reads, or past what a date holds: named in words, no moment, and no RangeError', () => {
		const at = Date.UTC(2026, 2, 1);
		for (const [retryAfterMs, retryAtMs] of [
			[MAX_RETRY_AFTER_MS, at + MAX_RETRY_AFTER_MS],
			[1e17, at + 1e17],
			[1e12, Number.NaN],
		]) {
			const rateLimited = webServiceError(
				node,
				api(429, { retryAfterMs }),
				details({ failures: 0, rateLimited: 1, stop: 'rate-limit-time', retryAtMs }),
			);
			const unavailable = webServiceError(
				node,
				api(503, { retryAfterMs }),
				details({ stop: 'server-wait', retryAtMs }),
			);
			for (const error of [rateLimited, unavailable])
				expect(`${error.message} ${error.description}`).not.toMatch(/Invalid|Infinity|NaN/);
			if (retryAfterMs >= MAX_RETRY_AFTER_MS) {
				expect(rateLimited.message).toBe(
					'The App Builder API is rate-limiting the request (429, too many requests) and asks to wait 100 years or more, longer than the node waits (tried once)',
				);
				expect(unavailable.description).toMatch(
					/^The node did not try again: the API asked to come back in 100 years or more, and the node waits at most 60 seconds between attempts\. Try again later\./,
				);
			} else {
				expect(unavailable.description).toMatch(
					/^The node did not try again: the API asked to come back in \d+ days \d+ hours?, and the node waits at most 60 seconds between attempts\. Try again later\./,
				);
			}
		}
	});

	it('an answer past its time after an earlier failure: counts the attempts, and does not say it was still arriving', () => {
		const error = webServiceError(
			node,
			{ ok: false, kind: 'limit', limit: 'time', bound: 120 },
			details({ failures: 2, stop: 'not-retryable' }),
		);
		expect(error.message).toBe(
			'The App Builder API did not finish its answer within 2 minutes (tried 2 times)',
		);
		expect(error.description).not.toMatch(/still arriving/);
	});

	it('keeps a secret the API echoed out of the words', () => {
		const error = webServiceError(
			node,
			api(503, { apiMessage: 'down for the-access-token' }),
			details(),
		);
		expect(JSON.stringify({ ...error, message: error.message })).not.toContain('the-access-token');
	});
});
