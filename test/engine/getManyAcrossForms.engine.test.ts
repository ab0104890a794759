import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import { FIXTURE } from '../emulator';
import { appBuilderCredentials, getManyParameters, runAppBuilder } from '../support/appBuilderRuns';
import { useEmulator } from '../support/useEmulator';

/**
 * Get Many over every form of an app, through n8n-core over real HTTP
 * against the emulator: Sort, Limit and the filters apply across forms;
 * one form that fails or answers garbage is named while the others' items
 * still come out (Continue On Fail) or the call fails saying which forms
 * were read; a forms list that fails or has no list is an error.
 */
describe('Get Many over all forms of the app, in the n8n engine', () => {
	const emu = useEmulator();
	const FORMS = [
		{ pageId: 'formbuilder_2001_1', pageName: 'Contact Us' },
		{ pageId: 'formbuilder_2001_2', pageName: 'Quote Request' },
		{ pageId: 'formbuilder_2001_3', pageName: 'Booking' },
	];
	const T0 = Date.parse('2026-06-01T09:00:00Z');
	const MINUTE = 60_000;

	/** Leads of each form at interleaved times: form i gets minutes i, i + 3, i + 6, ... */
	const seed = (perForm: number) => {
		emu().control.addApp({
			appId: FIXTURE.appId,
			accessToken: FIXTURE.accessToken,
			pages: [{ pageId: 'home_2001', pageName: 'Home' }, ...FORMS],
		});
		FORMS.forEach((form, formIndex) => {
			for (let n = 0; n < perForm; n++) {
				const minute = formIndex + 3 * n;
				emu().control.addInquiry({
					appId: FIXTURE.appId,
					pageId: form.pageId,
					addedon: T0 + minute * MINUTE,
					updatedon: T0 + minute * MINUTE,
					readStatus: n % 2,
					fields: [{ name: 'name', label: 'Your Name', value: `m${minute}` }],
				});
			}
		});
	};
	const getMany = async (extra: IDataObject, continueOnFail = false) =>
		await runAppBuilder(
			appBuilderCredentials(emu()),
			getManyParameters({ readFrom: 'allForms', pageId: undefined, ...extra }),
			{ continueOnFail },
		);
	const names = (items: INodeExecutionData[]) => items.map((item) => String(item.json.name));
	const fail = (pageId: string, fault: IDataObject) =>
		emu().control.injectFault({
			endpoint: 'formBuilderInquiries',
			pageId,
			times: 100,
			...fault,
		} as never);

	it('reads every form the app lists, newest first across forms, each item naming its form', async () => {
		seed(3);
		const run = await getMany({});
		expect(run.error).toBeUndefined();
		expect(names(run.items)).toEqual(['m8', 'm7', 'm6', 'm5', 'm4', 'm3', 'm2', 'm1', 'm0']);
		expect(run.items.map((item) => item.json.formName)).toEqual([
			'Booking',
			'Quote Request',
			'Contact Us',
			'Booking',
			'Quote Request',
			'Contact Us',
			'Booking',
			'Quote Request',
			'Contact Us',
		]);
		expect(run.items[0].json.pageId).toBe(FORMS[2].pageId);
		const asked = emu()
			.control.requests()
			.filter((request) => request.body?.method === 'formBuilderInquiries')
			.map((request) => String(request.body.pageId))
			.sort();
		expect(asked).toEqual(FORMS.map((form) => form.pageId));
	});

	it('applies Sort, Limit and the filters across forms, not per form', async () => {
		seed(4);
		const oldest = await getMany({
			returnAll: false,
			limit: 4,
			filters: { sort: 'oldestFirst' },
		});
		expect(names(oldest.items)).toEqual(['m0', 'm1', 'm2', 'm3']);

		const window = await getMany({
			returnAll: false,
			limit: 3,
			filters: {
				submittedAfter: new Date(T0 + 2 * MINUTE).toISOString(),
				submittedBefore: new Date(T0 + 9 * MINUTE).toISOString(),
				readStatus: 'unread',
			},
		});
		// Unread are n = 0 and 2: minutes 0, 1, 2 and 6, 7, 8; after minute 2 and before minute 9, newest first.
		expect(names(window.items)).toEqual(['m8', 'm7', 'm6']);
	});

	it('holds at most Limit across forms: Limit 30,000 over 4 forms of 26,000 returns 30,000', async () => {
		const forms = [...FORMS, { pageId: 'formbuilder_2001_4', pageName: 'Feedback' }];
		const perForm = 26_000;
		emu().control.addApp({ appId: FIXTURE.appId, accessToken: FIXTURE.accessToken, pages: forms });
		// Form i's inquiries are at seconds i, i + 4, i + 8, ...: the newest 30,000 are 7,500 of each.
		forms.forEach((form, formIndex) =>
			emu().control.addInquiries({
				appId: FIXTURE.appId,
				pageId: form.pageId,
				count: perForm,
				fieldsPerRecord: 1,
				startTime: T0 + formIndex * 1000,
				spacingMs: forms.length * 1000,
			}),
		);
		// Paced alike, the four answers stream side by side to their last records.
		emu().control.configure({ bandwidthBytesPerSecond: 4 * 1024 * 1024 });

		const run = await getMany({ returnAll: false, limit: 30_000 });
		expect(run.error).toBeUndefined();
		expect(run.items).toHaveLength(30_000);
		const times = run.items.map((item) => Date.parse(String(item.json.submittedAt)));
		const newest = T0 + (forms.length * perForm - 1) * 1000;
		expect(times[0]).toBe(newest);
		expect(times[times.length - 1]).toBe(newest - (30_000 - 1) * 1000);
		expect(times.every((time, index) => index === 0 || time === times[index - 1] - 1000)).toBe(
			true,
		);
		const perPage = new Map<string, number>();
		for (const item of run.items)
			perPage.set(String(item.json.pageId), (perPage.get(String(item.json.pageId)) ?? 0) + 1);
		expect(Object.fromEntries(perPage)).toEqual(
			Object.fromEntries(forms.map((form) => [form.pageId, 7_500])),
		);
	});

	it("takes the credential's secrets out of every inquiry it returns, a broken one's text too", async () => {
		seed(1);
		emu().control.addInquiry({
			appId: FIXTURE.appId,
			pageId: FORMS[1].pageId,
			addedon: T0 + 10 * MINUTE,
			updatedon: T0 + 10 * MINUTE,
			fields: [{ name: 'name', label: 'Your Name', value: `echo ${FIXTURE.accessToken}` }],
		});
		emu().control.addRawInquiry({
			appId: FIXTURE.appId,
			pageId: FORMS[2].pageId,
			json: `{"_id":"broken1","addedon":${(T0 + 11 * MINUTE) / 1000},"note": ${FIXTURE.apiKey}}`,
		});
		const run = await getMany({ returnAll: false, limit: 10, simplify: false });
		expect(run.error).toBeUndefined();
		expect(run.items).toHaveLength(5);
		const text = JSON.stringify(run.items.map((item) => item.json));
		expect(text).not.toContain(FIXTURE.accessToken);
		expect(text).not.toContain(FIXTURE.apiKey);
		expect(run.items[0].json).toMatchObject({
			_id: 'broken1',
			rawRecord: expect.stringContaining('"note": [redacted]'),
		});
	});

	describe('a form whose answer breaks off after its inquiries filled the Limit', () => {
		/** Contact Us holds the 40 newest leads, the newest first in its answer (m139 to m100); the two other forms 3 older ones each. */
		const seedNewestFirst = () => {
			emu().control.addApp({
				appId: FIXTURE.appId,
				accessToken: FIXTURE.accessToken,
				pages: FORMS,
			});
			const add = (pageId: string, minute: number) =>
				emu().control.addInquiry({
					appId: FIXTURE.appId,
					pageId,
					addedon: T0 + minute * MINUTE,
					updatedon: T0 + minute * MINUTE,
					fields: [{ name: 'name', label: 'Your Name', value: `m${minute}` }],
				});
			for (let minute = 139; minute >= 100; minute--) add(FORMS[0].pageId, minute);
			for (const minute of [1, 3, 5]) add(FORMS[1].pageId, minute);
			for (const minute of [2, 4, 6]) add(FORMS[2].pageId, minute);
		};
		const asked = () =>
			emu()
				.control.requests()
				.filter((request) => request.body?.method === 'formBuilderInquiries')
				.map((request) => String(request.body.pageId));
		const times = (pageId: string) => asked().filter((asked) => asked === pageId).length;

		it('counts it once when the next attempt reads it whole: the broken attempt is taken back', async () => {
			seedNewestFirst();
			emu().control.injectFault({
				endpoint: 'formBuilderInquiries',
				pageId: FORMS[0].pageId,
				kind: 'drop',
				times: 1,
			});
			const run = await getMany({ returnAll: false, limit: 5 });
			expect(run.error).toBeUndefined();
			expect(names(run.items)).toEqual(['m139', 'm138', 'm137', 'm136', 'm135']);
			expect([FORMS[0], FORMS[1], FORMS[2]].map((form) => times(form.pageId))).toEqual([2, 1, 1]);
		});

		it("with Continue On Fail, when it never comes whole, returns the others' best, reading them again", async () => {
			seedNewestFirst();
			fail(FORMS[0].pageId, { kind: 'drop' });
			const run = await getMany({ returnAll: false, limit: 4 }, true);
			expect(run.error).toBeUndefined();
			const read = run.items.filter((item) => item.json.error === undefined);
			expect(names(read)).toEqual(['m6', 'm5', 'm4', 'm3']);
			expect(run.items.filter((item) => item.json.error !== undefined)).toHaveLength(1);
			// Its inquiries had pushed theirs out of the Limit: those are gone, so they are read again.
			expect([FORMS[1], FORMS[2]].map((form) => times(form.pageId))).toEqual([2, 2]);
		});
	});

	it('names a failing form and a garbled one; with Continue On Fail the others still come out', async () => {
		seed(2);
		fail(FORMS[0].pageId, { kind: 'status', status: 401 });
		fail(FORMS[1].pageId, { kind: 'truncate' });

		// Both runs wait out the garbled answer's retries: side by side, they wait once.
		const [stopped, continued] = await Promise.all([getMany({}), getMany({}, true)]);
		expect(stopped.items).toEqual([]);
		expect(stopped.error?.message).toBe('2 of 3 forms could not be read');
		expect(stopped.error?.description).toMatch(
			/^Read: "Booking" \(formbuilder_2001_3\)\. Not read: "Contact Us" \(formbuilder_2001_1\) \(The App Builder API did not accept the access token\), "Quote Request" \(formbuilder_2001_2\) \(The App Builder API sent an answer that is not JSON.*\)\. Nothing is returned/,
		);

		expect(continued.error).toBeUndefined();
		const [read, ...failed] = [
			continued.items.filter((item) => item.json.error === undefined),
			...continued.items.filter((item) => item.json.error !== undefined),
		];
		expect(names(read)).toEqual(['m5', 'm2']);
		// The message names the form.
		expect(failed.map((item) => item.json.error)).toEqual([
			'Form "Contact Us" (formbuilder_2001_1) could not be read: The App Builder API did not accept the access token',
			expect.stringMatching(
				/^Form "Quote Request" \(formbuilder_2001_2\) could not be read: The App Builder API sent an answer that is not JSON/,
			),
		]);
		// n8n sends an item to the error output by its json when it holds no more than error and details.
		for (const item of failed) expect(Object.keys(item.json).sort()).toEqual(['details', 'error']);
	});

	it('names the one form that failed in the message itself', async () => {
		seed(1);
		fail(FORMS[2].pageId, { kind: 'status', status: 401 });
		const run = await getMany({});
		expect(run.error?.message).toBe(
			'Form "Booking" (formbuilder_2001_3) could not be read: The App Builder API did not accept the access token',
		);
		expect(run.error?.description).toMatch(
			/^Read: "Contact Us" \(formbuilder_2001_1\), "Quote Request" \(formbuilder_2001_2\)\. Copy the access token again/,
		);
	});

	it('fails, never answering "no inquiries", when the forms list fails or comes without a list', async () => {
		seed(1);
		emu().control.injectFault({
			endpoint: 'getAppFeatures',
			kind: 'status',
			status: 401,
			times: 1,
		});
		const failed = await getMany({});
		expect(failed.items).toEqual([]);
		expect(failed.error?.message).toBe('The App Builder API did not accept the access token');

		emu().control.injectFault({ endpoint: 'getAppFeatures', kind: 'noList', times: 1 });
		const empty = await getMany({});
		expect(empty.items).toEqual([]);
		expect(empty.error?.message).toBe(
			`The App Builder API lists no forms for app ${FIXTURE.appId}`,
		);
	});

	it('refuses an app listing more forms than any App Builder app has, saying what to do', async () => {
		emu().control.addApp({
			appId: FIXTURE.appId,
			accessToken: FIXTURE.accessToken,
			pages: Array.from({ length: 1001 }, (_, index) => ({
				pageId: `formbuilder_3001_${index}`,
				pageName: `Form ${index}`,
			})),
		});
		const run = await getMany({});
		expect(run.error?.message).toBe('The App Builder API lists more than 1,000 forms for this app');
		expect(run.error?.description).toMatch(/Read From: One Form in Get Many/);
		const asked = emu()
			.control.requests()
			.filter((request) => request.body?.method === 'formBuilderInquiries');
		expect(asked).toEqual([]);
	});

	it('still reads one form when Read From is One Form (the default)', async () => {
		seed(2);
		const run = await runAppBuilder(
			appBuilderCredentials(emu()),
			getManyParameters({ pageId: { __rl: true, mode: 'id', value: FORMS[1].pageId } }),
		);
		expect(names(run.items)).toEqual(['m4', 'm1']);
		expect(run.items.map((item) => item.json.pageId)).toEqual([FORMS[1].pageId, FORMS[1].pageId]);
	});
});
