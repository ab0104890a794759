import type { IDataObject } from 'n8n-workflow';

import {
	addUserAt,
	addUserParameters,
	addUserWithRetryPolicy,
	appBuilderCredentials,
	runAppBuilder,
} from '../support/appBuilderRuns';
import { startRecordingServer, type Answer } from '../support/recordingServer';
import { useEmulator } from '../support/useEmulator';

/**
 * The retry loop against servers that answer 429 and 5xx: through n8n's
 * engine and real HTTP. The loop's own numbers (a minute of 429s, 5 minutes
 * of budget) are asserted on the policy (retryPolicy.test.ts); here a call
 * given a shorter budget shows the loop keeps to it.
 */
describe('retries under 429 and 5xx', () => {
	const emu = useEmulator();

	const callWith = async (retry: IDataObject, baseUrl?: string) =>
		await addUserWithRetryPolicy(emu(), retry, baseUrl);

	/** A web-service host answering the n-th request with `answers[n]` (the last one from there on), noting when each arrived. */
	const answering = async (answers: Answer[]) => {
		const arrivals: number[] = [];
		const server = await startRecordingServer(() => {
			arrivals.push(Date.now());
			return answers[Math.min(arrivals.length - 1, answers.length - 1)];
		});
		return { server, arrivals };
	};
	const rateLimited = (retryAfter = '0'): Answer => ({
		status: 429,
		headers: { 'Retry-After': retryAfter },
		body: { status: 'error', code: 429, msg: 'Too Many Requests' },
	});
	const badGateway = (headers: Record<string, string> = {}): Answer => ({
		status: 502,
		headers,
		body: { status: 'error', code: 502, msg: 'Bad Gateway' },
	});
	const added: Answer = {
		status: 200,
		body: { successCode: '200', message: 'User registered successfully' },
	};
	const gaps = (arrivals: number[]) => arrivals.slice(1).map((at, i) => at - arrivals[i]);

	it('sends at most one request a second to a server that always answers 429 with Retry-After: 0, and ends saying the API kept rate-limiting', async () => {
		emu().control.configure({ throttleEvery: 1, throttleRetryAfter: '0' });
		const started = Date.now();
		const result = await callWith({ rateLimitBudgetMs: 4000 });
		const took = Date.now() - started;
		const sent = emu()
			.control.requests()
			.map((request) => request.receivedAt);
		expect(result.error?.message).toMatch(
			new RegExp(
				`^The App Builder API kept rate-limiting the request: it answered 429 \\(too many requests\\) ${sent.length} times in [34] seconds$`,
			),
		);
		// Within 4 s of the start, one request at once and then one a second at most.
		expect(sent.length).toBeGreaterThanOrEqual(4);
		expect(sent.length).toBeLessThanOrEqual(5);
		for (const gap of gaps(sent)) expect(gap).toBeGreaterThanOrEqual(990);
		expect(took).toBeLessThan(6000);
		expect(emu().control.users()).toEqual([]);
	});

	it('stops after its most 429 answers, however short the waits', async () => {
		emu().control.configure({ throttleEvery: 1, throttleRetryAfter: '0' });
		const result = await callWith({ maxRateLimited: 3, minDelayMs: 50 });
		expect(result.error?.message).toBe(
			'The App Builder API kept rate-limiting the request: it answered 429 (too many requests) 3 times in less than a second',
		);
		expect(emu().control.requests()).toHaveLength(3);
	});

	it('does not spend the attempts meant for failures on 429s: 429, 429, 429, 502 and then 200 adds the user', async () => {
		const { server, arrivals } = await answering([
			rateLimited(),
			rateLimited(),
			rateLimited(),
			badGateway(),
			added,
		]);
		try {
			const result = await addUserAt(emu(), server.url);
			expect(result.error).toBeUndefined();
			expect(result.items[0].json).toMatchObject({ successCode: '200', email: 'jane@example.com' });
			expect(arrivals).toHaveLength(5);
		} finally {
			await server.close();
		}
	});

	it('says what happened when failures follow 429s: how many of each', async () => {
		const { server, arrivals } = await answering([rateLimited(), rateLimited(), badGateway()]);
		try {
			const result = await callWith({ minDelayMs: 10, baseDelayMs: 10 }, server.url);
			expect(result.error?.message).toBe(
				'A gateway in front of the App Builder API failed (tried 6 times: 4 failed this way, 2 were rate-limited)',
			);
			expect(arrivals).toHaveLength(6);
		} finally {
			await server.close();
		}
	});

	it.each(['0', '-5', '+5', '.5', 'Sun, 06 Nov 1994 08:49:37 GMT'])(
		'keeps its backoff on a 5xx whose Retry-After is %j: the next attempt waits at least a second',
		async (retryAfter) => {
			const { server, arrivals } = await answering([
				badGateway({ 'Retry-After': retryAfter }),
				added,
			]);
			try {
				const result = await addUserAt(emu(), server.url);
				expect(result.error).toBeUndefined();
				expect(arrivals).toHaveLength(2);
				expect(gaps(arrivals)[0]).toBeGreaterThanOrEqual(990);
			} finally {
				await server.close();
			}
		},
	);

	it('still waits as long as a 429 asks', async () => {
		const { server, arrivals } = await answering([rateLimited('2'), added]);
		try {
			const result = await addUserAt(emu(), server.url);
			expect(result.error).toBeUndefined();
			expect(gaps(arrivals)[0]).toBeGreaterThanOrEqual(1990);
		} finally {
			await server.close();
		}
	});

	it('fails at once when a 429 asks for a wait longer than the budget, saying how long it asked', async () => {
		emu().control.configure({ throttleEvery: 1, throttleRetryAfter: '400' });
		const result = await runAppBuilder(appBuilderCredentials(emu()), addUserParameters());
		expect(result.error?.message).toBe(
			'The App Builder API is rate-limiting the request (429, too many requests) and asks to wait 7 minutes, longer than the node waits (tried once)',
		);
		expect(emu().control.requests()).toHaveLength(1);
	});
});
