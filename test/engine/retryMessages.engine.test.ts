import type { IDataObject } from 'n8n-workflow';

import {
	addUserAt,
	addUserParameters,
	addUserWithRetryPolicy,
	appBuilderCredentials,
	getManyParameters,
	pollTriggerAt,
	runAppBuilder,
} from '../support/appBuilderRuns';
import {
	startRecordingServer,
	type Answer,
	type RecordingServer,
} from '../support/recordingServer';
import { useEmulator } from '../support/useEmulator';

/**
 * What an error says about retrying is what the node did: how many attempts
 * it made, and when it did not try again, why and when the API said to come
 * back. Each path of the retry loop, through n8n's engine and real HTTP;
 * short waits come from a retry policy given to a test node, never from
 * sleeping a minute.
 */
describe('what errors say about retrying', () => {
	const emu = useEmulator();

	const callWith = async (retry: IDataObject, baseUrl?: string) =>
		await addUserWithRetryPolicy(emu(), retry, baseUrl);

	/** A web-service host answering the n-th request with `answers[n]` (the last one from there on). */
	const answering = async (answers: Answer[]): Promise<RecordingServer> =>
		await startRecordingServer(() => answers[Math.min(server.requests.length, answers.length) - 1]);
	let server: RecordingServer;
	const withServer = async (answers: Answer[], test: (url: string) => Promise<void>) => {
		server = await answering(answers);
		try {
			await test(server.url);
		} finally {
			await server.close();
		}
	};

	const failing = (status: number, headers: Record<string, string> = {}): Answer => ({
		status,
		headers,
		body: { status: 'error', code: status, msg: 'Service Unavailable' },
	});
	/** An HTTP-date `seconds` from now, on a whole second, and the same moment as ISO 8601. */
	const inSeconds = (seconds: number) => {
		const at = new Date(Math.ceil(Date.now() / 1000) * 1000 + seconds * 1000);
		return { httpDate: at.toUTCString(), iso: at.toISOString().replace('.000Z', 'Z') };
	};
	const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
	const NO_CLAIM_OF_RETRY = /already (waited|retried)/;

	it('a 503 asking for a wait longer than a minute: not tried again, says when to come back and to run again then', async () => {
		const comeBack = inSeconds(180);
		await withServer([failing(503, { 'Retry-After': comeBack.httpDate })], async (url) => {
			const result = await addUserAt(emu(), url);
			expect(server.requests).toHaveLength(1);
			expect(result.error?.message).toBe(
				'The App Builder API is temporarily unavailable (maintenance) (tried once)',
			);
			expect(result.error?.description).toMatch(
				new RegExp(
					`^The node did not try again: the API asked to come back in 3 minutes \\(at ${escaped(comeBack.iso)}\\), and the node waits at most 60 seconds between attempts\\. Try again after that time\\.`,
				),
			);
			expect(result.error?.description).not.toMatch(NO_CLAIM_OF_RETRY);
		});
	});

	it('a 502 on every attempt: says the node tried 4 times', async () => {
		emu().control.injectFault({ endpoint: 'addUser', kind: 'status', status: 502, times: 4 });
		const result = await callWith({ minDelayMs: 10, baseDelayMs: 10 });
		expect(emu().control.requests()).toHaveLength(4);
		expect(result.error?.message).toBe(
			'A gateway in front of the App Builder API failed (tried 4 times)',
		);
		expect(result.error?.description).toMatch(
			/^The node tried 4 times in (less than a second|\d+ seconds?)\. Try again later\. If it keeps failing, contact App Builder support\./,
		);
	});

	it('a 500 with retries turned off: says the node tried once, not that it retried', async () => {
		emu().control.injectFault({ endpoint: 'addUser', kind: 'status', status: 500, times: 1 });
		const result = await callWith({ maxAttempts: 1 });
		expect(emu().control.requests()).toHaveLength(1);
		expect(result.error?.message).toBe('The App Builder API had an internal error (tried once)');
		expect(result.error?.description).toMatch(
			/^The node tried once and made no further attempt\. Try again later\./,
		);
		expect(result.error?.description).not.toMatch(NO_CLAIM_OF_RETRY);
	});

	it('a 503 in a trigger poll whose time would run out first: not tried again, and the trigger polls again', async () => {
		await withServer([failing(503)], async (url) => {
			const outcome = await pollTriggerAt(emu(), url, { pollBudgetMs: 1000 });
			expect(server.requests).toHaveLength(1);
			expect(outcome.error?.message).toBe(
				'The App Builder API is temporarily unavailable (maintenance) (tried once)',
			);
			expect(outcome.error?.description).toMatch(
				/^The node did not try again: the wait before another attempt would have outlasted the time n8n gives one poll\. The trigger tries again at its next poll\./,
			);
			expect(outcome.error?.description).not.toMatch(NO_CLAIM_OF_RETRY);
		});
	});

	it('a 503 asking for a long wait in a trigger poll: says when to come back, and that the trigger polls again', async () => {
		await withServer([failing(503, { 'Retry-After': '120' })], async (url) => {
			const outcome = await pollTriggerAt(emu(), url);
			expect(server.requests).toHaveLength(1);
			expect(outcome.error?.description).toMatch(
				/^The node did not try again: the API asked to come back in 2 minutes \(at \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ\), and the node waits at most 60 seconds between attempts\. The trigger tries again at its next poll\./,
			);
		});
	});

	it('a 503 on both attempts of a trigger poll: says the node tried 2 times', async () => {
		await withServer([failing(503)], async (url) => {
			const outcome = await pollTriggerAt(emu(), url);
			expect(server.requests).toHaveLength(2);
			expect(outcome.error?.message).toBe(
				'The App Builder API is temporarily unavailable (maintenance) (tried 2 times)',
			);
			expect(outcome.error?.description).toMatch(
				/^The node tried 2 times in \d+ seconds?\. The trigger tries again at its next poll\./,
			);
		});
	});

	it('a 429 asking for a wait past the 5 minutes: not tried again, says when to come back', async () => {
		const comeBack = inSeconds(400);
		emu().control.configure({ throttleEvery: 1, throttleRetryAfter: comeBack.httpDate });
		const result = await runAppBuilder(appBuilderCredentials(emu()), addUserParameters());
		expect(emu().control.requests()).toHaveLength(1);
		expect(result.error?.message).toBe(
			'The App Builder API is rate-limiting the request (429, too many requests) and asks to wait 7 minutes, longer than the node waits (tried once)',
		);
		expect(result.error?.description).toMatch(
			new RegExp(
				`^The node did not try again after this 429: it waits out a rate limit only until 5 minutes after a request's first attempt, and the API asked to come back in 7 minutes \\(at ${escaped(comeBack.iso)}\\)\\. Try again after that time\\. To meet the limit less often, lower the Concurrency option`,
			),
		);
	});

	it('429 answers up to the most a call takes: says the node waited and tried again after each but the last', async () => {
		emu().control.configure({ throttleEvery: 1, throttleRetryAfter: '0' });
		const result = await callWith({ maxRateLimited: 3, minDelayMs: 50 });
		expect(emu().control.requests()).toHaveLength(3);
		expect(result.error?.message).toBe(
			'The App Builder API kept rate-limiting the request: it answered 429 (too many requests) 3 times in less than a second',
		);
		expect(result.error?.description).toMatch(
			/^The node waited and tried again after each 429 but the last: it takes at most 3 answers of 429 for one request\. Try again later\./,
		);
	});

	it('a 429 when the time for rate limits is used up: not tried again after it, and the earlier failure is counted', async () => {
		await withServer([failing(502), failing(429)], async (url) => {
			const result = await callWith(
				{ minDelayMs: 600, baseDelayMs: 600, rateLimitBudgetMs: 1000 },
				url,
			);
			expect(server.requests).toHaveLength(2);
			expect(result.error?.message).toBe(
				'The App Builder API is rate-limiting the request (429, too many requests), and there is no time left to wait (tried 2 times: 1 was rate-limited, 1 failed another way)',
			);
			expect(result.error?.description).toMatch(
				/^The node did not try again after this 429: it waits out a rate limit only until 1 second after a request's first attempt, and that time was up\. Try again later\./,
			);
		});
	});

	describe('a Retry-After of more digits than a date holds', () => {
		const NOT_THE_NODES_OWN = /Invalid time value|Infinity|NaN/;
		const FOURTEEN_DIGITS = '99999999999999';

		it.each([
			[
				429,
				'The App Builder API is rate-limiting the request (429, too many requests) and asks to wait 100 years or more, longer than the node waits (tried once)',
				/^The node did not try again after this 429: it waits out a rate limit only until 5 minutes after a request's first attempt, and the API asked to come back in 100 years or more\. Try again later\. To meet the limit less often, lower the Concurrency option/,
			],
			[
				503,
				'The App Builder API is temporarily unavailable (maintenance) (tried once)',
				/^The node did not try again: the API asked to come back in 100 years or more, and the node waits at most 60 seconds between attempts\. Try again later\./,
			],
		])(
			'a %i asking for 99999999999999 seconds: not tried again, the wait named in words, never "Invalid time value"',
			async (status, message, description) => {
				await withServer([failing(status, { 'Retry-After': FOURTEEN_DIGITS })], async (url) => {
					const result = await addUserAt(emu(), url);
					expect(server.requests).toHaveLength(1);
					expect(result.error?.message).toBe(message);
					expect(result.error?.description).toMatch(description);
					expect(`${result.error?.message} ${result.error?.description}`).not.toMatch(
						NOT_THE_NODES_OWN,
					);
				});
			},
		);

		it.each([
			[
				429,
				'The App Builder API kept rate-limiting the request: it answered 429 (too many requests) 3 times in less than a second',
			],
			[503, 'The App Builder API is temporarily unavailable (maintenance) (tried 4 times)'],
		])(
			"a %i asking for 400 digits of seconds, longer than any value the node reads: taken as no Retry-After, the node's own error",
			async (status, message) => {
				await withServer([failing(status, { 'Retry-After': '9'.repeat(400) })], async (url) => {
					const result = await callWith(
						{ minDelayMs: 10, baseDelayMs: 10, maxRateLimited: 3 },
						url,
					);
					expect(result.error?.message).toBe(message);
					expect(`${result.error?.message} ${result.error?.description}`).not.toMatch(
						NOT_THE_NODES_OWN,
					);
				});
			},
		);
	});

	it('an answer that never starts before the Timeout: does not say it was still arriving', async () => {
		emu().control.injectFault({ endpoint: 'formBuilderInquiries', kind: 'hang', times: 1 });
		const result = await runAppBuilder(
			appBuilderCredentials(emu()),
			getManyParameters({ options: { timeout: 1 } }),
		);
		expect(result.error?.message).toBe(
			'The App Builder API did not finish its answer within 1 second',
		);
		expect(result.error?.description).toMatch(
			/^No complete answer had arrived when the time ran out, and the node did not try again: a slow answer would only be slow again\./,
		);
	});

	it('a connection reset on every attempt: says the node tried 4 times', async () => {
		emu().control.injectFault({ endpoint: 'addUser', kind: 'reset', times: 4 });
		const result = await callWith({ minDelayMs: 10, baseDelayMs: 10 });
		expect(emu().control.requests()).toHaveLength(4);
		expect(result.error?.message).toBe(
			'Could not reach the App Builder API: the connection was reset (tried 4 times)',
		);
		expect(result.error?.description).toMatch(
			/^The node tried 4 times in (less than a second|\d+ seconds?)\. The connection to the App Builder API broke before an answer arrived\. Try again later\. \(ECONNRESET\)$/,
		);
	});
});
