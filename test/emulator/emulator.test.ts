/* eslint-disable @n8n/community-nodes/no-restricted-imports -- n8n Cloud's limits are for nodes; this runs on Node itself (timers, process, built-in modules) */
import { request } from 'node:http';
import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib';

import { sleep } from 'n8n-workflow';

import { FIXTURE } from './index';
import { itInLongRuns } from '../support/testSize';
import { useEmulator } from '../support/useEmulator';

/** The emulator answers as the spec says, over real HTTP, in every configurable form. */
describe('App Builder API emulator', () => {
	const emu = useEmulator();

	const post = async (
		path: string,
		body: Record<string, unknown>,
		headers: Record<string, string> = {},
		base = emu().webUrl,
	) => {
		const response = await fetch(`${base}${path}`, {
			method: 'POST',
			headers: { 'Content-Type': 'application/json', ACCESSTOKEN: FIXTURE.accessToken, ...headers },
			body: JSON.stringify(body),
		});
		const text = await response.text();
		// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the emulator's answer; each test checks the fields it expects
		let json: any;
		try {
			json = JSON.parse(text);
		} catch {
			json = undefined;
		}
		return { status: response.status, headers: response.headers, text, json };
	};
	const addUser = (fields: Record<string, unknown> = {}, headers: Record<string, string> = {}) =>
		post(
			'/V4/webservices/addUser.php',
			{
				method: 'addUser',
				apiKey: FIXTURE.apiKey,
				name: 'Ann',
				email: 'ann@example.com',
				password: 'pw',
				phone: '5550001',
				group: '',
				passwordType: '',
				status: '',
				...fields,
			},
			headers,
		);

	describe('every code of the error table', () => {
		// eslint-disable-next-line @typescript-eslint/no-explicit-any -- as above
		const cases: Array<[number, () => Promise<{ status: number; json: any }>]> = [
			[400, () => addUser({ name: '' })],
			[401, () => addUser({}, { ACCESSTOKEN: 'wrong' })],
			[
				403,
				() =>
					post('/V4/webservices/addUser.php', { method: 'getAllUsers', apiKey: FIXTURE.apiKey }),
			],
			[404, () => post('/V4/webservices/addUser.php', { method: 'noSuchMethod' })],
			[
				405,
				async () => {
					const r = await fetch(`${emu().webUrl}/V4/webservices/addUser.php`, {
						headers: { ACCESSTOKEN: FIXTURE.accessToken },
					});
					return { status: r.status, json: await r.json() };
				},
			],
			[406, () => addUser({}, { Accept: 'application/xml' })],
			[410, () => post('/V4/webservices/addUser.php', { method: 'addUserV3' })],
			[2032, () => addUser({ apiKey: '' })],
			[2034, () => addUser({ email: '' })],
			[2036, () => addUser({ apiKey: 'someone-elses-key' })],
			[2038, () => addUser({ apiKey: 'bad key!' })],
			[2039, async () => (await addUser(), addUser({ phone: '5550002' }))],
			[2040, async () => (await addUser(), addUser({ email: 'other@example.com' }))],
			[2041, () => addUser({ email: 'not-an-email' })],
		];

		it.each(cases)(
			'produces %s as the HTTP status (20xx as 400) with {status, code, msg}',
			async (code, call) => {
				const result = await call();
				expect(result.status).toBe(code < 600 ? code : 400);
				expect(result.json).toMatchObject({ status: 'error', code });
			},
		);

		it.each(cases)(
			'produces %s inside a 200 body as {successCode, message}',
			async (code, call) => {
				emu().control.configure({ errorDelivery: 'body', errorShape: 'successCode-message' });
				const result = await call();
				expect(result.status).toBe(200);
				expect(result.json).toMatchObject({
					successCode: String(code),
					message: expect.any(String),
				});
			},
		);

		it('produces an HTML error page when configured', async () => {
			emu().control.configure({ errorShape: 'html' });
			const result = await addUser({ apiKey: 'someone-elses-key' });
			expect(result.status).toBe(400);
			expect(result.headers.get('content-type')).toMatch(/text\/html/);
			expect(result.text).toContain('2036');
			expect(result.text).toContain('Invalid API Key');
		});

		it('answers 429 with Retry-After when over the per-second budget', async () => {
			emu().control.configure({ rateLimitPerSecond: 2 });
			const statuses = [];
			let retryAfter: string | null = null;
			for (let i = 0; i < 5; i++) {
				const result = await post('/V4/webservices/FormBuilderApi.php', {
					method: 'formBuilderInquiries',
					appId: FIXTURE.appId,
					pageId: FIXTURE.formPageId,
				});
				statuses.push(result.status);
				if (result.status === 429) retryAfter = result.headers.get('retry-after');
			}
			expect(statuses).toContain(429);
			expect(Number(retryAfter)).toBeGreaterThanOrEqual(1);
		});

		it.each([500, 503])('answers %s from an injected fault', async (status) => {
			emu().control.injectFault({ endpoint: 'addUser', kind: 'status', status });
			expect((await addUser()).status).toBe(status);
			expect((await addUser()).status).toBe(200);
		});
	});

	describe('parameters and records', () => {
		it('accepts parameters as JSON, as a form body and as the query string', async () => {
			const form = await fetch(`${emu().webUrl}/V4/webservices/addUser.php`, {
				method: 'POST',
				headers: {
					ACCESSTOKEN: FIXTURE.accessToken,
					'Content-Type': 'application/x-www-form-urlencoded',
				},
				body: new URLSearchParams({
					method: 'addUser',
					apiKey: FIXTURE.apiKey,
					name: 'F',
					email: 'f@example.com',
					password: 'p',
					phone: '1',
				}),
			});
			expect(await form.json()).toMatchObject({ successCode: '200' });
			const query = new URLSearchParams({
				method: 'addUser',
				apiKey: FIXTURE.apiKey,
				name: 'Q',
				email: 'q@example.com',
				password: 'p',
				phone: '2',
			});
			const viaQuery = await fetch(`${emu().webUrl}/V4/webservices/addUser.php?${query}`, {
				method: 'POST',
				headers: { ACCESSTOKEN: FIXTURE.accessToken },
			});
			expect(await viaQuery.json()).toMatchObject({ successCode: '200' });
			expect(
				emu()
					.control.users()
					.map((u) => u.email),
			).toEqual(['f@example.com', 'q@example.com']);
		});

		it('updates a user found by email, with phone as a number', async () => {
			await addUser();
			const result = await post('/V4/webservices/editUser.php', {
				method: 'editUser',
				apiKey: FIXTURE.apiKey,
				name: 'Ann B',
				email: 'ann@example.com',
				phone: 5550009,
				group: 'G',
				password: 'pw2',
				passwordType: '',
			});
			expect(result.json).toEqual({ successCode: '200', message: expect.any(String) });
			expect(emu().control.users()[0]).toMatchObject({
				name: 'Ann B',
				phone: '5550009',
				group: 'G',
			});
		});

		it("returns inquiries in the spec's record shape, with timestamps in seconds or milliseconds", async () => {
			emu().control.addInquiry({
				appId: FIXTURE.appId,
				pageId: FIXTURE.formPageId,
				addedon: 1767225600123,
			});
			const body = {
				method: 'formBuilderInquiries',
				appId: FIXTURE.appId,
				pageId: FIXTURE.formPageId,
			};
			const seconds = (await post('/V4/webservices/FormBuilderApi.php', body)).json;
			expect(seconds).toMatchObject({ status: 'success', msg: expect.any(String) });
			const [record] = seconds.data;
			expect(Object.keys(record).sort()).toEqual(
				[
					'_id',
					'appId',
					'pageId',
					'requestId',
					'subject',
					'requestPage',
					'formName',
					'formData',
					'formbuilderData',
					'paymentStatus',
					'mailStatus',
					'status',
					'readStatus',
					'addedon',
					'updatedon',
				].sort(),
			);
			expect(record._id).toMatch(/^[0-9a-f]{24}$/);
			expect(record.formData).toHaveLength(3);
			expect(new Set(record.formData.map((row: string[]) => row.length)).size).toBe(1);
			const builder = JSON.parse(record.formbuilderData);
			expect(Object.keys(builder[0]).sort()).toEqual([
				'fieldIdentifire',
				'fieldLabel',
				'fieldName',
				'fieldValue',
			]);
			expect(record.addedon).toBe(1767225600);
			emu().control.configure({ timestampUnit: 'ms' });
			expect((await post('/V4/webservices/FormBuilderApi.php', body)).json.data[0].addedon).toBe(
				1767225600123,
			);
		});

		it("lists the app's pages with AppFeatures", async () => {
			const result = await post('/V4/webservices/AppFeatures.php', {
				method: 'getAppFeatures',
				appId: FIXTURE.appId,
			});
			expect(result.json.data).toEqual(FIXTURE.pages);
		});

		it('adds, changes and deletes inquiries through the HTTP control API', async () => {
			const control = (method: string, path: string, body?: unknown) =>
				fetch(`${emu().webUrl}/__emulator${path}`, {
					method,
					headers: { 'Content-Type': 'application/json' },
					body: body === undefined ? undefined : JSON.stringify(body),
				}).then((r) => r.json());
			const added = await control('POST', '/inquiries', {
				appId: FIXTURE.appId,
				pageId: FIXTURE.formPageId,
				addedon: 1767225600000,
			});
			const changed = await control('PATCH', `/inquiries/${added._id}`, {
				updatedon: 1767229200000,
				readStatus: 1,
			});
			expect(changed).toMatchObject({ _id: added._id, updatedon: 1767229200, readStatus: 1 });
			await control('DELETE', `/inquiries/${added._id}`);
			expect(emu().control.listInquiries(FIXTURE.appId, FIXTURE.formPageId)).toEqual([]);
		});

		it('trims a form to its newest inquiries, and lets forms share one list of inquiries', async () => {
			const control = (path: string, body: unknown) =>
				fetch(`${emu().webUrl}/__emulator${path}`, {
					method: 'POST',
					headers: { 'Content-Type': 'application/json' },
					body: JSON.stringify(body),
				}).then((r) => r.json());
			const form = (pageId: string) =>
				post('/V4/webservices/FormBuilderApi.php', {
					method: 'formBuilderInquiries',
					appId: FIXTURE.appId,
					pageId,
				});
			emu().control.addInquiries({
				appId: FIXTURE.appId,
				pageId: FIXTURE.formPageId,
				count: 5,
				fieldsPerRecord: 2,
			});
			expect(
				await control('/inquiries/trim', {
					appId: FIXTURE.appId,
					pageId: FIXTURE.formPageId,
					keep: 3,
				}),
			).toEqual({ deleted: 2 });
			expect(
				(await form(FIXTURE.formPageId)).json.data.map((r: { requestId: string }) => r.requestId),
			).toEqual(['BULK2', 'BULK3', 'BULK4']);

			expect(
				await control('/forms/share', {
					appId: FIXTURE.appId,
					from: FIXTURE.formPageId,
					pageIds: ['copy_1', 'copy_2'],
				}),
			).toEqual({ shared: 2 });
			emu().control.addInquiries({
				appId: FIXTURE.appId,
				pageId: 'copy_2',
				count: 1,
				fieldsPerRecord: 2,
			});
			for (const pageId of [FIXTURE.formPageId, 'copy_1', 'copy_2']) {
				expect(
					(await form(pageId)).json.data.map((r: { requestId: string }) => r.requestId),
				).toEqual(['BULK2', 'BULK3', 'BULK4', 'BULK5']);
			}
			expect((await form('formbuilder_1001_2')).json.data).toEqual([]);
		});

		it("sends a form's answer again unchanged until any inquiry changes, then the new one", async () => {
			const form = () =>
				post('/V4/webservices/FormBuilderApi.php', {
					method: 'formBuilderInquiries',
					appId: FIXTURE.appId,
					pageId: FIXTURE.formPageId,
				});
			const record = emu().control.addInquiry({
				appId: FIXTURE.appId,
				pageId: FIXTURE.formPageId,
				addedon: 1767225600000,
			}) as { _id: string };
			const first = await form();
			expect((await form()).text).toBe(first.text);
			const changes: Array<() => void> = [
				() => emu().control.updateInquiry(record._id, { readStatus: 1 }),
				() => emu().control.addInquiry({ appId: FIXTURE.appId, pageId: FIXTURE.formPageId }),
				() => emu().control.configure({ timestampUnit: 'ms' }),
				() => emu().control.deleteInquiry(record._id),
				() =>
					emu().control.addRawInquiry({
						appId: FIXTURE.appId,
						pageId: FIXTURE.formPageId,
						json: '{"_id":"raw"}',
					}),
				() => emu().control.trimForm({ appId: FIXTURE.appId, pageId: FIXTURE.formPageId, keep: 1 }),
			];
			for (const change of changes) {
				const before = (await form()).text;
				change();
				const after = await form();
				expect(after.text).not.toBe(before);
				expect(after.json ?? after.text).toEqual(
					JSON.parse(JSON.stringify(after.json ?? after.text)),
				);
			}
			expect((await form()).json.data).toEqual([{ _id: 'raw' }]);
		});

		/** A form of `count` inquiries of 10 fields, served whole at a realistic size per record. */
		const servesALargeForm = async (count: number) => {
			emu().control.addInquiries({
				appId: FIXTURE.appId,
				pageId: FIXTURE.formPageId,
				count,
				fieldsPerRecord: 10,
			});
			const result = await post('/V4/webservices/FormBuilderApi.php', {
				method: 'formBuilderInquiries',
				appId: FIXTURE.appId,
				pageId: FIXTURE.formPageId,
			});
			expect(result.json.data).toHaveLength(count);
			const averageBytes = result.text.length / count;
			expect(averageBytes).toBeGreaterThan(1000);
			expect(averageBytes).toBeLessThan(2200);
		};

		it('serves a form of 10,000 inquiries', async () => await servesALargeForm(10_000));

		// The size the bench and the memory ceiling read; the same path as above, ten times the data.
		itInLongRuns('serves a form of 100,000 inquiries', async () => await servesALargeForm(100_000));
	});

	describe('faults', () => {
		/** The inquiries call as a raw fetch, for answers `post` cannot read (dropped, stalled, without end). */
		const fetchInquiries = (init: RequestInit = {}) =>
			fetch(`${emu().webUrl}/V4/webservices/FormBuilderApi.php`, {
				method: 'POST',
				headers: { ACCESSTOKEN: FIXTURE.accessToken, 'Content-Type': 'application/json' },
				body: JSON.stringify({
					method: 'formBuilderInquiries',
					appId: FIXTURE.appId,
					pageId: FIXTURE.formPageId,
				}),
				...init,
			});
		const inquiries = () =>
			post('/V4/webservices/FormBuilderApi.php', {
				method: 'formBuilderInquiries',
				appId: FIXTURE.appId,
				pageId: FIXTURE.formPageId,
			});

		it('hangs a connection until the client gives up', async () => {
			emu().control.injectFault({ endpoint: 'formBuilderInquiries', kind: 'hang' });
			const giveUp = new AbortController();
			const hanging = fetch(`${emu().webUrl}/V4/webservices/FormBuilderApi.php`, {
				method: 'POST',
				headers: { ACCESSTOKEN: FIXTURE.accessToken },
				body: '{}',
				signal: giveUp.signal,
			});
			// Give up only once the emulator has the request, so the fault is spent within this test, not by a late request in the next.
			while (emu().control.requests().length === 0) await sleep(10);
			await sleep(200);
			expect(emu().control.faults).toEqual([]);
			giveUp.abort();
			await expect(hanging).rejects.toThrow();
		});

		it("hits only the named form's requests when a fault names a pageId", async () => {
			const other = () =>
				post('/V4/webservices/FormBuilderApi.php', {
					method: 'formBuilderInquiries',
					appId: FIXTURE.appId,
					pageId: FIXTURE.secondFormPageId,
				});
			emu().control.injectFault({
				endpoint: 'formBuilderInquiries',
				kind: 'status',
				status: 500,
				pageId: FIXTURE.secondFormPageId,
				times: 1,
			});
			expect((await inquiries()).status).toBe(200);
			expect((await other()).status).toBe(500);
			expect((await other()).status).toBe(200);
		});

		it('cuts a JSON body short', async () => {
			emu().control.addInquiry({ appId: FIXTURE.appId, pageId: FIXTURE.formPageId });
			emu().control.injectFault({ endpoint: 'formBuilderInquiries', kind: 'truncate' });
			const result = await inquiries();
			expect(result.status).toBe(200);
			expect(result.json).toBeUndefined();
			expect(result.text.startsWith('{"data":[')).toBe(true);
		});

		it('drops the connection halfway through the answer', async () => {
			emu().control.addInquiry({ appId: FIXTURE.appId, pageId: FIXTURE.formPageId });
			emu().control.injectFault({ endpoint: 'formBuilderInquiries', kind: 'drop' });
			const response = await fetchInquiries();
			expect(response.status).toBe(200);
			await expect(response.text()).rejects.toThrow();
		});

		it('stalls halfway through the answer until the client gives up', async () => {
			emu().control.addInquiry({ appId: FIXTURE.appId, pageId: FIXTURE.formPageId });
			emu().control.injectFault({ endpoint: 'formBuilderInquiries', kind: 'stall' });
			const giveUp = new AbortController();
			const response = await fetchInquiries({ signal: giveUp.signal });
			const reader = (response.body as ReadableStream<Uint8Array>).getReader();
			const first = await reader.read();
			expect(
				Buffer.from(first.value ?? [])
					.toString()
					.startsWith('{"data":['),
			).toBe(true);
			// Nothing more comes: the read still waits half a second after the first chunk, when the client gives up.
			const rest = reader.read();
			const gaveUp = sleep(500).then(() => giveUp.abort());
			await expect(rest).rejects.toThrow();
			await gaveUp;
		});

		it('resets the socket', async () => {
			emu().control.injectFault({ endpoint: 'formBuilderInquiries', kind: 'reset' });
			await expect(inquiries()).rejects.toThrow();
			expect((await inquiries()).status).toBe(200);
		});

		it('holds an answer until released, then answers as usual', async () => {
			emu().control.injectFault({ endpoint: 'formBuilderInquiries', kind: 'held' });
			let answered = false;
			const answer = inquiries().then((result) => {
				answered = true;
				return result;
			});
			while (emu().control.requests().length === 0) await sleep(10);
			await sleep(200);
			expect(answered).toBe(false);
			emu().control.releaseHeld();
			expect((await answer).status).toBe(200);
		});

		it('adds latency', async () => {
			emu().control.injectFault({ endpoint: 'formBuilderInquiries', kind: 'latency', ms: 200 });
			const started = Date.now();
			await inquiries();
			expect(Date.now() - started).toBeGreaterThanOrEqual(190);
		});

		/**
		 * The first chunks of an answer that does not end, read until `enough` holds of the text so far
		 * (or the answer ends), then the connection is given up: a wait for what arrived, not for a time.
		 */
		const readUntil = async (enough: (text: string) => boolean) => {
			const giveUp = new AbortController();
			const response = await fetchInquiries({ signal: giveUp.signal });
			const reader = (response.body as ReadableStream<Uint8Array>).getReader();
			const chunks: Buffer[] = [];
			for (;;) {
				const { value, done } = await reader.read();
				if (done)
					return { status: response.status, ended: true, text: Buffer.concat(chunks).toString() };
				chunks.push(Buffer.from(value));
				const text = Buffer.concat(chunks).toString();
				if (enough(text)) {
					giveUp.abort();
					return { status: response.status, ended: false, text };
				}
			}
		};

		it.each([302, 307, 308])(
			'redirects with %i to the given location, with no body',
			async (status) => {
				emu().control.injectFault({
					endpoint: 'formBuilderInquiries',
					kind: 'redirect',
					status,
					location: 'http://127.0.0.1:9/elsewhere',
				});
				const response = await fetch(`${emu().webUrl}/V4/webservices/FormBuilderApi.php`, {
					method: 'POST',
					headers: { ACCESSTOKEN: FIXTURE.accessToken },
					body: '{}',
					redirect: 'manual',
				});
				expect(response.status).toBe(status);
				expect(response.headers.get('location')).toBe('http://127.0.0.1:9/elsewhere');
				expect(await response.text()).toBe('');
			},
		);

		it('drips white space after the start of the answer, one byte at a time, without end', async () => {
			emu().control.injectFault({ endpoint: 'formBuilderInquiries', kind: 'drip', ms: 50 });
			const start = '{"status":"success","msg":"Record found","data":[';
			const read = await readUntil((text) => text.length >= start.length + 5);
			expect(read.ended).toBe(false);
			expect(read.text.startsWith(start)).toBe(true);
			expect(read.text.trimEnd()).toBe(start);
		});

		it('sends an inquiries list that never ends, each record whole JSON', async () => {
			emu().control.injectFault({ endpoint: 'formBuilderInquiries', kind: 'endless' });
			const read = await readUntil((text) => text.split('},{').length > 1001);
			expect(read.ended).toBe(false);
			const list = read.text.slice(read.text.indexOf('[') + 1);
			const whole = list.slice(0, list.lastIndexOf('},{') + 1);
			const records = JSON.parse(`[${whole}]`) as Array<{ _id: string }>;
			expect(records.length).toBeGreaterThan(1000);
			expect(new Set(records.map((record) => record._id)).size).toBe(records.length);
		});

		it('with throttleEvery 3 refuses every third web-service request with 429 and the configured Retry-After', async () => {
			emu().control.configure({ throttleEvery: 3, throttleRetryAfter: '0.5' });
			const statuses: number[] = [];
			let retryAfter: string | null = null;
			for (let i = 0; i < 6; i++) {
				const result = await inquiries();
				statuses.push(result.status);
				if (result.status === 429) retryAfter = result.headers.get('retry-after');
			}
			expect(statuses).toEqual([200, 200, 429, 200, 200, 429]);
			expect(retryAfter).toBe('0.5');
		});
	});

	describe('the wire: compression, bandwidth and round trip', () => {
		/** One POST over node:http, which (unlike fetch) neither adds Accept-Encoding nor decodes: the raw bytes as sent. */
		const rawPost = (
			path: string,
			body: Record<string, unknown>,
			headers: Record<string, string> = {},
			base = emu().webUrl,
		) =>
			new Promise<{
				status: number;
				headers: Record<string, string | string[] | undefined>;
				bytes: Buffer;
				ms: number;
			}>((resolve, reject) => {
				const startedAt = Date.now();
				const req = request(
					`${base}${path}`,
					{
						method: 'POST',
						headers: {
							'Content-Type': 'application/json',
							ACCESSTOKEN: FIXTURE.accessToken,
							...headers,
						},
					},
					(res) => {
						const chunks: Buffer[] = [];
						res.on('data', (chunk: Buffer) => chunks.push(chunk));
						res.on('end', () =>
							resolve({
								status: res.statusCode ?? 0,
								headers: res.headers,
								bytes: Buffer.concat(chunks),
								ms: Date.now() - startedAt,
							}),
						);
						res.on('error', reject);
					},
				);
				req.on('error', reject);
				req.end(JSON.stringify(body));
			});
		const inquiries = (headers: Record<string, string> = {}) =>
			rawPost(
				'/V4/webservices/FormBuilderApi.php',
				{ method: 'formBuilderInquiries', appId: FIXTURE.appId, pageId: FIXTURE.formPageId },
				headers,
			);
		const decode = (coding: unknown, bytes: Buffer): unknown => {
			const text =
				coding === 'gzip'
					? gunzipSync(bytes)
					: coding === 'br'
						? brotliDecompressSync(bytes)
						: coding === 'deflate'
							? inflateSync(bytes)
							: bytes;
			return JSON.parse(text.toString('utf8'));
		};
		const lastLogged = () => emu().control.requests().at(-1);
		const withInquiries = (count: number) =>
			emu().control.addInquiries({
				appId: FIXTURE.appId,
				pageId: FIXTURE.formPageId,
				count,
				fieldsPerRecord: 5,
			});

		it('is off by default: a request that asks for gzip gets the plain JSON', async () => {
			withInquiries(20);
			const answer = await inquiries({ 'Accept-Encoding': 'gzip, deflate, br' });
			expect(answer.headers['content-encoding']).toBeUndefined();
			expect((decode(undefined, answer.bytes) as { data: unknown[] }).data).toHaveLength(20);
			expect(lastLogged()?.acceptEncoding).toBe('gzip, deflate, br');
			expect(lastLogged()?.contentEncoding).toBeUndefined();
		});

		it.each(['gzip', 'br', 'deflate'])(
			'with compression on, answers %s when asked, with Vary, and the body decodes to the same JSON',
			async (coding) => {
				withInquiries(200);
				const plain = await inquiries();
				emu().control.configure({ compression: true });
				const answer = await inquiries({ 'Accept-Encoding': coding });
				expect(answer.status).toBe(200);
				expect(answer.headers['content-encoding']).toBe(coding);
				expect(answer.headers.vary).toBe('Accept-Encoding');
				expect(answer.bytes.length).toBeLessThan(plain.bytes.length / 3);
				expect(decode(coding, answer.bytes)).toEqual(decode(undefined, plain.bytes));
				expect(lastLogged()).toMatchObject({
					acceptEncoding: coding,
					contentEncoding: coding,
					bodyBytes: plain.bytes.length,
					wireBytes: answer.bytes.length,
				});
			},
		);

		it.each(['gzip', 'br', 'deflate'])(
			'sends the kept %s bytes of an unchanged answer again, and compresses anew once it changed',
			async (coding) => {
				emu().control.configure({ compression: true });
				withInquiries(100);
				const first = await inquiries({ 'Accept-Encoding': coding });
				expect(lastLogged()?.codedBytesReused).toBeUndefined();
				const again = await inquiries({ 'Accept-Encoding': coding });
				expect(lastLogged()).toMatchObject({
					contentEncoding: coding,
					wireBytes: first.bytes.length,
					codedBytesReused: true,
				});
				expect(again.headers['content-encoding']).toBe(coding);
				expect(again.bytes.equals(first.bytes)).toBe(true);
				const plain = await inquiries();
				expect(decode(coding, again.bytes)).toEqual(decode(undefined, plain.bytes));
				withInquiries(1);
				const changed = await inquiries({ 'Accept-Encoding': coding });
				expect(lastLogged()?.codedBytesReused).toBeUndefined();
				expect((decode(coding, changed.bytes) as { data: unknown[] }).data).toHaveLength(101);
				// Each coding keeps its own bytes.
				const other = coding === 'gzip' ? 'br' : 'gzip';
				expect(decode(other, (await inquiries({ 'Accept-Encoding': other })).bytes)).toEqual(
					decode(coding, changed.bytes),
				);
			},
		);

		it('never compresses an answer to a request that does not ask', async () => {
			emu().control.configure({ compression: true });
			withInquiries(20);
			const requests: Array<Record<string, string>> = [
				{},
				{ 'Accept-Encoding': 'identity' },
				{ 'Accept-Encoding': '' },
			];
			for (const headers of requests) {
				const answer = await inquiries(headers);
				expect(answer.headers['content-encoding']).toBeUndefined();
				expect((decode(undefined, answer.bytes) as { data: unknown[] }).data).toHaveLength(20);
				expect(lastLogged()?.contentEncoding).toBeUndefined();
			}
		});

		it('honours q-values: q=0 refuses a coding, the highest q wins, a tie goes to the one listed first, * covers the rest', async () => {
			emu().control.configure({ compression: true });
			const codingFor = async (acceptEncoding: string) =>
				(await inquiries({ 'Accept-Encoding': acceptEncoding })).headers['content-encoding'];
			expect(await codingFor('gzip;q=0')).toBeUndefined();
			expect(await codingFor('gzip;q=0, br')).toBe('br');
			expect(await codingFor('gzip;q=0.5, br;q=0.8, deflate;q=0.2')).toBe('br');
			expect(await codingFor('deflate, gzip')).toBe('deflate');
			expect(await codingFor('*')).toBe('gzip');
			expect(await codingFor('*;q=0.1, deflate;q=0.5')).toBe('deflate');
			expect(await codingFor('*, gzip;q=0, br;q=0')).toBe('deflate');
			expect(await codingFor('compress, zstd')).toBeUndefined();
		});

		it('offers only the codings a list allows', async () => {
			emu().control.configure({ compression: ['br'] });
			expect(
				(await inquiries({ 'Accept-Encoding': 'gzip, deflate' })).headers['content-encoding'],
			).toBeUndefined();
			expect((await inquiries({ 'Accept-Encoding': 'gzip, br' })).headers['content-encoding']).toBe(
				'br',
			);
		});

		it('compresses error answers and the Connect server too, without a stale Content-Length', async () => {
			emu().control.configure({ compression: true });
			const refused = await inquiries({ 'Accept-Encoding': 'gzip', ACCESSTOKEN: 'wrong' });
			expect(refused.status).toBe(401);
			expect(refused.headers['content-length']).toBeUndefined();
			expect(decode('gzip', refused.bytes)).toMatchObject({ status: 'error', code: 401 });
			const token = await rawPost(
				'/v1/oauth2/token',
				{
					grant_type: 'refresh_token',
					client_id: FIXTURE.clientId,
					client_secret: FIXTURE.clientSecret,
					refresh_token: FIXTURE.refreshToken,
				},
				{ 'Accept-Encoding': 'br' },
				emu().connectUrl,
			);
			expect(token.headers['content-encoding']).toBe('br');
			expect(decode('br', token.bytes)).toMatchObject({ access_token: expect.any(String) });
		});

		it("keeps a fault's shape under compression: a truncated answer decodes to half the JSON", async () => {
			emu().control.configure({ compression: true });
			withInquiries(10);
			emu().control.injectFault({ endpoint: 'formBuilderInquiries', kind: 'truncate' });
			const answer = await inquiries({ 'Accept-Encoding': 'gzip' });
			const text = gunzipSync(answer.bytes).toString('utf8');
			expect(text.startsWith('{"data":[')).toBe(true);
			expect(() => JSON.parse(text) as unknown).toThrow();
		});

		it('caps the bytes on the wire per second: an answer of n bytes takes at least n / bandwidthBytesPerSecond', async () => {
			withInquiries(60);
			const size = (await inquiries()).bytes.length;
			const bandwidth = Math.round(size / 0.8);
			emu().control.configure({ bandwidthBytesPerSecond: bandwidth });
			const answer = await inquiries();
			expect(answer.bytes.length).toBe(size);
			expect(answer.ms).toBeGreaterThanOrEqual(780);
			expect(answer.ms).toBeLessThan(3000);
		});

		it('caps the compressed bytes, not the JSON they decode to', async () => {
			withInquiries(400);
			emu().control.configure({ compression: true });
			const wire = (await inquiries({ 'Accept-Encoding': 'gzip' })).bytes.length;
			const plain = lastLogged()?.bodyBytes ?? 0;
			expect(plain).toBeGreaterThan(wire * 3);
			// At this bandwidth the plain JSON would take 3 s or more; the compressed answer takes about 0.5 s.
			emu().control.configure({ bandwidthBytesPerSecond: Math.round(wire / 0.5) });
			const answer = await inquiries({ 'Accept-Encoding': 'gzip' });
			expect(answer.headers['content-encoding']).toBe('gzip');
			expect(answer.ms).toBeGreaterThanOrEqual(480);
			expect(answer.ms).toBeLessThan(2000);
			expect((decode('gzip', answer.bytes) as { data: unknown[] }).data).toHaveLength(400);
		});

		it('adds roundTripMs before each answer starts, on both servers', async () => {
			const before = await inquiries();
			emu().control.configure({ roundTripMs: 300 });
			const delayed = await inquiries();
			expect(delayed.ms).toBeGreaterThanOrEqual(295);
			expect(delayed.ms).toBeGreaterThan(before.ms + 200);
			const profile = await rawPost('/v1/profile', {}, {}, emu().connectUrl);
			expect(profile.ms).toBeGreaterThanOrEqual(295);
		});
	});

	describe('Connect', () => {
		const token = (body: Record<string, unknown>, headers: Record<string, string> = {}) =>
			post('/v1/oauth2/token', body, { ACCESSTOKEN: '', ...headers }, emu().connectUrl);
		const refreshBody = (refreshToken: string) => ({
			grant_type: 'refresh_token',
			client_id: FIXTURE.clientId,
			client_secret: FIXTURE.clientSecret,
			refresh_token: refreshToken,
		});
		const profile = (accessToken: string) =>
			fetch(`${emu().connectUrl}/v1/profile`, {
				headers: { Authorization: `Bearer ${accessToken}` },
			});

		it('refreshes, rotates the refresh token, and rejects the old one', async () => {
			const first = await token(refreshBody(FIXTURE.refreshToken));
			expect(first.status).toBe(200);
			expect(first.json).toEqual({
				access_token: expect.any(String),
				refresh_token: expect.any(String),
				expires_at: expect.any(Number),
				type: 'bearer',
			});
			expect(first.json.expires_at).toBeGreaterThan(Date.now() / 1000);
			expect((await token(refreshBody(FIXTURE.refreshToken))).json).toMatchObject({
				error: 'invalid_grant',
			});
			expect((await token(refreshBody(first.json.refresh_token))).status).toBe(200);
		});

		it('tells a wrong client from a wrong refresh token, and accepts Basic client authentication', async () => {
			const wrongClient = await token({
				...refreshBody(FIXTURE.refreshToken),
				client_secret: 'nope',
			});
			expect(wrongClient.status).toBe(401);
			expect(wrongClient.json.error).toBe('invalid_client');
			expect((await token(refreshBody('unknown'))).json.error).toBe('invalid_grant');
			expect(
				(await token({ grant_type: 'password', client_id: 'x', refresh_token: 'y' })).json.error,
			).toBe('unsupported_grant_type');
			const basic = Buffer.from(`${FIXTURE.clientId}:${FIXTURE.clientSecret}`).toString('base64');
			const viaBasic = await token(
				{ grant_type: 'refresh_token', refresh_token: FIXTURE.refreshToken },
				{ Authorization: `Basic ${basic}` },
			);
			expect(viaBasic.status).toBe(200);
		});

		it('accepts a token request without ACCESSTOKEN by default, and with connectRequiresAccessToken refuses one without a valid ACCESSTOKEN', async () => {
			expect((await token(refreshBody(FIXTURE.refreshToken))).status).toBe(200);
			emu().control.reset();
			emu().control.configure({ connectRequiresAccessToken: true });
			for (const accessToken of ['', 'not-an-access-token']) {
				const refused = await token(refreshBody(FIXTURE.refreshToken), {
					ACCESSTOKEN: accessToken,
				});
				expect(refused.status).toBe(401);
				expect(refused.json).toEqual({
					error: 'invalid_token',
					error_description: expect.stringContaining('ACCESSTOKEN'),
				});
			}
			// Refused before the refresh token was looked at, so it is still unspent.
			expect(
				(await token(refreshBody(FIXTURE.refreshToken), { ACCESSTOKEN: FIXTURE.accessToken }))
					.status,
			).toBe(200);
		});

		it('protects /v1/profile: 200 with a fresh token, 401 once it expired', async () => {
			const { json } = await token(refreshBody(FIXTURE.refreshToken));
			expect((await profile(json.access_token)).status).toBe(200);
			emu().control.expireAccessTokens();
			const expired = await profile(json.access_token);
			expect(expired.status).toBe(401);
			expect(expired.headers.get('www-authenticate')).toMatch(/Bearer/);
		});

		it('answers web-service paths only on the web server and Connect paths only on the Connect server', async () => {
			expect((await post('/v1/oauth2/token', refreshBody(FIXTURE.refreshToken))).status).toBe(404);
			expect((await post('/V4/webservices/addUser.php', {}, {}, emu().connectUrl)).status).toBe(
				404,
			);
		});
	});
});
