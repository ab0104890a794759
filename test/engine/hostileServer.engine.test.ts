/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- n8n Cloud's limits are for nodes; this runs on Node itself (timers, process, built-in modules) */
import { createServer as createTcpServer, type AddressInfo } from 'node:net';

import type { IDataObject } from 'n8n-workflow';

import { FIXTURE, credentialDataFor } from '../emulator';
import {
	addUserParameters,
	appBuilderCredentials,
	getManyParameters,
	pollAppBuilderTrigger,
	runAppBuilder as runNodeWith,
	triggerParameters,
	updateUserParameters,
} from '../support/appBuilderRuns';
import { startRecordingServer, type RecordingServer } from '../support/recordingServer';
import { useEmulator } from '../support/useEmulator';

/**
 * The nodes against a server that misbehaves on purpose: redirects to
 * another host, answers that never end or end one byte at a time, a rate
 * limit that items in flight keep running into, secrets echoed back, and a
 * broken Connect client the web-service operations must not depend on.
 */
describe('App Builder nodes against a hostile or misbehaving server', () => {
	const emu = useEmulator();

	const SECRETS = [
		FIXTURE.accessToken,
		FIXTURE.apiKey,
		FIXTURE.clientSecret,
		FIXTURE.refreshToken,
		'Secr3t-pass',
	];

	const helperWith = (overrides: IDataObject = {}) => appBuilderCredentials(emu(), overrides);
	const runAppBuilder = async (
		parameters: IDataObject,
		options: { inputItems?: IDataObject[]; helper?: ReturnType<typeof helperWith> } = {},
	) =>
		await runNodeWith(options.helper ?? helperWith(), parameters, {
			inputItems: options.inputItems,
		});

	// Email and phone from the item when it has them, so many items can each add their own user.
	const addUser = (extra: IDataObject = {}) =>
		addUserParameters({
			email: '={{ $json.email ?? "jane@example.com" }}',
			phone: '={{ $json.phone ?? "5551234567" }}',
			...extra,
		});
	const updateUser = updateUserParameters();
	const getMany = getManyParameters;
	const pollOnce = async (
		helper = helperWith(),
		extra: { pollBudgetMs?: number; staticData?: IDataObject } = {},
	) => await pollAppBuilderTrigger(helper, triggerParameters(), extra);

	const expectNoSecrets = (value: unknown) => {
		const text = JSON.stringify(value);
		for (const secret of SECRETS) expect(text).not.toContain(secret);
	};

	describe('a redirect to another host', () => {
		/** Another host that records whatever reaches it. */
		let elsewhere: RecordingServer;
		beforeAll(async () => {
			elsewhere = await startRecordingServer(() => ({
				status: 200,
				body: { successCode: '200', message: 'ok', status: 'success', data: [] },
			}));
		});
		afterAll(async () => await elsewhere.close());
		beforeEach(() => (elsewhere.requests.length = 0));

		const redirectTo = (endpoint: string, status: number) =>
			emu().control.injectFault({
				endpoint: endpoint as never,
				kind: 'redirect',
				status,
				location: `${elsewhere.url}/steal?token=abc`,
				times: 10,
			});

		const expectRedirectError = (
			error: { message?: string; description?: string | null } | undefined,
		) => {
			expect(error?.message).toContain(`redirect to ${elsewhere.url}`);
			expect(error?.message).not.toContain('steal');
			expect(error?.description).toMatch(/Web Service Base URL/);
			expectNoSecrets({ message: error?.message, description: error?.description });
		};

		const operations = [
			{ operation: 'Add User', endpoint: 'addUser', parameters: addUser },
			{ operation: 'Get Many', endpoint: 'formBuilderInquiries', parameters: getMany },
		] as const;
		it.each(operations.flatMap((call) => [302, 307, 308].map((status) => ({ ...call, status }))))(
			'$operation fails on a $status and sends nothing to the other host',
			async ({ endpoint, parameters, status }) => {
				redirectTo(endpoint, status);
				const result = await runAppBuilder(parameters());
				expectRedirectError(result.error);
				expect(elsewhere.requests).toEqual([]);
				expect(emu().control.users()).toEqual([]);
			},
		);

		it('names a redirect to a host whose first label is the access token without showing it, even lower-cased as a host is', async () => {
			const accessToken = 'Tok3n-MiXeD-9q';
			const redirector = await startRecordingServer(() => ({
				status: 302,
				headers: { Location: `http://${accessToken}.example.com/x` },
			}));
			try {
				const result = await runAppBuilder(addUser(), {
					helper: helperWith({ baseUrl: redirector.url, accessToken }),
				});
				expect(result.error?.message).toBe(
					'The App Builder API answered with a redirect to http://[redacted].example.com, which is not followed',
				);
				expect(JSON.stringify(result.error)).not.toMatch(/tok3n-mixed/i);
			} finally {
				await redirector.close();
			}
		});

		it.each([302, 307, 308])(
			'a trigger poll fails on a %i, sends nothing to the other host and saves nothing',
			async (status) => {
				redirectTo('formBuilderInquiries', status);
				const outcome = await pollOnce();
				expectRedirectError(outcome.error);
				expect(outcome.staticData).toEqual({});
				expect(elsewhere.requests).toEqual([]);
			},
		);
	});

	describe('a Connect client that cannot refresh', () => {
		/** Connect on, no access token yet, and a client secret the Connect API refuses. */
		const brokenConnect = () =>
			helperWith({
				...credentialDataFor(emu(), { connect: true }),
				connectAccessToken: '',
				clientSecret: 'wrong-client-secret',
			});
		const tokenRequests = () =>
			emu()
				.control.requests()
				.filter((request) => request.path === '/v1/oauth2/token');

		it('does not stop Add User, Update User, Get Many or the trigger, which never ask for a Connect token', async () => {
			const helper = brokenConnect();
			const added = await runAppBuilder(addUser(), { helper });
			expect(added.error).toBeUndefined();
			const updated = await runAppBuilder(updateUser, { helper });
			expect(updated.error).toBeUndefined();
			const listed = await runAppBuilder(getMany(), { helper });
			expect(listed.error).toBeUndefined();
			const polled = await pollOnce(helper);
			expect(polled.error).toBeUndefined();
			expect(tokenRequests()).toEqual([]);
			expect(helper.preAuthenticationCalls).toBe(0);
		});

		it('adds five users at Concurrency 5 without using up a refresh-token rotation', async () => {
			const helper = helperWith({
				...credentialDataFor(emu(), { connect: true }),
				connectAccessToken: '',
			});
			const inputItems = Array.from({ length: 5 }, (_, i) => ({
				email: `user${i}@example.com`,
				phone: `555000000${i}`,
			}));
			const result = await runAppBuilder(addUser({ options: { concurrency: 5 } }), {
				helper,
				inputItems,
			});
			expect(result.error).toBeUndefined();
			expect(emu().control.users()).toHaveLength(5);
			expect(tokenRequests()).toEqual([]);
			expect(helper.stored('appBuilderApi').refreshToken).toBe(FIXTURE.refreshToken);
		});
	});

	describe('a server that echoes secrets back', () => {
		/** A web-service host that answers every request with `status` and `body`. */
		const answering = async (
			status: number,
			body: IDataObject,
			use: (baseUrl: string) => Promise<void>,
		) => {
			const server = await startRecordingServer(() => ({ status, body }));
			try {
				await use(server.url);
			} finally {
				await server.close();
			}
		};

		it('takes an echoed API key and access token out of an Add User success item', async () => {
			const body = {
				successCode: '200',
				message: `User added for key ${FIXTURE.apiKey} via token ${FIXTURE.accessToken}`,
			};
			await answering(200, body, async (baseUrl) => {
				const result = await runAppBuilder(addUser(), { helper: helperWith({ baseUrl }) });
				expect(result.error).toBeUndefined();
				expect(result.items[0].json.message).toBe(
					'User added for key [redacted] via token [redacted]',
				);
				expectNoSecrets(result.items);
			});
		});

		/** An inquiries answer whose record and whose own message echo the access token and the API key. */
		const echoingInquiries = {
			status: 'success',
			msg: `Records for ${FIXTURE.accessToken}`,
			data: [
				{
					_id: 'echo1',
					addedon: 1_794_301_925,
					formName: `Key ${FIXTURE.apiKey}`,
					formData: [[FIXTURE.accessToken], ['Token'], ['token']],
				},
				{
					_id: 'echo2',
					addedon: 1_794_301_926,
					formData: [[`x ${FIXTURE.apiKey} y`], ['Note'], ['note']],
				},
			],
		};

		it('takes an echoed token out of every Get Many item, though the answer is read as it arrives', async () => {
			await answering(200, echoingInquiries, async (baseUrl) => {
				for (const simplify of [true, false]) {
					const result = await runAppBuilder(getMany({ simplify }), {
						helper: helperWith({ baseUrl }),
					});
					expect(result.error).toBeUndefined();
					expect(result.items).toHaveLength(2);
					expectNoSecrets(result.items);
					expect(JSON.stringify(result.items)).toContain('[redacted]');
				}
			});
		});

		it("takes an echoed token out of the trigger's items and out of Fetch Test Event", async () => {
			await answering(200, echoingInquiries, async (baseUrl) => {
				const helper = helperWith({ baseUrl });
				const emitted = await pollAppBuilderTrigger(
					helper,
					triggerParameters({ options: { firstPoll: 'latest', firstPollCount: 5 } }),
				);
				expect(emitted.error).toBeUndefined();
				expect(emitted.result?.[0]).toHaveLength(2);
				expectNoSecrets(emitted.result);
				const test = await pollAppBuilderTrigger(helper, triggerParameters(), { mode: 'manual' });
				expect(test.error).toBeUndefined();
				expect(test.result?.[0][0].json.inquiryId).toBe('echo2');
				expectNoSecrets(test.result);
			});
		});

		it('shows no part of a secret that the API message would have had cut in half', async () => {
			// The API key straddles the 300th character, where the message shown is cut.
			const body = {
				status: 'error',
				code: 400,
				msg: `${'x'.repeat(297)}${FIXTURE.apiKey} is invalid`,
			};
			await answering(400, body, async (baseUrl) => {
				const result = await runAppBuilder(addUser(), { helper: helperWith({ baseUrl }) });
				expect(result.error?.description).toContain(`${'x'.repeat(297)}[re…`);
				expect(result.error?.description).not.toContain(FIXTURE.apiKey.slice(0, 3));
			});
		});
	});

	describe('an error that is not a network failure', () => {
		it('is shown with its own message instead of "could not reach"', async () => {
			// A server that answers with something that is not HTTP: the client's parse error is the fact to show.
			const garbage = createTcpServer((socket) =>
				socket.end('HTTP/1.1 abc\r\n\r\n', () => socket.destroy()),
			);
			await new Promise<void>((resolve) => garbage.listen(0, '127.0.0.1', resolve));
			try {
				const baseUrl = `http://127.0.0.1:${(garbage.address() as AddressInfo).port}`;
				const result = await runAppBuilder(addUser(), { helper: helperWith({ baseUrl }) });
				expect(result.error?.message).toMatch(
					/^The request to the App Builder API failed: .*parse error/i,
				);
				expect(result.error?.message).not.toMatch(/could not reach/i);
			} finally {
				garbage.close();
			}
		});

		it('names the credential field when the Web Service Base URL is not a web address', async () => {
			const result = await runAppBuilder(addUser(), {
				helper: helperWith({ baseUrl: 'api.example.com/path' }),
			});
			expect(result.error?.message).toMatch(/Web Service Base URL .* is not a web address/);
			expect(emu().control.requests()).toEqual([]);
		});
	});

	describe('an answer that never ends', () => {
		/** The inquiries answer sent one byte every 200 ms. */
		const dripInquiries = () =>
			emu().control.injectFault({
				endpoint: 'formBuilderInquiries',
				kind: 'drip',
				ms: 200,
				times: 10,
			});

		it('Get Many stops a server that drips one byte at a time at its Timeout, with an error that says so', async () => {
			dripInquiries();
			const started = Date.now();
			const result = await runAppBuilder(getMany({ options: { timeout: 2 } }));
			const took = Date.now() - started;
			expect(result.error?.message).toBe(
				'The App Builder API did not finish its answer within 2 seconds',
			);
			expect(took).toBeLessThan(6000);
			// A slow answer is not retried: it would only be slow again.
			expect(
				emu()
					.control.requests()
					.filter((r) => r.path === '/V4/webservices/FormBuilderApi.php'),
			).toHaveLength(1);
		});

		it('refuses a Timeout that is not a whole number of seconds from 1 to 3600, before any request', async () => {
			const result = await runAppBuilder(getMany({ options: { timeout: '={{ NaN }}' } }));
			expect(result.error?.message).toMatch(/^Timeout must be a whole number/);
			expect(emu().control.requests()).toEqual([]);
		});

		it('a trigger poll against a dripping server ends within the poll budget, logs, and saves nothing', async () => {
			const helper = helperWith();
			const first = await pollOnce(helper);
			expect(first.error).toBeUndefined();
			dripInquiries();
			const started = Date.now();
			const second = await pollOnce(helper, { pollBudgetMs: 2500, staticData: first.staticData });
			expect(Date.now() - started).toBeLessThan(6000);
			expect(second.error).toBeUndefined();
			expect(second.result).toBeNull();
			expect(second.staticData).toEqual(first.staticData);
		});

		it('a trigger poll against an endless list stops at a bound, holding well under 500 MB', async () => {
			emu().control.injectFault({ endpoint: 'formBuilderInquiries', kind: 'endless', times: 1 });
			const before = process.memoryUsage();
			let peak = before.rss;
			const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 20);
			const started = Date.now();
			try {
				const outcome = await pollOnce();
				expect(outcome.error?.message).toMatch(
					/^The App Builder API's answer (lists more than 1,000,000 inquiries|is larger than 300 MB)/,
				);
				expect(outcome.staticData).toEqual({});
			} finally {
				clearInterval(sampler);
			}
			expect(Date.now() - started).toBeLessThan(60_000);
			expect(peak - before.rss).toBeLessThan(500 * 1024 * 1024);
		});
	});

	describe('a rate limit that every third request runs into', () => {
		const addFifty = async (run: number) => {
			const inputItems = Array.from({ length: 50 }, (_, i) => ({
				email: `r${run}-u${i}@example.com`,
				phone: `${run}55${String(i).padStart(7, '0')}`,
			}));
			return await runAppBuilder(addUser({ options: { concurrency: 5 } }), { inputItems });
		};

		it.each([
			['0', 2],
			['1', 1],
		])(
			'adds every one of 50 users at Concurrency 5 with Retry-After %s, in %i runs',
			async (retryAfter, runs) => {
				emu().control.configure({ throttleEvery: 3, throttleRetryAfter: retryAfter });
				for (let run = 0; run < runs; run++) {
					const result = await addFifty(run);
					expect(result.error).toBeUndefined();
					expect(result.items).toHaveLength(50);
				}
				expect(emu().control.users()).toHaveLength(50 * runs);
				const throttled = emu()
					.control.requests()
					.filter((r) => r.status === 429);
				expect(throttled.length).toBeGreaterThan(0);
			},
			120_000,
		);

		it('fails with a clear error once the total wait passes its ceiling', async () => {
			emu().control.configure({ throttleEvery: 1, throttleRetryAfter: '400' });
			const result = await runAppBuilder(addUser());
			expect(result.error?.message).toMatch(/too many requests|rate limit/i);
			expect(emu().control.users()).toEqual([]);
		});
	});
});
