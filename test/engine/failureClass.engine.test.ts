import type { NodeApiError } from 'n8n-workflow';

import { addUserWithRetryPolicy } from '../support/appBuilderRuns';
import { apiFailureCases, type FailureCase } from '../support/failureCases';
import { startRecordingServer, type RecordingServer } from '../support/recordingServer';
import { useEmulator } from '../support/useEmulator';

/**
 * A failed call does what its class says (transport/failureClass.ts), whichever part of the transport
 * acts on it: request.ts sends again or not, webServiceError.ts words it, failureCause.ts gives n8n
 * its cause. Each answer of test/support/failureCases.ts is sent by a real server to a call made
 * through n8n's engine, with a retry policy of short waits: at most 2 attempts after failures and 3
 * answers of 429.
 */
describe('a failed call follows its class', () => {
	const emu = useEmulator();
	let server: RecordingServer;
	let current: FailureCase;

	beforeAll(async () => {
		server = await startRecordingServer(() => current.answer);
	});
	afterAll(async () => await server.close());

	const RETRY = {
		maxAttempts: 2,
		baseDelayMs: 1,
		minDelayMs: 1,
		maxDelayMs: 10,
		maxRateLimited: 3,
		rateLimitBudgetMs: 60_000,
	};
	const REQUESTS = { stop: 1, again: RETRY.maxAttempts, 'wait-out': RETRY.maxRateLimited };
	/** The catalogue's statuses, and some it does not list. */
	const STATUSES = [
		400, 401, 403, 404, 405, 406, 408, 410, 418, 422, 429, 500, 501, 502, 503, 504, 599,
	];

	it.each(apiFailureCases(STATUSES).map((entry) => [entry.name, entry] as const))(
		'%s',
		async (_name, failureCase) => {
			current = failureCase;
			const before = server.requests.length;
			const { error } = await addUserWithRetryPolicy(emu(), RETRY, server.url);
			const { promised } = failureCase;
			const words =
				promised.words === 'not-json'
					? 'The App Builder API sent an answer that is not JSON'
					: promised.retry === 'wait-out'
						? 'The App Builder API kept rate-limiting the request'
						: promised.words.message;
			expect({
				requests: server.requests.length - before,
				cause: (error as NodeApiError | undefined)?.failure?.cause,
				words: error?.message.startsWith(words) ? words : error?.message,
			}).toEqual({ requests: REQUESTS[promised.retry], cause: promised.cause, words });
		},
	);
});
