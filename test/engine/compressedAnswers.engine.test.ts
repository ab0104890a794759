/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- n8n Cloud's limits are for nodes; this runs on Node itself (timers, process, built-in modules) */
import { gzipSync } from 'node:zlib';

import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import { FIXTURE } from '../emulator';
import {
	addUserParameters,
	appBuilderCredentials,
	getManyParameters,
	pollAppBuilderTrigger,
	runAppBuilder,
	triggerParameters,
} from '../support/appBuilderRuns';
import { startRecordingServer, type RecordingServer } from '../support/recordingServer';
import { useEmulator } from '../support/useEmulator';
import { submitLead } from '../support/submitLead';

const INQUIRIES_PATH = '/V4/webservices/FormBuilderApi.php';
const ASKED_FOR = 'gzip, deflate, br';
const SECRETS = [FIXTURE.accessToken, FIXTURE.apiKey, 'Secr3t-pass'];

/**
 * The nodes over real HTTP against an API that compresses its answers: what
 * they ask for, that the streamed readers (trigger, Get Many) and the whole
 * reader (Add User) take a compressed answer, and that a compressed answer
 * is bounded by what it decodes to and fails clearly when it cannot be
 * decoded.
 */
describe('App Builder nodes and compressed answers', () => {
	const emu = useEmulator({ compression: true });
	const helper = (overrides: IDataObject = {}) => appBuilderCredentials(emu(), overrides);

	const T0 = Date.UTC(2026, 0, 5, 9, 0, 0);
	const submit = (name: string, addedon: number) => submitLead(emu(), { name, addedon });
	const names = (items: INodeExecutionData[] | undefined) =>
		(items ?? []).map((item) => item.json.name);
	const inquiryCalls = () =>
		emu()
			.control.requests()
			.filter((request) => request.path === INQUIRIES_PATH);

	describe('asking for and reading a compressed answer', () => {
		it.each([
			['gzip', true],
			['br', ['br']],
		] as const)(
			'a trigger poll asks for gzip, deflate and br and emits the new inquiries of a %s answer',
			async (coding, compression) => {
				emu().control.configure({ compression: compression as never });
				emu().control.setClock(T0);
				const credentials = helper();
				submit('Before', Date.now() - 60_000);
				const first = await pollAppBuilderTrigger(credentials, triggerParameters());
				expect(first.error).toBeUndefined();
				// Dated after the first poll, which began the watch: the trigger's clock is the machine's.
				const after = Date.now();
				submit('Ann', after + 1000);
				submit('Bob', after + 2000);
				const second = await pollAppBuilderTrigger(credentials, triggerParameters(), {
					staticData: first.staticData,
				});
				expect(second.error).toBeUndefined();
				expect(names(second.result?.[0])).toEqual(['Ann', 'Bob']);
				const calls = inquiryCalls();
				expect(calls).toHaveLength(2);
				for (const call of calls) {
					expect(call.acceptEncoding).toBe(ASKED_FOR);
					expect(call.contentEncoding).toBe(coding);
				}
			},
		);

		it.each([
			['gzip', true],
			['br', ['br']],
		] as const)(
			'Get Many asks for gzip, deflate and br and lists every inquiry of a %s answer of 2,000',
			async (coding, compression) => {
				emu().control.configure({ compression: compression as never });
				emu().control.addInquiries({
					appId: FIXTURE.appId,
					pageId: FIXTURE.formPageId,
					count: 2000,
					fieldsPerRecord: 5,
				});
				const result = await runAppBuilder(helper(), getManyParameters());
				expect(result.error).toBeUndefined();
				expect(result.items).toHaveLength(2000);
				const expectedIds = emu()
					.control.listInquiries(FIXTURE.appId, FIXTURE.formPageId)
					.map((record) => (record as { _id: string })._id);
				expect(result.items.map((item) => item.json.inquiryId).sort()).toEqual(expectedIds.sort());
				const [call] = inquiryCalls();
				expect(call.acceptEncoding).toBe(ASKED_FOR);
				expect(call.contentEncoding).toBe(coding);
				// What crossed the wire was the compressed answer, several times smaller than its JSON.
				expect(call.wireBytes).toBeLessThan((call.bodyBytes ?? 0) / 3);
			},
		);

		it('Add User asks for gzip, deflate and br and reads a gzip answer whole', async () => {
			const result = await runAppBuilder(helper(), addUserParameters());
			expect(result.error).toBeUndefined();
			expect(result.items[0].json).toMatchObject({ successCode: '200' });
			const [call] = emu().control.requests();
			expect(call.acceptEncoding).toBe(ASKED_FOR);
			expect(call.contentEncoding).toBe('gzip');
		});
	});

	describe('over a slow link', () => {
		it('Get Many still ends a compressed answer that arrives too slowly at its Timeout', async () => {
			emu().control.addInquiries({
				appId: FIXTURE.appId,
				pageId: FIXTURE.formPageId,
				count: 2000,
				fieldsPerRecord: 5,
			});
			emu().control.configure({ bandwidthBytesPerSecond: 20_000 });
			const started = Date.now();
			const result = await runAppBuilder(helper(), getManyParameters({ options: { timeout: 1 } }));
			expect(result.error?.message).toBe(
				'The App Builder API did not finish its answer within 1 second',
			);
			expect(Date.now() - started).toBeLessThan(5000);
			expect(inquiryCalls()[0].contentEncoding).toBe('gzip');
		});

		it('Add User takes an echoed secret out of a gzip answer, as out of a plain one', async () => {
			const echo = {
				successCode: '200',
				message: `User added for key ${FIXTURE.apiKey} via token ${FIXTURE.accessToken}`,
			};
			const server = await startRecordingServer(() => ({
				status: 200,
				headers: { 'Content-Encoding': 'gzip' },
				bytes: [gzipSync(JSON.stringify(echo))],
			}));
			try {
				const result = await runAppBuilder(helper({ baseUrl: server.url }), addUserParameters());
				expect(result.error).toBeUndefined();
				expect(result.items[0].json.message).toBe(
					'User added for key [redacted] via token [redacted]',
				);
			} finally {
				await server.close();
			}
		});
	});

	describe('an answer that cannot be trusted', () => {
		let server: RecordingServer | undefined;
		afterEach(async () => {
			await server?.close();
			server = undefined;
		});
		/** A web-service host that answers every request with `bytes`, sent as gzip. */
		const gzipHost = async (bytes: () => Iterable<Buffer>) => {
			server = await startRecordingServer(() => ({
				status: 200,
				headers: { 'Content-Encoding': 'gzip' },
				bytes: bytes(),
			}));
			return helper({ baseUrl: server.url });
		};
		const expectNoSecrets = (value: unknown) => {
			const text = JSON.stringify(value);
			for (const secret of SECRETS) expect(text).not.toContain(secret);
		};

		/** `megabytes` MB of JSON white space inside an inquiries answer, as gzip members of 1 MB (about 1 KB each). */
		function* zipBomb(megabytes: number): Generator<Buffer> {
			const member = gzipSync(Buffer.alloc(1024 * 1024, ' '), { level: 9 });
			yield gzipSync('{"status":"success","msg":"Record found","data":[');
			for (let i = 0; i < megabytes; i++) yield member;
			yield gzipSync(']}');
		}

		/** Runs `work` while sampling the process's resident memory; returns how far it rose above the start. */
		const peakGrowth = async <T>(work: () => Promise<T>) => {
			const before = process.memoryUsage().rss;
			let peak = before;
			const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 10);
			try {
				const outcome = await work();
				return { outcome, growth: peak - before };
			} finally {
				clearInterval(sampler);
			}
		};

		it('Get Many stops a 1 MB gzip answer that inflates to 1 GB at the 300 MB bound, fast and without the memory', async () => {
			const credentials = await gzipHost(() => zipBomb(1024));
			const started = Date.now();
			const { outcome, growth } = await peakGrowth(
				async () => await runAppBuilder(credentials, getManyParameters()),
			);
			expect(outcome.error?.message).toBe(
				"The App Builder API's answer is larger than 300 MB, so it was not read to the end",
			);
			expect(Date.now() - started).toBeLessThan(30_000);
			// Get Many keeps what it has read (up to the bound), never the gigabyte the answer inflates to.
			expect(growth).toBeLessThan(500 * 1024 * 1024);
			expect(server?.requests).toHaveLength(1);
		});

		it('a trigger poll stops the same zip bomb at the bound and saves nothing', async () => {
			const credentials = await gzipHost(() => zipBomb(1024));
			const { outcome, growth } = await peakGrowth(
				async () => await pollAppBuilderTrigger(credentials, triggerParameters()),
			);
			expect(outcome.error?.message).toBe(
				"The App Builder API's answer is larger than 300 MB, so it was not read to the end",
			);
			expect(outcome.staticData).toEqual({});
			expect(growth).toBeLessThan(200 * 1024 * 1024);
		});

		it('Add User stops a gzip answer that inflates to 1 GB at the 64 MB bound of an answer read whole', async () => {
			const credentials = await gzipHost(() => zipBomb(1024));
			const { outcome, growth } = await peakGrowth(
				async () => await runAppBuilder(credentials, addUserParameters()),
			);
			expect(outcome.error?.message).toBe(
				"The App Builder API's answer is larger than 64 MB, so it was not read to the end",
			);
			expect(growth).toBeLessThan(400 * 1024 * 1024);
		});

		/** A gzip header, then bytes that are not deflate data. */
		const corruptGzip = () => [
			Buffer.from([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 3]),
			Buffer.from(`not deflate data ${FIXTURE.apiKey} ${'junk '.repeat(40)}`),
		];
		const expectCorruptError = (
			error: { message?: string; description?: string | null } | undefined,
		) => {
			expect(error?.message).toBe(
				"The App Builder API's answer could not be decompressed: its compressed data is corrupt",
			);
			expect(error?.description).toMatch(/Web Service Base URL/);
			expectNoSecrets({ message: error?.message, description: error?.description });
		};

		it('Get Many fails on a corrupt gzip answer with an error that names the App Builder API answer, and does not retry it', async () => {
			const credentials = await gzipHost(corruptGzip);
			const result = await runAppBuilder(credentials, getManyParameters());
			expectCorruptError(result.error);
			expect(server?.requests).toHaveLength(1);
		});

		it('a trigger poll fails on a corrupt gzip answer and saves nothing', async () => {
			const credentials = await gzipHost(corruptGzip);
			const outcome = await pollAppBuilderTrigger(credentials, triggerParameters());
			expectCorruptError(outcome.error);
			expect(outcome.staticData).toEqual({});
		});

		it('Add User fails on a corrupt gzip answer with the same error', async () => {
			const credentials = await gzipHost(corruptGzip);
			const result = await runAppBuilder(credentials, addUserParameters());
			expectCorruptError(result.error);
		});
	});
});
