import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import type { TriggerPosition } from '../../nodes/AppBuilder/trigger/saved/position';
import { FIXTURE } from '../emulator';
import { triggerWorkflow } from '../support/triggerWorkflow';
import { useEmulator } from '../support/useEmulator';
import { submitLead } from '../support/submitLead';
import { freezeClock } from '../support/frozenClock';
import { HOUR, MINUTE } from '../support/durations';

/**
 * The trigger watching every form of an app, through n8n-core's PollContext
 * over real HTTP against the emulator: forms with leads arriving in each, a
 * form added and one removed while it runs, and forms that fail, answer
 * malformed or too slowly while the others go on. Every lead of a healthy
 * form comes out once, in the poll after it arrived; a troubled form's
 * leads come out once, after it recovers.
 */
describe('App Builder Trigger watching every form of an app, in the n8n engine', () => {
	const emu = useEmulator();
	/** Undone after the test that asks, however it ends. */
	let undo: Array<() => void> = [];
	const afterOnce = (then: () => void) => undo.push(then);
	const T0 = Date.parse('2026-07-01T08:00:00Z');
	afterEach(() => {
		for (const then of undo) then();
		undo = [];
	});

	const FORMS = {
		contact: { pageId: 'formbuilder_1001_1', pageName: 'Contact Us' },
		quote: { pageId: 'formbuilder_1001_2', pageName: 'Quote Request' },
		booking: { pageId: 'formbuilder_1001_3', pageName: 'Booking' },
		newsletter: { pageId: 'formbuilder_1001_4', pageName: 'Newsletter' },
		feedback: { pageId: 'formbuilder_1001_5', pageName: 'Feedback' },
	};
	type FormName = keyof typeof FORMS;
	const HOME = { pageId: 'home_1001', pageName: 'Home' };

	const listForms = (...names: FormName[]) =>
		emu().control.addApp({
			appId: FIXTURE.appId,
			accessToken: FIXTURE.accessToken,
			pages: [HOME, ...names.map((name) => FORMS[name])],
		});
	const submit = (form: FormName, name: string, addedon: number) =>
		submitLead(emu(), { pageId: FORMS[form].pageId, name, addedon });
	const names = (result: INodeExecutionData[][] | null) =>
		result ? result[0].map((item) => String(item.json.name)) : [];
	const formsOf = (result: INodeExecutionData[][] | null) =>
		result
			? result[0].map((item) => `${String(item.json.formName)} ${String(item.json.pageId)}`)
			: [];

	const makeTrigger = (options: IDataObject = {}, extra: { pollBudgetMs?: number } = {}) =>
		triggerWorkflow(
			emu(),
			{ event: 'new', appId: FIXTURE.appId, watch: 'allForms', simplify: true, options },
			extra,
		);
	// Stored once, in the workflow's global static data under the node's ID ("trigger" in these runs).
	const position = (saved: IDataObject) =>
		((saved.global as IDataObject)['appBuilderTrigger:trigger'] as IDataObject)
			.state as unknown as TriggerPosition;
	/** The forms the trigger counts away: watched, but not read because the app's list leaves them out. */
	const awayForms = (saved: IDataObject) =>
		Object.entries(position(saved).forms)
			.filter(([, record]) => record.away !== undefined)
			.map(([pageId]) => pageId)
			.sort();

	it('emits every lead of every form once, picks up a form added later and drops one removed', async () => {
		listForms('contact', 'quote', 'booking');
		submit('contact', 'Old Contact', T0 - 60_000);
		submit('quote', 'Old Quote', T0 - 60_000);
		const trigger = makeTrigger();
		const first = await trigger.poll();
		expect(first.error).toBeUndefined();
		expect(first.result).toBeNull();
		expect(Object.keys(position(trigger.saved).forms).sort()).toEqual([
			FORMS.contact.pageId,
			FORMS.quote.pageId,
			FORMS.booking.pageId,
		]);

		const now = Date.now();
		submit('contact', 'Ann', now + 1000);
		submit('quote', 'Bob', now + 2000);
		submit('booking', 'Cid', now + 3000);
		const second = await trigger.poll();
		expect(names(second.result)).toEqual(['Ann', 'Bob', 'Cid']);
		expect(formsOf(second.result)).toEqual([
			`Contact Us ${FORMS.contact.pageId}`,
			`Quote Request ${FORMS.quote.pageId}`,
			`Booking ${FORMS.booking.pageId}`,
		]);
		expect((await trigger.poll()).result).toBeNull();

		// A form added while the trigger runs: its leads since the trigger began to watch the app come out, none before.
		listForms('contact', 'quote', 'booking', 'newsletter');
		submit('newsletter', 'Before Watching', now - 3_600_000);
		submit('newsletter', 'Dee', now + 4000);
		submit('contact', 'Eve', now + 5000);
		expect(names((await trigger.poll()).result)).toEqual(['Dee', 'Eve']);

		// A form removed: it keeps its cursor, away from the list.
		const bookingCursor = position(trigger.saved).forms[FORMS.booking.pageId];
		listForms('contact', 'quote', 'newsletter');
		submit('quote', 'Fay', now + 6000);
		expect(names((await trigger.poll()).result)).toEqual(['Fay']);
		expect(position(trigger.saved).forms[FORMS.booking.pageId].cursor).toEqual(
			bookingCursor.cursor,
		);
		expect(awayForms(trigger.saved)).toEqual([FORMS.booking.pageId]);

		// It comes back: its old leads stay handled, its new one comes out.
		listForms('contact', 'quote', 'booking', 'newsletter');
		submit('booking', 'Gus', now + 7000);
		expect(names((await trigger.poll()).result)).toEqual(['Gus']);
		expect((await trigger.poll()).result).toBeNull();
	});

	it("lets the other forms' leads through while one fails, one answers malformed and one too slowly, then emits theirs once", async () => {
		listForms('contact', 'quote', 'booking', 'newsletter');
		const trigger = makeTrigger({ timeout: 1 });
		expect((await trigger.poll()).error).toBeUndefined();
		const before = position(trigger.saved).forms;

		const now = Date.now();
		submit('contact', 'Slow Form Lead', now + 1000);
		submit('quote', 'Failing Form Lead', now + 2000);
		submit('booking', 'Malformed Form Lead', now + 3000);
		submit('newsletter', 'Healthy Form Lead', now + 4000);
		const many = 1000;
		emu().control.injectFault({
			endpoint: 'formBuilderInquiries',
			kind: 'latency',
			ms: 2500,
			pageId: FORMS.contact.pageId,
			times: many,
		});
		emu().control.injectFault({
			endpoint: 'formBuilderInquiries',
			kind: 'status',
			status: 500,
			pageId: FORMS.quote.pageId,
			times: many,
		});
		emu().control.injectFault({
			endpoint: 'formBuilderInquiries',
			kind: 'truncate',
			pageId: FORMS.booking.pageId,
			times: many,
		});

		const troubled = await trigger.poll();
		expect(troubled.error).toBeUndefined();
		expect(names(troubled.result)).toEqual(['Healthy Form Lead']);
		const during = position(trigger.saved).forms;
		for (const form of ['contact', 'quote', 'booking'] as const)
			expect(during[FORMS[form].pageId]).toEqual(before[FORMS[form].pageId]);
		expect((await trigger.poll()).result).toBeNull();

		emu().control.clearFaults();
		expect(names((await trigger.poll()).result)).toEqual([
			'Slow Form Lead',
			'Failing Form Lead',
			'Malformed Form Lead',
		]);
		expect((await trigger.poll()).result).toBeNull();
	});

	it("reports a form's lasting failure once, naming the form, and loses none of its leads", async () => {
		listForms('contact', 'quote');
		const trigger = makeTrigger({ errorAfterPolls: 2, errorAfterMinutes: 0 });
		await trigger.poll();
		emu().control.injectFault({
			endpoint: 'formBuilderInquiries',
			kind: 'status',
			status: 401,
			pageId: FORMS.quote.pageId,
			times: 1000,
		});
		submit('quote', 'Waiting', Date.now() + 1000);
		submit('contact', 'Flowing', Date.now() + 2000);
		const firstFailure = await trigger.poll();
		expect(names(firstFailure.result)).toEqual(['Flowing']);
		const reported = await trigger.poll();
		expect(reported.error?.description).toMatch(/read form "Quote Request" \(formbuilder_1001_2\)/);
		expect(reported.error?.failure).toEqual({ cause: 'credential-invalid' });
		submit('contact', 'Next', Date.now() + 3000);
		expect(names((await trigger.poll()).result)).toEqual(['Next']);
		emu().control.clearFaults();
		expect(names((await trigger.poll()).result)).toEqual(['Waiting']);
	});

	it('reads first, in the next poll, the forms a poll had no time for', async () => {
		const six = Array.from({ length: 6 }, (_, index) => ({
			pageId: `formbuilder_1001_${10 + index}`,
			pageName: `Form ${index}`,
		}));
		emu().control.addApp({ appId: FIXTURE.appId, accessToken: FIXTURE.accessToken, pages: six });
		const trigger = makeTrigger({}, { pollBudgetMs: 4000 });
		await trigger.poll();
		const now = Date.now();
		six.forEach((form, index) =>
			emu().control.addInquiry({
				appId: FIXTURE.appId,
				pageId: form.pageId,
				addedon: now + 1000 * (index + 1),
				fields: [{ name: 'name', label: 'Name', value: `Lead ${index}` }],
			}),
		);
		// Each answer takes 2.5 s: four forms are read at once, and when they end the poll is past
		// half of its 4 s budget, so it starts no other form (one started then might not end in time).
		emu().control.injectFault({
			endpoint: 'formBuilderInquiries',
			kind: 'latency',
			ms: 2500,
			times: 8,
		});
		const hurried = await trigger.poll();
		expect(hurried.error).toBeUndefined();
		expect(names(hurried.result)).toEqual(['Lead 0', 'Lead 1', 'Lead 2', 'Lead 3']);
		expect(position(trigger.saved).leftOver).toEqual([six[4].pageId, six[5].pageId]);
		const next = await trigger.poll();
		expect(names(next.result)).toEqual(['Lead 4', 'Lead 5']);
		const askedFirst = emu()
			.control.requests()
			.filter((request) => request.body?.method === 'formBuilderInquiries')
			.slice(-4)
			.map((request) => String(request.body.pageId));
		expect(askedFirst.slice(0, 2).sort()).toEqual([six[4].pageId, six[5].pageId]);
	}, 60_000);

	it('Fetch Test Event gives the newest lead of the app, with its form, and saves nothing', async () => {
		listForms('contact', 'quote', 'booking');
		submit('contact', 'Older', T0);
		submit('booking', 'Newest', T0 + 5000);
		submit('quote', 'Middle', T0 + 2000);
		const trigger = makeTrigger();
		const sample = await trigger.poll({ mode: 'manual' });
		expect(sample.error).toBeUndefined();
		expect(sample.result?.[0][0].json).toMatchObject({
			name: 'Newest',
			formName: 'Booking',
			pageId: FORMS.booking.pageId,
		});
		expect(trigger.saved).toEqual({});
	});

	describe('On First Poll: Send Leads Since a Date', () => {
		const since = T0 - 24 * 3600_000;

		it('emits every lead at or after the date, oldest first, within Max Leads per Poll, then carries on', async () => {
			submit('contact', 'Too Old', since - 1);
			submit('contact', 'At The Date', since);
			submit('contact', 'After', since + 1000);
			submit('contact', 'Latest', T0);
			const trigger = triggerWorkflow(
				emu(),
				{
					event: 'new',
					appId: FIXTURE.appId,
					watch: 'form',
					pageId: { __rl: true, mode: 'id', value: FORMS.contact.pageId },
					simplify: true,
					options: {
						firstPoll: 'since',
						firstPollSince: new Date(since).toISOString(),
						maxItemsPerPoll: 2,
					},
				},
				{ workflowId: 'since-one-form' },
			);
			const poll = async () => {
				const outcome = await trigger.poll();
				expect(outcome.error).toBeUndefined();
				return names(outcome.result);
			};
			expect(await poll()).toEqual(['At The Date', 'After']);
			expect(await poll()).toEqual(['Latest']);
			submit('contact', 'New One', Date.now());
			expect(await poll()).toEqual(['New One']);
			expect(await poll()).toEqual([]);
		});

		it('does so in every form of the app', async () => {
			listForms('contact', 'quote');
			submit('contact', 'Old Contact', since - 1000);
			submit('contact', 'Contact Since', since + 1000);
			submit('quote', 'Quote Since', since + 2000);
			const trigger = makeTrigger({
				firstPoll: 'since',
				firstPollSince: new Date(since).toISOString(),
			});
			expect(names((await trigger.poll()).result)).toEqual(['Contact Since', 'Quote Since']);
			expect((await trigger.poll()).result).toBeNull();
		});

		it('names the field when the date is missing or not a date', async () => {
			const trigger = makeTrigger({ firstPoll: 'since', firstPollSince: 'soon' });
			expect((await trigger.poll()).error?.message).toMatch(/Since/);
		});
	});

	it('keeps the saved state within its bound with many forms', async () => {
		const many = Array.from({ length: 50 }, (_, index) => ({
			pageId: `formbuilder_1001_${100 + index}`,
			pageName: `Form ${index}`,
		}));
		emu().control.addApp({ appId: FIXTURE.appId, accessToken: FIXTURE.accessToken, pages: many });
		const trigger = makeTrigger({ maxItemsPerPoll: 100_000 });
		const clock = freezeClock(Date.now());
		try {
			await trigger.poll();
			for (const form of many) {
				emu().control.addInquiries({
					appId: FIXTURE.appId,
					pageId: form.pageId,
					count: 200,
					startTime: clock.now + 1000,
					spacingMs: 1000,
				});
			}
			// The next poll runs once they are all submitted.
			clock.advance(HOUR);
			const result = await trigger.poll();
			expect(result.result?.[0]).toHaveLength(50 * 200);
		} finally {
			clock.restore();
		}
		// 50 forms: at most 50 tracked keys each, so the position stays near what one form may need (ARCHITECTURE.md);
		// that is all n8n stores for the trigger: one position, none under the node's name.
		expect(JSON.stringify(trigger.saved).length).toBeLessThan(150_000);
		expect(JSON.stringify(trigger.saved).length).toBeLessThan(
			JSON.stringify(position(trigger.saved)).length + 200,
		);
		expect(trigger.saved['node:Trigger']).toEqual({});
	});

	describe("when the app's list of forms glitches", () => {
		it('one answer without a list forgets nothing: a late arrival, a backlog left by Max Leads per Poll and an undated lead all come out once', async () => {
			listForms('contact', 'quote');
			const trigger = makeTrigger({ maxItemsPerPoll: 2 });
			await trigger.poll();
			const now = Date.now();
			submit('contact', 'B1', now + 1000);
			submit('contact', 'B2', now + 2000);
			submit('contact', 'B3', now + 3000);
			submit('quote', 'Q1', now + 4000);
			expect(names((await trigger.poll()).result)).toEqual(['B1', 'B2']);

			emu().control.injectFault({ endpoint: 'getAppFeatures', kind: 'noList', times: 1 });
			const glitch = await trigger.poll();
			expect(glitch.error).toBeUndefined();
			expect(glitch.result).toBeNull();
			expect(awayForms(trigger.saved)).toEqual([FORMS.contact.pageId, FORMS.quote.pageId]);

			submit('contact', 'Late', now + 500);
			emu().control.addInquiry({
				appId: FIXTURE.appId,
				pageId: FORMS.quote.pageId,
				fields: [{ name: 'name', label: 'Your Name', value: 'Undated' }],
			});
			const seen: string[] = [];
			for (let poll = 0; poll < 4; poll++) seen.push(...names((await trigger.poll()).result));
			expect(seen.sort()).toEqual(['B3', 'Late', 'Q1', 'Undated']);
			expect(awayForms(trigger.saved)).toEqual([]);
		});

		it('an activation where every form fails records when the watch began: each form then emits what came since, once', async () => {
			listForms('contact', 'quote');
			submit('contact', 'Before Activation', Date.now() - 60_000);
			emu().control.injectFault({
				endpoint: 'formBuilderInquiries',
				kind: 'status',
				status: 404,
				times: 2,
			});
			const trigger = makeTrigger();
			const activation = await trigger.poll();
			expect(activation.error).toBeUndefined();
			// No form was read: every form has the record of the forms not named yet, from then on, nothing emitted yet.
			const others = position(trigger.saved).others;
			expect(others?.cursor.floor.time).toBeGreaterThan(Date.now() - 60_000);
			expect(others).toEqual({
				cursor: { floor: { time: others?.cursor.floor.time, key: '' }, seen: {}, undated: '' },
			});
			expect(position(trigger.saved).forms).toEqual({});

			submit('contact', 'During Outage', Date.now() + 1000);
			submit('quote', 'Also During', Date.now() + 2000);
			expect(names((await trigger.poll()).result)).toEqual(['During Outage', 'Also During']);
			expect((await trigger.poll()).result).toBeNull();
		});

		it("an outage of the app's list after activation is one failure, logged, then reported once, naming the list", async () => {
			listForms('contact');
			const trigger = makeTrigger({ errorAfterPolls: 3, errorAfterMinutes: 0 });
			await trigger.poll();
			emu().control.injectFault({
				endpoint: 'getAppFeatures',
				kind: 'status',
				status: 404,
				times: 1000,
			});
			const outcomes = [];
			for (let poll = 0; poll < 5; poll++) outcomes.push(await trigger.poll());
			const errors = outcomes.map((outcome) => outcome.error?.description ?? '');
			expect(errors.filter((text) => text !== '')).toHaveLength(1);
			expect(errors[2]).toMatch(
				/read the app's list of forms for \d+ minutes? \(3 polls in a row\)/,
			);
		});

		it('an app of more than 100 forms: after one empty list answer no form emits its leads again', async () => {
			const many = Array.from({ length: 105 }, (_, index) => ({
				pageId: `formbuilder_1001_${200 + index}`,
				pageName: `Form ${index}`,
			}));
			const listMany = () =>
				emu().control.addApp({
					appId: FIXTURE.appId,
					accessToken: FIXTURE.accessToken,
					pages: many,
				});
			listMany();
			const trigger = makeTrigger({ maxItemsPerPoll: 1000 });
			await trigger.poll();
			const now = Date.now();
			many.forEach((form, index) =>
				emu().control.addInquiry({
					appId: FIXTURE.appId,
					pageId: form.pageId,
					addedon: now + index,
					fields: [{ name: 'name', label: 'Name', value: `Lead ${index}` }],
				}),
			);
			expect((await trigger.poll()).result?.[0]).toHaveLength(105);
			emu().control.addApp({ appId: FIXTURE.appId, accessToken: FIXTURE.accessToken, pages: [] });
			expect((await trigger.poll()).result).toBeNull();
			listMany();
			const back = await trigger.poll();
			expect(back.error).toBeUndefined();
			expect(back.result).toBeNull();
		}, 60_000);

		it('a form back after one poll away carries on below a record dated in the future it had emitted', async () => {
			listForms('contact', 'quote');
			const trigger = makeTrigger();
			await trigger.poll();
			submit('contact', 'Dated Tomorrow', Date.now() + 86_400_000);
			expect(names((await trigger.poll()).result)).toEqual(['Dated Tomorrow']);
			listForms('quote');
			expect((await trigger.poll()).result).toBeNull();
			listForms('contact', 'quote');
			submit('contact', 'Today', Date.now());
			expect(names((await trigger.poll()).result)).toEqual(['Today']);
		});

		it('an outage of several forms is one failure of the trigger, reported once, naming each form', async () => {
			listForms('contact', 'quote', 'booking');
			const trigger = makeTrigger({ errorAfterPolls: 2, errorAfterMinutes: 0 });
			await trigger.poll();
			for (const form of ['quote', 'booking'] as const) {
				emu().control.injectFault({
					endpoint: 'formBuilderInquiries',
					kind: 'status',
					status: 404,
					pageId: FORMS[form].pageId,
					times: 1000,
				});
			}
			const outcomes = [];
			for (let poll = 0; poll < 5; poll++) outcomes.push(await trigger.poll());
			const reports = outcomes.flatMap((outcome) =>
				outcome.error === undefined ? [] : [outcome.error.description ?? ''],
			);
			expect(reports).toHaveLength(1);
			expect(reports[0]).toMatch(
				/form "Quote Request" \(formbuilder_1001_2\), form "Booking" \(formbuilder_1001_3\)/,
			);
		});

		it('Watch switched to One Form and back to All Forms with Send Leads Since a Date emits nothing twice, and nothing of a form while it was out of the watch', async () => {
			const clock = freezeClock(Date.now());
			afterOnce(() => clock.restore());
			const since = clock.now - 3_600_000;
			listForms('contact', 'quote');
			submit('contact', 'Contact Since', since + 1000);
			submit('quote', 'Quote Since', since + 2000);
			const options = { firstPoll: 'since', firstPollSince: new Date(since).toISOString() };
			const trigger = triggerWorkflow(emu(), {}, { workflowId: 'watch-switch' });
			const poll = async (watch: IDataObject) => {
				const outcome = await trigger.poll({
					parameters: { event: 'new', appId: FIXTURE.appId, ...watch, simplify: true, options },
				});
				expect(outcome.error).toBeUndefined();
				return names(outcome.result);
			};
			const all = { watch: 'allForms' };
			const contactOnly = {
				watch: 'form',
				pageId: { __rl: true, mode: 'id', value: FORMS.contact.pageId },
			};
			expect(await poll(all)).toEqual(['Contact Since', 'Quote Since']);
			expect(await poll(contactOnly)).toEqual([]);
			clock.advance(MINUTE);
			submit('quote', 'Quote Meanwhile', clock.now);
			submit('contact', 'Contact Meanwhile', clock.now);
			clock.advance(MINUTE);
			// Back to All Forms: Contact carries on; Quote's lead dated while it was out of the watch is never sent.
			expect(await poll(all)).toEqual(['Contact Meanwhile']);
			clock.advance(MINUTE);
			submit('quote', 'Quote Back', clock.now);
			clock.advance(MINUTE);
			expect(await poll(all)).toEqual(['Quote Back']);
			expect(await poll(all)).toEqual([]);
		});

		it('refuses Since in the future, naming Since and what to set', async () => {
			const trigger = makeTrigger({
				firstPoll: 'since',
				firstPollSince: new Date(Date.now() + 86_400_000).toISOString(),
			});
			const outcome = await trigger.poll();
			expect(outcome.error?.message).toBe('Since is in the future');
			expect(outcome.error?.description).toMatch(
				/Set Since to a moment in the past.*Only New Leads/,
			);
			expect(JSON.stringify(trigger.saved)).not.toMatch(/appBuilderTrigger|inquiryCursor/);
		});
	});
});
