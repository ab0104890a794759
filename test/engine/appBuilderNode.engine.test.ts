import { createHash } from 'crypto';
import { ExecuteContext } from 'n8n-core';
import type { IDataObject } from 'n8n-workflow';

import { FIXTURE } from '../emulator';
import {
	addUserParameters,
	appBuilderCredentials,
	getManyParameters,
	runAppBuilder,
	updateUserParameters,
} from '../support/appBuilderRuns';
import { useEmulator } from '../support/useEmulator';

/** The App Builder node run by n8n-core's WorkflowExecute against the emulator over real HTTP. */
describe('App Builder node in the n8n engine', () => {
	const emu = useEmulator();

	const credentials = (overrides: IDataObject = {}) => appBuilderCredentials(emu(), overrides);

	const run = async (
		parameters: IDataObject,
		inputItems: IDataObject[] = [{}],
		options: { continueOnFail?: boolean; credentialOverrides?: IDataObject } = {},
	) =>
		await runAppBuilder(credentials(options.credentialOverrides), parameters, {
			inputItems,
			continueOnFail: options.continueOnFail,
		});

	const addUser = (user: IDataObject = {}, extra: IDataObject = {}) =>
		addUserParameters({ ...user, ...extra });

	const secrets = [FIXTURE.accessToken, FIXTURE.apiKey, 'Secr3t-pass'];
	const expectNoSecrets = (value: unknown) => {
		const text = JSON.stringify(value);
		for (const secret of secrets) expect(text).not.toContain(secret);
	};

	describe('User: Add', () => {
		it('registers the user, sends blank optional fields, and outputs the result with the email', async () => {
			const result = await run(addUser());
			expect(result.error).toBeUndefined();
			expect(result.items).toEqual([
				{
					json: { successCode: '200', message: expect.any(String), email: 'jane@example.com' },
					pairedItem: { item: 0 },
				},
			]);
			const sent = emu()
				.control.requests()
				.find((r) => r.path === '/V4/webservices/addUser.php');
			expect(sent?.body).toEqual({
				method: 'addUser',
				apiKey: FIXTURE.apiKey,
				name: 'Jane Doe',
				email: 'jane@example.com',
				password: 'Secr3t-pass',
				phone: '5551234567',
				group: '',
				passwordType: '',
				status: '',
			});
			expect(emu().control.users()).toEqual([
				expect.objectContaining({ email: 'jane@example.com', name: 'Jane Doe' }),
			]);
		});

		it('hashes the password with MD5 inside n8n when asked, so the plain one is never sent', async () => {
			await run(
				addUser({ passwordFormat: 'hashInN8n', additionalFields: { group: 'VIP', status: '1' } }),
			);
			const sent = emu()
				.control.requests()
				.find((r) => r.path === '/V4/webservices/addUser.php');
			expect(sent?.body).toMatchObject({
				password: createHash('md5').update('Secr3t-pass').digest('hex'),
				passwordType: 'MD5',
				group: 'VIP',
				status: '1',
			});
			expect(JSON.stringify(emu().control.requests())).not.toContain('Secr3t-pass');
		});

		it('refuses a password declared MD5 that is not one, before calling the API', async () => {
			const result = await run(addUser({ passwordFormat: 'md5' }));
			expect(result.error?.message).toMatch(/not an MD5 hash/);
			expect(emu().control.requests()).toHaveLength(0);
		});

		it('turns a duplicate email (2039) into an error that says to use Update User', async () => {
			await run(addUser());
			const result = await run(addUser({ phone: '5550000000' }));
			expect(result.error?.message).toMatch(/already belongs to an app user/);
			expect(result.error?.description).toMatch(/Update User/);
			expect(result.error?.description).toMatch(/send them to the app to log in/);
			expectNoSecrets({ message: result.error?.message, description: result.error?.description });
		});
	});

	describe('User: Update', () => {
		const update = updateUserParameters;

		it('changes the user, sends the phone as an integer and leaves status out when not set', async () => {
			await run(addUser());
			emu().control.clearRequests();
			const result = await run(update());
			expect(result.error).toBeUndefined();
			expect(result.items[0].json).toMatchObject({ successCode: '200', email: 'jane@example.com' });
			const sent = emu()
				.control.requests()
				.find((r) => r.path === '/V4/webservices/editUser.php');
			expect(sent?.body).toEqual({
				method: 'editUser',
				apiKey: FIXTURE.apiKey,
				name: 'Jane Smith',
				email: 'jane@example.com',
				phone: 5551239999,
				group: 'Gold',
				password: 'Secr3t-pass',
				passwordType: '',
			});
			expect(emu().control.users()[0]).toMatchObject({ name: 'Jane Smith', group: 'Gold' });
		});

		it.each([
			['+15551234567', /\+/],
			['0123456789', /starts with 0/],
			['12345678901234567890', /more digits/],
		])('refuses the phone %s rather than change it, and names the fix', async (phone, message) => {
			const result = await run(update({ phone }));
			expect(result.error?.message).toMatch(message);
			expect(result.error?.description).toMatch(/Phone Format to Text/);
			expect(emu().control.requests()).toHaveLength(0);
		});

		it('sends the phone as typed when Phone Format is Text', async () => {
			await run(addUser({ phone: '+44 20 7946 0958' }));
			emu().control.clearRequests();
			const result = await run(update({ phone: '+44 20 7946 0958', phoneFormat: 'text' }));
			expect(result.error).toBeUndefined();
			const sent = emu()
				.control.requests()
				.find((r) => r.path === '/V4/webservices/editUser.php');
			expect(sent?.body.phone).toBe('+44 20 7946 0958');
		});
	});

	describe('Inquiry: Get Many', () => {
		const getMany = getManyParameters;

		const seed = () => {
			const base = Date.parse('2026-03-01T10:00:00Z');
			for (let i = 0; i < 5; i++) {
				emu().control.addInquiry({
					appId: FIXTURE.appId,
					pageId: FIXTURE.formPageId,
					addedon: base + i * 60_000,
					readStatus: i % 2,
					fields: [
						{ name: 'name', label: 'Your Name', value: `Lead ${i}` },
						{ name: 'email', label: 'Email', value: `lead${i}@example.com` },
					],
				});
			}
			return base;
		};

		it('returns flattened inquiries, newest first by default, with pairedItem', async () => {
			seed();
			const result = await run(getMany());
			expect(result.error).toBeUndefined();
			expect(result.items.map((item) => item.json.name)).toEqual([
				'Lead 4',
				'Lead 3',
				'Lead 2',
				'Lead 1',
				'Lead 0',
			]);
			expect(result.items[0].json).toMatchObject({
				email: 'lead4@example.com',
				appId: FIXTURE.appId,
				pageId: FIXTURE.formPageId,
				submittedAt: '2026-03-01T10:04:00.000Z',
				fieldLabels: { name: 'Your Name', email: 'Email' },
			});
			expect(result.items.every((item) => (item.pairedItem as { item: number }).item === 0)).toBe(
				true,
			);
		});

		it('applies limit, sort, read status and date filters in the node', async () => {
			const base = seed();
			const limited = await run(
				getMany({ returnAll: false, limit: 2, filters: { sort: 'oldestFirst' } }),
			);
			expect(limited.items.map((item) => item.json.name)).toEqual(['Lead 0', 'Lead 1']);
			const unread = await run(getMany({ filters: { readStatus: 'unread', sort: 'oldestFirst' } }));
			expect(unread.items.map((item) => item.json.name)).toEqual(['Lead 0', 'Lead 2', 'Lead 4']);
			const window = await run(
				getMany({
					filters: {
						submittedAfter: new Date(base + 60_000).toISOString(),
						submittedBefore: new Date(base + 4 * 60_000).toISOString(),
						sort: 'oldestFirst',
					},
				}),
			);
			expect(window.items.map((item) => item.json.name)).toEqual(['Lead 2', 'Lead 3']);
		});

		it('returns the raw records when Simplify is off', async () => {
			seed();
			const result = await run(getMany({ simplify: false, returnAll: false, limit: 1 }));
			expect(result.items[0].json).toHaveProperty('_id');
			expect(typeof result.items[0].json.formbuilderData).toBe('string');
		});

		it('refuses a page that is not a form page, naming the expected shape', async () => {
			// "By ID" values are checked by n8n's own parameter validation; a list value or an expression is checked by the node.
			const result = await run(
				getMany({ pageId: { __rl: true, mode: 'list', value: 'home_1001' } }),
			);
			expect(result.error?.message).toMatch(/not a form page ID/);
			expect(result.error?.description).toMatch(/formbuilder_1234_5678/);
		});
	});

	describe('errors from the API', () => {
		const errorCases: Array<[number, IDataObject, RegExp]> = [
			[
				401,
				{ credentialOverrides: { accessToken: 'wrong-access-token' } },
				/did not accept the access token/,
			],
			[2032, { credentialOverrides: { apiKey: '' } }, /needs the account's API key/],
			[2036, { credentialOverrides: { apiKey: 'unknown-api-key' } }, /not valid for this account/],
			[2038, { credentialOverrides: { apiKey: 'bad key!' } }, /malformed/],
			[2041, { user: { email: 'not-an-email' } }, /not valid/],
		];

		for (const delivery of ['http-status', 'body'] as const) {
			for (const shape of ['status-code-msg', 'successCode-message'] as const) {
				it.each(errorCases)(`maps %s (${delivery}, ${shape})`, async (code, setup, message) => {
					emu().control.configure({ errorDelivery: delivery, errorShape: shape });
					const result = await run(addUser(setup.user as IDataObject), [{}], {
						credentialOverrides: setup.credentialOverrides as IDataObject,
					});
					expect(result.error).toBeDefined();
					expect(result.error?.message).toMatch(message);
					expect(String((result.error as { httpCode?: string }).httpCode)).toBe(String(code));
					expectNoSecrets({
						message: result.error?.message,
						description: result.error?.description,
					});
				});
			}
		}

		it('maps 2040 (phone already used) and names the fix', async () => {
			await run(addUser());
			const result = await run(addUser({ email: 'other@example.com' }));
			expect(result.error?.message).toMatch(/phone number already belongs/);
			expect(result.error?.description).toMatch(/check the number for this item/);
		});

		it('reads an HTML error page as a clear error, not a parse crash', async () => {
			emu().control.configure({ errorShape: 'html', errorDelivery: 'body' });
			const result = await run(addUser(), [{}], {
				credentialOverrides: { apiKey: 'unknown-api-key' },
			});
			expect(result.error?.message).toMatch(/not valid for this account/);
		});

		it.each([403, 404, 405, 406, 410])('explains HTTP %s', async (status) => {
			emu().control.injectFault({ endpoint: 'addUser', kind: 'status', status });
			const result = await run(addUser());
			expect(String((result.error as { httpCode?: string }).httpCode)).toBe(String(status));
			expect(result.error?.description?.length).toBeGreaterThan(20);
		});

		it('retries 500 and 503 and succeeds without a duplicate', async () => {
			emu().control.injectFault({ endpoint: 'addUser', kind: 'status', status: 503, times: 1 });
			const result = await run(addUser());
			expect(result.error).toBeUndefined();
			expect(emu().control.users()).toHaveLength(1);
		});

		it('gives a clear error for a cut-short body that stays cut short', async () => {
			emu().control.injectFault({ endpoint: 'formBuilderInquiries', kind: 'truncate', times: 10 });
			const result = await run({
				resource: 'inquiry',
				operation: 'getAll',
				appId: FIXTURE.appId,
				pageId: { __rl: true, mode: 'id', value: FIXTURE.formPageId },
				returnAll: true,
				simplify: true,
			});
			expect(result.error?.message).toMatch(/not JSON/);
		});
	});

	describe('many items', () => {
		it('continues on fail with mixed good and bad items, keeping order and pairing', async () => {
			const inputs = [
				{ email: 'a@example.com', phone: '5550000001' },
				{ email: 'not-an-email', phone: '5550000002' },
				{ email: 'c@example.com', phone: '5550000003' },
				{ email: 'a@example.com', phone: '5550000004' },
			];
			const result = await run(
				addUser({ email: '={{ $json.email }}', phone: '={{ $json.phone }}' }),
				inputs,
				{ continueOnFail: true },
			);
			expect(result.error).toBeUndefined();
			expect(result.items.map((item) => item.pairedItem)).toEqual(
				[0, 1, 2, 3].map((item) => ({ item })),
			);
			expect(result.items[0].json).toMatchObject({ successCode: '200', email: 'a@example.com' });
			expect(result.items[1].json.error).toMatch(/not valid/);
			expect(result.items[2].json).toMatchObject({ successCode: '200', email: 'c@example.com' });
			expect(result.items[3].json.error).toMatch(/already belongs/);
			expectNoSecrets(result.items);
		});

		it('reads the credential once per run, not once per item', async () => {
			const helper = credentials();
			const inputs = Array.from({ length: 12 }, (_, i) => ({
				email: `reader${i}@example.com`,
				phone: `55510000${10 + i}`,
			}));
			const result = await runAppBuilder(
				helper,
				addUser({ email: '={{ $json.email }}', phone: '={{ $json.phone }}' }),
				{
					inputItems: inputs,
				},
			);
			expect(result.error).toBeUndefined();
			expect(emu().control.users()).toHaveLength(12);
			expect(helper.decryptedReads).toBe(1);
		});

		it('reads a parameter that holds no expression once per run, and the expressions once per item', async () => {
			// Every getNodeParameter of a node run goes through this method of n8n-core's context.
			const context = ExecuteContext.prototype as unknown as {
				_getNodeParameter: (name: string, ...rest: unknown[]) => unknown;
			};
			const reads = jest.spyOn(context, '_getNodeParameter');
			try {
				const inputs = Array.from({ length: 12 }, (_, i) => ({
					email: `fixed${i}@example.com`,
					phone: `55520000${10 + i}`,
				}));
				const result = await run(
					addUser({
						email: '={{ $json.email }}',
						phone: '={{ $json.phone }}',
						passwordFormat: 'hashInN8n',
					}),
					inputs,
				);
				expect(result.error).toBeUndefined();
				expect(emu().control.users()).toHaveLength(12);
				const readsOf = (path: string) => reads.mock.calls.filter(([name]) => name === path).length;
				expect(readsOf('passwordFormat')).toBe(1);
				expect(readsOf('additionalFields.status')).toBe(1);
				expect(readsOf('email')).toBe(12);
				expect(readsOf('phone')).toBe(12);
			} finally {
				reads.mockRestore();
			}
		});

		it('still names each item when a parameter without an expression is refused', async () => {
			const inputs = [
				{ email: 'one@example.com' },
				{ email: 'two@example.com' },
				{ email: 'three@example.com' },
			];
			const result = await run(
				addUser({ email: '={{ $json.email }}', passwordFormat: 'sha1' }),
				inputs,
				{ continueOnFail: true },
			);
			expect(result.error).toBeUndefined();
			expect(result.items.map((item) => item.json.error)).toEqual(
				[0, 1, 2].map(
					(item) =>
						`Password Format must be one of "md5", "hashInN8n" or "plain", but it is "sha1" [item ${item}]`,
				),
			);
			expect(result.items.map((item) => item.pairedItem)).toEqual(
				[0, 1, 2].map((item) => ({ item })),
			);
			expect(emu().control.requests()).toHaveLength(0);
		});

		it('recovers from 429 with Retry-After without losing or repeating an item', async () => {
			emu().control.configure({ rateLimitPerSecond: 3 });
			const inputs = Array.from({ length: 8 }, (_, i) => ({
				email: `user${i}@example.com`,
				phone: `55500000${10 + i}`,
			}));
			const result = await run(
				addUser({ email: '={{ $json.email }}', phone: '={{ $json.phone }}' }),
				inputs,
			);
			expect(result.error).toBeUndefined();
			expect(result.items.map((item) => item.json.email)).toEqual(
				inputs.map((input) => input.email),
			);
			expect(
				emu()
					.control.users()
					.map((user: IDataObject) => user.email)
					.sort(),
			).toEqual(inputs.map((input) => input.email).sort());
			expect(
				emu()
					.control.requests()
					.some((r) => r.status === 429),
			).toBe(true);
		});
	});

	describe('parameter values from expressions', () => {
		// A fixed value has the type the editor gives it; an expression can give anything.
		const itemIndexOf = (error: unknown) =>
			(error as { context?: { itemIndex?: number } }).context?.itemIndex;
		const sentTo = (script: string) =>
			emu()
				.control.requests()
				.filter((request) => request.path === `/V4/webservices/${script}.php`);

		const getMany = (extra: IDataObject = {}) =>
			getManyParameters({ returnAll: false, limit: 50, ...extra });
		const BASE = Date.parse('2026-03-01T10:00:00Z');
		const seed = () => {
			for (let i = 0; i < 5; i++) {
				emu().control.addInquiry({
					appId: FIXTURE.appId,
					pageId: FIXTURE.formPageId,
					addedon: BASE + i * 60_000,
					fields: [{ name: 'name', label: 'Your Name', value: `Lead ${i}` }],
				});
			}
		};

		it.each([
			'={{ NaN }}',
			'={{ "abc" }}',
			'={{ undefined }}',
			'={{ 0 }}',
			'={{ 2.5 }}',
			'={{ 51 }}',
		])(
			'refuses Concurrency %s, naming the option, instead of sending nothing or another number',
			async (concurrency) => {
				const result = await run(addUser({}, { options: { concurrency } }));
				expect(result.error?.message).toMatch(
					/^Concurrency must be a whole number from 1 to 50, but the expression gave .+ \[item 0\]$/,
				);
				expect(itemIndexOf(result.error)).toBe(0);
				expect(emu().control.requests()).toHaveLength(0);
			},
		);

		it('takes Concurrency given as digits ("2") and sends every item', async () => {
			const inputs = [{ n: 1 }, { n: 2 }, { n: 3 }];
			const result = await run(
				addUser(
					{ email: '={{ "u" + $json.n + "@example.com" }}', phone: '={{ "555000000" + $json.n }}' },
					{ options: { concurrency: '={{ "2" }}' } },
				),
				inputs,
			);
			expect(result.error).toBeUndefined();
			expect(emu().control.users()).toHaveLength(3);
		});

		describe.each([
			['Email', 'email', 'good@example.com'],
			['Name', 'name', 'Good Name'],
			['Phone', 'phone', '5551112222'],
			['Group', 'additionalFields.group', 'Gold'],
		])('Add User: %s', (label, path, goodValue) => {
			// Every field comes from the item; the one under test from $json.v.
			const parameters = () => {
				const fields: IDataObject = addUser({
					email: '={{ $json.email }}',
					phone: '={{ $json.phone }}',
				});
				const [parent, key] = path.split('.');
				fields[parent] = key ? { [key]: '={{ $json.v }}' } : '={{ $json.v }}';
				return fields;
			};

			it.each([
				[{ street: 'Main' }, 'an object'],
				[['a', 'b'], 'a list \\(array\\)'],
				[true, 'true \\(a boolean\\)'],
			])(
				`refuses %p for ${label}, naming the field, the type and the item; sends nothing for that item`,
				async (bad, given) => {
					const inputs = [
						{ email: 'good@example.com', phone: '5551112222', v: goodValue },
						{ email: 'bad@example.com', phone: '5553334444', v: bad },
					];
					const result = await run(parameters(), inputs);
					expect(result.error?.message).toMatch(
						new RegExp(
							`^${label} must be text or a number, but the expression gave ${given} \\[item 1\\]$`,
						),
					);
					expect(itemIndexOf(result.error)).toBe(1);
					// Item 0 was fine and went out; item 1 never did.
					expect(sentTo('addUser').map((request) => request.body.email)).toEqual([
						'good@example.com',
					]);
				},
			);
		});

		it('sends a Phone and a Group that an expression gives as numbers as their digits', async () => {
			const result = await run(
				addUser({ phone: '={{ 5551234567 }}', additionalFields: { group: '={{ 42 }}' } }),
			);
			expect(result.error).toBeUndefined();
			expect(sentTo('addUser')[0].body).toMatchObject({ phone: '5551234567', group: '42' });
		});

		it.each([
			[{ value: 'Secr3t-pass' }, 'an object'],
			[['Secr3t-pass', 'x'], 'a list \\(array\\)'],
			[true, 'a boolean'],
		])(
			'refuses a Password of %p, saying only its type, and sends nothing',
			async (password, given) => {
				const result = await run(addUser({ password: '={{ $json.secret }}' }), [
					{ secret: password },
				]);
				expect(result.error?.message).toMatch(
					new RegExp(
						`^Password must be text or a number, but the expression gave ${given} \\[item 0\\]$`,
					),
				);
				expect(itemIndexOf(result.error)).toBe(0);
				expectNoSecrets({ message: result.error?.message, description: result.error?.description });
				expect(emu().control.requests()).toHaveLength(0);
			},
		);

		it('refuses a Password Format that is not one of its options, instead of sending the password as plain', async () => {
			const md5 = createHash('md5').update('Secr3t-pass').digest('hex');
			const result = await run(addUser({ password: md5, passwordFormat: '={{ "MD5" }}' }));
			expect(result.error?.message).toMatch(
				/^Password Format must be one of "md5", "hashInN8n" or "plain", but the expression gave "MD5" \[item 0\]$/,
			);
			expect(emu().control.requests()).toHaveLength(0);
		});

		it('refuses a Status that is not one of its options (Add), instead of sending it', async () => {
			const result = await run(addUser({ additionalFields: { status: '={{ "active" }}' } }));
			expect(result.error?.message).toMatch(
				/^Status must be one of "1", "0" or "" \(empty\), but the expression gave "active" \[item 0\]$/,
			);
			expect(emu().control.requests()).toHaveLength(0);
		});

		describe('Update User', () => {
			const update = (extra: IDataObject = {}) =>
				updateUserParameters({ phone: '5551234567', group: '', ...extra });

			it('sends a Status of 1 from an expression, instead of leaving it out', async () => {
				await run(addUser());
				emu().control.clearRequests();
				const result = await run(update({ additionalFields: { status: '={{ 1 }}' } }));
				expect(result.error).toBeUndefined();
				expect(sentTo('editUser')[0].body.status).toBe('1');
			});

			it.each([
				[
					'group',
					{ group: '={{ { name: "Gold" } }}' },
					/^Group must be text or a number, but the expression gave an object \[item 0\]$/,
				],
				[
					'phone',
					{ phone: '={{ [555, 123] }}' },
					/^Phone must be text or a number, but the expression gave a list \(array\) \[item 0\]$/,
				],
				[
					'phoneFormat',
					{ phoneFormat: '={{ "Text" }}' },
					/^Phone Format must be one of "integer" or "text", but the expression gave "Text" \[item 0\]$/,
				],
				[
					'status',
					{ additionalFields: { status: '={{ true }}' } },
					/^Status must be one of "1", "0" or "" \(empty\), but the expression gave true \(a boolean\) \[item 0\]$/,
				],
			])(
				'refuses a wrong %s from an expression and sends nothing',
				async (_field, extra, message) => {
					const result = await run(update(extra));
					expect(result.error?.message).toMatch(message);
					expect(emu().control.requests()).toHaveLength(0);
				},
			);
		});

		describe('Get Many', () => {
			it.each([
				'={{ -2 }}',
				'={{ NaN }}',
				'={{ 2.5 }}',
				'={{ 0 }}',
				'={{ "abc" }}',
				'={{ undefined }}',
			])('refuses Limit %s, naming it and the item, before reading any inquiry', async (limit) => {
				seed();
				const result = await run(getMany({ limit }), [{}, {}]);
				expect(result.error?.message).toMatch(
					/^Limit must be a whole number of 1 or more, but the expression gave .+ \[item 0\]$/,
				);
				expect(itemIndexOf(result.error)).toBe(0);
				expect(emu().control.requests()).toHaveLength(0);
			});

			it('says what a wrong Limit was: "-2"', async () => {
				const result = await run(getMany({ limit: '={{ -2 }}' }));
				expect(result.error?.message).toBe(
					'Limit must be a whole number of 1 or more, but the expression gave "-2" [item 0]',
				);
			});

			it('names the item whose Limit is wrong', async () => {
				seed();
				const result = await run(getMany({ limit: '={{ $json.limit }}' }), [
					{ limit: 2 },
					{ limit: -2 },
				]);
				expect(result.error?.message).toMatch(/\[item 1\]$/);
				expect(itemIndexOf(result.error)).toBe(1);
			});

			it('takes a Limit given as digits ("3")', async () => {
				seed();
				const result = await run(getMany({ limit: '={{ "3" }}' }));
				expect(result.error).toBeUndefined();
				expect(result.items.map((item) => item.json.name)).toEqual(['Lead 4', 'Lead 3', 'Lead 2']);
			});

			it.each([
				[{ id: 1001 }, 'an object'],
				[[1001], 'a list \\(array\\)'],
				[false, 'false \\(a boolean\\)'],
			])('refuses an App ID of %p instead of sending its text', async (appId, given) => {
				const result = await run(getMany({ appId: '={{ $json.app }}' }), [{ app: appId }]);
				expect(result.error?.message).toMatch(
					new RegExp(
						`^App ID must be text or a number, but the expression gave ${given} \\[item 0\\]$`,
					),
				);
				expect(itemIndexOf(result.error)).toBe(0);
				expect(emu().control.requests()).toHaveLength(0);
			});

			it('sends an App ID that an expression gives as a number as its digits', async () => {
				const result = await run(getMany({ appId: '={{ 1001 }}' }));
				expect(result.error).toBeUndefined();
				expect(sentTo('FormBuilderApi')[0].body.appId).toBe('1001');
			});

			it('reads Return All "false" from an expression as false, so Limit applies', async () => {
				seed();
				const result = await run(getMany({ returnAll: '={{ "false" }}', limit: 2 }));
				expect(result.error).toBeUndefined();
				expect(result.items).toHaveLength(2);
			});

			it.each([
				[
					'Return All',
					{ returnAll: '={{ "no" }}' },
					/^Return All must be true or false, but the expression gave "no" \[item 0\]$/,
				],
				[
					'Simplify',
					{ simplify: '={{ 1 }}' },
					/^Simplify must be true or false, but the expression gave "1" \[item 0\]$/,
				],
				[
					'Sort',
					{ filters: { sort: '={{ "Newest" }}' } },
					/^Sort must be one of "newestFirst" or "oldestFirst", but the expression gave "Newest" \[item 0\]$/,
				],
				[
					'Read Status',
					{ filters: { readStatus: '={{ "Unread" }}' } },
					/^Read Status must be one of "any", "read" or "unread", but the expression gave "Unread" \[item 0\]$/,
				],
				[
					'Submitted After',
					{ filters: { submittedAfter: '={{ 5 }}' } },
					/^Submitted After must be a date and time such as 2026-01-31T09:00:00 \(read in the workflow's time zone\) or 2026-01-31T09:00:00Z, but the expression gave "5" \[item 0\]$/,
				],
				[
					'Submitted Before',
					{ filters: { submittedBefore: '={{ ["2026-03-01T10:02:00Z"] }}' } },
					/^Submitted Before must be a date and time such as 2026-01-31T09:00:00 \(read in the workflow's time zone\) or 2026-01-31T09:00:00Z, but the expression gave a list \(array\) \[item 0\]$/,
				],
			])(
				'refuses a %s the node would otherwise read as something else',
				async (_field, extra, message) => {
					seed();
					const result = await run(getMany(extra));
					expect(result.error?.message).toMatch(message);
					expect(emu().control.requests()).toHaveLength(0);
				},
			);

			it('keeps the milliseconds of a Date that an expression gives to Submitted After', async () => {
				emu().control.configure({ timestampUnit: 'ms' });
				emu().control.addInquiry({
					appId: FIXTURE.appId,
					pageId: FIXTURE.formPageId,
					addedon: BASE + 250,
					fields: [{ name: 'name', label: 'Your Name', value: 'Early' }],
				});
				emu().control.addInquiry({
					appId: FIXTURE.appId,
					pageId: FIXTURE.formPageId,
					addedon: BASE + 750,
					fields: [{ name: 'name', label: 'Your Name', value: 'Late' }],
				});
				const result = await run(
					getMany({
						returnAll: true,
						filters: { submittedAfter: `={{ new Date(${BASE + 500}) }}` },
					}),
				);
				expect(result.error).toBeUndefined();
				expect(result.items.map((item) => item.json.name)).toEqual(['Late']);
			});
		});
	});

	describe('Inquiry: Get Many with a record the API sends broken', () => {
		it('returns every record, the broken ones flagged with their text, filtered, sorted and limited like the rest', async () => {
			const base = Date.parse('2026-03-01T10:00:00Z');
			const lead = (name: string, addedon: number) =>
				emu().control.addInquiry({
					appId: FIXTURE.appId,
					pageId: FIXTURE.formPageId,
					addedon,
					fields: [{ name: 'name', label: 'Your Name', value: name }],
				});
			const broken = `{"_id":"broken1","addedon":${(base + 60_000) / 1000},"readStatus":0,"formData":[["Ann\\q"],["Your Name"],["name"]]}`;
			const undated = '{"_id":"broken2","addedon":"soon","name": hello}';
			lead('Lead 0', base);
			emu().control.addRawInquiry({
				appId: FIXTURE.appId,
				pageId: FIXTURE.formPageId,
				json: broken,
			});
			lead('Lead 2', base + 120_000);
			emu().control.addRawInquiry({
				appId: FIXTURE.appId,
				pageId: FIXTURE.formPageId,
				json: undated,
			});
			const getMany = (extra: IDataObject = {}) => run(getManyParameters(extra));
			const label = (json: IDataObject) => json.name ?? json.inquiryId ?? json._id;

			const all = await getMany();
			expect(all.error).toBeUndefined();
			// Newest first; the one without a readable time sorts as the oldest.
			expect(all.items.map((item) => label(item.json))).toEqual([
				'Lead 2',
				'broken1',
				'Lead 0',
				'broken2',
			]);
			expect(all.items[1]).toEqual({
				json: {
					inquiryId: 'broken1',
					submittedAt: '2026-03-01T10:01:00.000Z',
					rawRecord: broken,
					formWarnings: [
						`the inquiry is not valid JSON (a bad escape "\\\\q" at character ${broken.indexOf('\\') + 1}); its text is in rawRecord`,
					],
				},
				pairedItem: { item: 0 },
			});

			const raw = await getMany({ simplify: false, filters: { sort: 'oldestFirst' } });
			expect(raw.items.map((item) => label(item.json))).toEqual([
				'broken2',
				expect.any(String),
				'broken1',
				expect.any(String),
			]);
			expect(raw.items[0].json).toEqual({
				_id: 'broken2',
				addedon: 'soon',
				rawRecord: undated,
				formWarnings: [expect.stringContaining('a bare word "hello"')],
			});

			const limited = await getMany({
				returnAll: false,
				limit: 2,
				filters: { submittedAfter: new Date(base + 1000).toISOString() },
			});
			expect(limited.items.map((item) => label(item.json))).toEqual(['Lead 2', 'broken1']);
		});
	});
});
