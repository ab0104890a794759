import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import { SAVED_POSITION_VERSION } from '../../nodes/AppBuilder/trigger/saved/position';
import { FIXTURE } from '../emulator';
import { triggerParameters } from '../support/appBuilderRuns';
import { pollOnce, roundTrip, TRIGGER_NODE, triggerWorkflow } from '../support/triggerWorkflow';
import { useEmulator } from '../support/useEmulator';
import { submitLead } from '../support/submitLead';
import { useFrozenClock } from '../support/frozenClock';

/**
 * Sequences of polls through the trigger's real poll() and n8n-core's
 * PollContext, against the emulator, with the form changing and failing
 * between polls. The static data is JSON round-tripped between polls, as
 * n8n stores it.
 */
describe('App Builder Trigger in the n8n engine', () => {
	const emu = useEmulator();

	/** A trigger in a workflow of its own, as n8n keeps it: the trigger remembers some things per workflow. */
	const makeTrigger = (parameters: IDataObject = {}) =>
		triggerWorkflow(emu(), triggerParameters(parameters), { node: TRIGGER_NODE });

	const submit = (name: string, addedon: number, pageId: string = FIXTURE.formPageId) =>
		emu().control.addInquiry({
			appId: FIXTURE.appId,
			pageId,
			addedon,
			updatedon: addedon,
			fields: [
				{ name: 'name', label: 'Your Name', value: name },
				{
					name: 'email',
					label: 'Email',
					value: `${name.toLowerCase().replace(/\s+/g, '.')}@example.com`,
				},
			],
		});

	const names = (result: INodeExecutionData[][] | null) =>
		result ? result[0].map((item) => item.json.name) : [];

	const T0 = Date.parse('2026-05-01T08:00:00Z');
	// The first poll of each test runs half a second after T0: leads dated from T0 + 1 s arrive after it.
	const clock = useFrozenClock(T0 + 500);

	it('emits nothing on the first poll, then each new inquiry once, oldest first, flattened', async () => {
		submit('Old One', T0);
		const trigger = makeTrigger();
		expect((await trigger.poll()).result).toBeNull();

		submit('Ann', T0 + 2000);
		submit('Bob', T0 + 1000);
		const second = await trigger.poll();
		expect(names(second.result)).toEqual(['Bob', 'Ann']);
		expect(second.result![0][0].json).toMatchObject({
			email: 'bob@example.com',
			formName: expect.any(String),
			submittedAt: new Date(T0 + 1000).toISOString(),
			fieldLabels: { name: 'Your Name', email: 'Email' },
		});
		expect((await trigger.poll()).result).toBeNull();
	});

	it('emits every inquiry sharing one timestamp, across polls, exactly once', async () => {
		const trigger = makeTrigger();
		submit('Seed', T0);
		await trigger.poll();
		submit('Tie A', T0 + 5000);
		submit('Tie B', T0 + 5000);
		const first = await trigger.poll();
		submit('Tie C', T0 + 5000);
		submit('Tie D', T0 + 5000);
		const second = await trigger.poll();
		expect([...names(first.result), ...names(second.result)].sort()).toEqual([
			'Tie A',
			'Tie B',
			'Tie C',
			'Tie D',
		]);
		expect(names(first.result).sort()).toEqual(['Tie A', 'Tie B']);
	});

	it('emits a late inquiry with an older timestamp, and survives deletions between polls', async () => {
		const trigger = makeTrigger();
		const seed = submit('Seed', T0);
		await trigger.poll();
		submit('Fresh', T0 + 60_000);
		expect(names((await trigger.poll()).result)).toEqual(['Fresh']);
		emu().control.deleteInquiry(seed._id);
		submit('Late', T0 + 30_000);
		expect(names((await trigger.poll()).result)).toEqual(['Late']);
		expect((await trigger.poll()).result).toBeNull();
	});

	it('changes no state when a poll fails, so the next poll emits what it missed', async () => {
		const trigger = makeTrigger();
		submit('Seed', T0);
		await trigger.poll();
		const before = JSON.stringify(trigger.saved);
		submit('During Outage', T0 + 1000);

		for (const kind of ['status', 'truncate', 'drop', 'reset'] as const) {
			emu().control.injectFault({ endpoint: 'formBuilderInquiries', kind, status: 503, times: 2 });
			const failed = await trigger.poll();
			expect(failed.result).toBeNull();
			expect(JSON.stringify(trigger.saved)).toBe(before);
		}
		expect(names((await trigger.poll()).result)).toEqual(['During Outage']);
	});

	it('fails the same way when an answer breaks off after old inquiries were already let go', async () => {
		// Old inquiries lie below the cursor's floor: the trigger lets them go as they arrive.
		for (let i = 0; i < 40; i++) submit(`Old ${i}`, T0 - 3 * 24 * 3600_000 + i * 1000);
		const trigger = makeTrigger();
		submit('Seed', T0);
		await trigger.poll();
		const before = JSON.stringify(trigger.saved);
		submit('During Outage', T0 + 1000);

		for (const kind of ['truncate', 'drop'] as const) {
			emu().control.injectFault({ endpoint: 'formBuilderInquiries', kind, times: 2 });
			emu().control.clearRequests();
			expect((await trigger.poll()).result).toBeNull();
			// Both tries failed: the part that arrived was not taken for the whole form.
			expect(emu().control.requests().length).toBe(2);
			expect(JSON.stringify(trigger.saved)).toBe(before);
		}
		expect(names((await trigger.poll()).result)).toEqual(['During Outage']);
	});

	it('throws the error before the first successful poll, with no secret in it', async () => {
		const trigger = makeTrigger();
		emu().control.injectFault({
			endpoint: 'formBuilderInquiries',
			kind: 'status',
			status: 401,
			times: 1,
		});
		const outcome = await trigger.poll();
		expect(outcome.error?.message).toMatch(/access token/);
		expect(JSON.stringify(outcome.error)).not.toContain(FIXTURE.accessToken);
		expect(outcome.staticData).toEqual({});
	});

	it('with "Send the Latest Leads" the first poll sends the latest N, oldest first', async () => {
		for (let i = 0; i < 8; i++) submit(`Lead ${i}`, T0 + i * 1000);
		const trigger = makeTrigger({ options: { firstPoll: 'latest', firstPollCount: 3 } });
		expect(names((await trigger.poll()).result)).toEqual(['Lead 5', 'Lead 6', 'Lead 7']);
		expect((await trigger.poll()).result).toBeNull();
	});

	it('spreads a backlog over polls with Max Leads per Poll, oldest first, losing nothing', async () => {
		const trigger = makeTrigger({ options: { maxItemsPerPoll: 4 } });
		submit('Seed', T0);
		await trigger.poll();
		for (let i = 0; i < 10; i++) submit(`Lead ${i}`, T0 + 1000 + i);
		const emitted = [
			...names((await trigger.poll()).result),
			...names((await trigger.poll()).result),
			...names((await trigger.poll()).result),
		];
		expect(emitted).toEqual(Array.from({ length: 10 }, (_, i) => `Lead ${i}`));
		expect((await trigger.poll()).result).toBeNull();
	});

	it('re-emits an updated inquiry in "New or Updated" mode only', async () => {
		const updates = makeTrigger({ event: 'newOrUpdated' });
		const onlyNew = makeTrigger({ event: 'new' });
		const lead = submit('Seed', T0);
		await updates.poll();
		await onlyNew.poll();
		emu().control.updateInquiry(lead._id, { updatedon: T0 + 90_000, readStatus: 1 });
		expect(names((await updates.poll()).result)).toEqual(['Seed']);
		expect((await onlyNew.poll()).result).toBeNull();
		expect((await updates.poll()).result).toBeNull();
	});

	it('starts over when the form changes instead of carrying the old cursor', async () => {
		const trigger = makeTrigger();
		submit('Contact', T0);
		await trigger.poll();
		submit('Quote Old', T0 - 1000, FIXTURE.secondFormPageId);
		const quoteForm = { __rl: true, mode: 'id', value: FIXTURE.secondFormPageId };
		expect(
			(await trigger.poll({ parameters: triggerParameters({ pageId: quoteForm }) })).result,
		).toBeNull();
		submit('Quote New', T0 + 1000, FIXTURE.secondFormPageId);
		expect(names((await trigger.poll()).result)).toEqual(['Quote New']);
	});

	it('handles both timestamp units', async () => {
		emu().control.configure({ timestampUnit: 'ms' });
		const trigger = makeTrigger();
		submit('Seed', T0);
		await trigger.poll();
		submit('Millis', T0 + 1500);
		const result = await trigger.poll();
		expect(names(result.result)).toEqual(['Millis']);
		expect(result.result![0][0].json.submittedAt).toBe(new Date(T0 + 1500).toISOString());
	});

	it('"Fetch Test Event" returns the latest inquiry without touching state, and explains an empty form', async () => {
		const trigger = makeTrigger();
		const empty = await trigger.poll({ mode: 'manual' });
		expect(empty.error?.message).toMatch(/no inquiries yet/);
		submit('First', T0);
		submit('Latest', T0 + 1000);
		const manual = await trigger.poll({ mode: 'manual' });
		expect(names(manual.result)).toEqual(['Latest']);
		// What the node left in its static data, which n8n would store after a scheduled poll.
		expect(manual.staticData).toEqual({});
	});

	it('stops early when n8n gives a poll budget, and emits the rest next time', async () => {
		const trigger = makeTrigger();
		submit('Seed', T0);
		await trigger.poll();
		for (let i = 0; i < 5; i++) submit(`Lead ${i}`, T0 + 1000 + i);
		// The answer arrives within the budget, but after the share of it where emitting stops early.
		emu().control.injectFault({
			endpoint: 'formBuilderInquiries',
			kind: 'latency',
			ms: 1700,
			times: 1,
		});
		// The budget is n8n's, counted in real time: the clock runs again, after the watch began.
		jest.restoreAllMocks();
		const first = await trigger.poll({ pollBudgetMs: 2000 });
		const rest = await trigger.poll({ pollBudgetMs: 60_000 });
		expect(names(first.result)).toEqual(['Lead 0']);
		expect(names(rest.result)).toEqual(['Lead 1', 'Lead 2', 'Lead 3', 'Lead 4']);
	});

	it('emits a record the API sends broken once, flagged with its text, and it never holds back the leads around or after it', async () => {
		const trigger = makeTrigger();
		submit('Seed', T0);
		await trigger.poll();
		submit('Ann', T0 + 1000);
		// A bare word inside its values; its id and time read fine.
		const bareWord = `{"_id":"broken1","addedon":${(T0 + 2000) / 1000},"formData":[[hello],["Name"],["name"]]}`;
		// A time that is not a number, no id, a bad escape and a raw tab: known only by its bytes, undated.
		const noIdNoTime =
			'{"addedon": 12abc,"formData":[["Eve \\q"],["Name"],["name"]],"note":"a\tb"}';
		emu().control.addRawInquiry({
			appId: FIXTURE.appId,
			pageId: FIXTURE.formPageId,
			json: bareWord,
		});
		emu().control.addRawInquiry({
			appId: FIXTURE.appId,
			pageId: FIXTURE.formPageId,
			json: noIdNoTime,
		});
		submit('Bob', T0 + 3000);

		const first = await trigger.poll();
		expect(first.error).toBeUndefined();
		const items = first.result![0].map((item) => item.json);
		// Oldest first, the undated one last.
		expect(items.map((item) => item.name ?? item.inquiryId)).toEqual([
			'Ann',
			'broken1',
			'Bob',
			null,
		]);
		expect(items[1]).toEqual({
			inquiryId: 'broken1',
			submittedAt: new Date(T0 + 2000).toISOString(),
			rawRecord: bareWord,
			formWarnings: [
				`the inquiry is not valid JSON (a bare word "hello" at character ${bareWord.indexOf('hello') + 1}); its text is in rawRecord`,
			],
		});
		expect(items[3]).toEqual({
			inquiryId: null,
			submittedAt: null,
			rawRecord: noIdNoTime,
			formWarnings: [
				expect.stringMatching(
					/^the inquiry is not valid JSON \(a bad number "12abc" at character 13\); its text is in rawRecord$/,
				),
			],
		});

		expect((await trigger.poll()).result).toBeNull();
		submit('Cy', T0 + 4000);
		expect(names((await trigger.poll()).result)).toEqual(['Cy']);
		expect((await trigger.poll()).result).toBeNull();
	});

	describe('a saved position from another release, or one it cannot read', () => {
		/**
		 * Exactly what the release before format migrations wrote after a first
		 * poll over lead-0 and lead-a (captured from a run of that release).
		 */
		const RELEASED_V1 =
			'{"inquiryCursor":{"v":1,"scope":"6543210/formbuilder_1001_1/new","floor":1777536000000,"seen":{"lead-0":1777622399000,"lead-a":1777622400000},"undated":[]}}';
		const releasedCursor = () =>
			(JSON.parse(RELEASED_V1) as { inquiryCursor: IDataObject }).inquiryCursor;

		const lead = (id: string, addedon: number) => submitLead(emu(), { id, name: id, addedon });

		/** One poll as n8n runs it after a restart: the static data comes back from JSON. */
		const pollFrom = async (staticData: IDataObject) =>
			await pollOnce(emu(), triggerParameters(), { staticData: roundTrip(staticData) });

		beforeEach(() => {
			lead('lead-0', T0 - 1000);
			lead('lead-a', T0);
			// Submitted after the saved poll: a first poll would take it as handled and lose it.
			lead('lead-b', T0 + 1000);
		});

		it('carries on from a position saved by the released format: the lead after it once, nothing again', async () => {
			const first = await pollFrom(JSON.parse(RELEASED_V1) as IDataObject);
			expect(first.error).toBeUndefined();
			expect(names(first.result)).toEqual(['lead-b']);
			expect(first.staticData.inquiryCursor).toMatchObject({
				v: SAVED_POSITION_VERSION,
				scope: '6543210/new',
				forms: { formbuilder_1001_1: expect.any(Object) },
			});

			lead('lead-c', T0 + 2000);
			const second = await pollFrom(first.staticData);
			expect(names(second.result)).toEqual(['lead-c']);
			expect((await pollFrom(second.staticData)).result).toBeNull();
		});

		/**
		 * What release 1 wrote after a first poll over lead-0, lead-a and two
		 * leads without a submission time (produced by that release's cursor
		 * from the same records).
		 */
		const RELEASED_V1_WITH_UNDATED =
			'{"inquiryCursor":{"v":1,"scope":"6543210/formbuilder_1001_1/new","floor":1777536000000,"seen":{"lead-0":1777622399000,"lead-a":1777622400000},"undated":["lead-u1","lead-u2"]}}';
		const undatedLead = (id: string) =>
			emu().control.addRawInquiry({
				appId: FIXTURE.appId,
				pageId: FIXTURE.formPageId,
				_id: id,
				json: JSON.stringify({ _id: id, name: id }),
			});
		const namesOf = (result: INodeExecutionData[][] | null) =>
			result ? result[0].map((item) => item.json.inquiryId) : [];

		it('carries on from a released position with undated leads: each new lead once, the remembered ones never, deletions release nothing', async () => {
			undatedLead('lead-u1');
			undatedLead('lead-u2');
			undatedLead('lead-u3');
			const first = await pollFrom(JSON.parse(RELEASED_V1_WITH_UNDATED) as IDataObject);
			expect(first.error).toBeUndefined();
			expect(namesOf(first.result)).toEqual(['lead-b', 'lead-u3']);
			// The floor is 24 hours before the clock: lead-b, the newest lead emitted, is dated after it.
			expect(first.staticData.inquiryCursor).toMatchObject({
				v: SAVED_POSITION_VERSION,
				forms: {
					formbuilder_1001_1: {
						cursor: { floor: { time: clock.now - 24 * 60 * 60 * 1000, key: '' } },
					},
				},
			});

			emu().control.deleteInquiry('lead-u1');
			const second = await pollFrom(first.staticData);
			expect(second.result).toBeNull();

			lead('lead-c', T0 + 2000);
			undatedLead('lead-u4');
			const third = await pollFrom(second.staticData);
			expect(namesOf(third.result)).toEqual(['lead-c', 'lead-u4']);
			expect((await pollFrom(third.staticData)).result).toBeNull();
		});

		it('carries on from a 0.1.0 position that remembered its 200 undated leads of 450: none of those is emitted again, and each new one comes once', async () => {
			// 0.1.0 took all 450 as handled on its first poll but kept only 200 of their keys.
			const present = Array.from(
				{ length: 450 },
				(_, index) => `old-u${String(index).padStart(3, '0')}`,
			);
			present.forEach(undatedLead);
			const kept = present.slice(250);
			const released = { inquiryCursor: { ...releasedCursor(), undated: kept } };
			const first = await pollFrom(released);
			expect(first.error).toBeUndefined();
			expect(namesOf(first.result)).toEqual(['lead-b']);

			undatedLead('new-u1');
			const second = await pollFrom(first.staticData);
			expect(second.error).toBeUndefined();
			expect(namesOf(second.result)).toEqual(['new-u1']);
			expect((await pollFrom(second.staticData)).result).toBeNull();
		});

		it('stops with an error naming the newer release and the update, before fetching or emitting, and keeps the position', async () => {
			const saved = {
				inquiryCursor: {
					...releasedCursor(),
					v: SAVED_POSITION_VERSION + 1,
					position: { after: 'lead-a' },
				},
			};
			const outcome = await pollFrom(saved);

			expect(outcome.result).toBeNull();
			expect(outcome.error?.name).toBe('NodeOperationError');
			expect(outcome.error?.message).toBe(
				`The trigger's saved position is from a newer release of n8n-nodes-appbuilder (format v${SAVED_POSITION_VERSION + 1}; this release reads up to v${SAVED_POSITION_VERSION})`,
			);
			expect(outcome.error?.description).toMatch(
				/Update n8n-nodes-appbuilder \(Settings > Community Nodes\)/,
			);
			expect(outcome.error?.description).toMatch(/duplicate this trigger node/);
			expect(emu().control.requests()).toHaveLength(0);
			// The position is kept as it is; this node took it as its own (it had no owner, as 0.1.0 saved it).
			expect(outcome.staticData).toEqual({ ...saved, triggerNodeId: 'trigger' });
			// Polled again, it stops again rather than start over.
			expect((await pollFrom(outcome.staticData)).error?.message).toMatch(/newer release/);
		});

		it('stops with an error naming what is damaged, even after successful polls, and keeps the position', async () => {
			const inForm =
				'the record of form formbuilder_1001_1 is not readable: its cursor is not readable: ';
			const unreleased = (v: number) =>
				`its format v${v} was never released (only release 0.1.0's v1 is read and upgraded)`;
			const damaged: Array<[unknown, string]> = [
				['garbage', 'it is not an object'],
				[null, 'it is not an object'],
				[{ v: 1, scope: 5 }, 'it is not a valid v1 state (its scope names no app, form and event)'],
				[
					{ ...releasedCursor(), floor: 'x' },
					'it is not a valid v1 state ("floor" is not a number)',
				],
				[
					{ ...releasedCursor(), seen: { 'lead-a': 'soon' } },
					`${inForm}"seen" holds a time that is not a number (after its upgrade from format v1)`,
				],
				[
					{ ...releasedCursor(), undated: 'lead-a' },
					'it is not a valid v1 state ("undated" is not a list of keys)',
				],
				// Formats no release wrote (v2 to v6 were never published) are refused, never guessed at.
				...[0, 2, 3, 4, 5, 6].map((v): [unknown, string] => [
					{ ...releasedCursor(), v },
					unreleased(v),
				]),
				[
					{
						v: SAVED_POSITION_VERSION,
						scope: '6543210/new',
						watch: { kind: 'all' },
						forms: {},
						leftOver: 'x',
					},
					'"leftOver" is not a list of forms',
				],
				[{ ...releasedCursor(), v: undefined }, 'it has no format version'],
				[{ ...releasedCursor(), v: '1' }, 'its format version is not a whole number'],
			];
			for (const [cursor, problem] of damaged) {
				const saved = { inquiryCursor: cursor } as IDataObject;
				const outcome = await pollFrom(saved);
				expect(outcome.result).toBeNull();
				expect(outcome.error?.message).toBe(
					`The trigger's saved position cannot be read: ${problem}`,
				);
				expect(outcome.error?.description).toMatch(/duplicate this trigger node.*first poll/);
				expect(outcome.staticData).toEqual({
					...roundTrip(saved),
					triggerNodeId: 'trigger',
				});
			}
			expect(emu().control.requests()).toHaveLength(0);
		});

		it("a position saved without an owner (release 0.1.0) is taken by the node that polls first, even by a poll that fails, so a copy given the original's name starts afresh", async () => {
			emu().control.injectFault({
				endpoint: 'formBuilderInquiries',
				kind: 'status',
				status: 500,
				times: 2,
			});
			const failed = await pollFrom(JSON.parse(RELEASED_V1) as IDataObject);
			expect(failed.result).toBeNull();
			expect(failed.staticData).toEqual({
				inquiryCursor: releasedCursor(),
				triggerNodeId: 'trigger',
			});
			const copy = await pollOnce(emu(), triggerParameters(), {
				staticData: roundTrip(failed.staticData),
				node: { id: 'copy-of-trigger', name: 'Trigger' },
			});
			expect(copy.error).toBeUndefined();
			// A first poll: what is there is handled, nothing is emitted.
			expect(copy.result).toBeNull();
			const original = await pollFrom(failed.staticData);
			expect(original.result?.[0].map((item) => item.json.name)).toEqual(['lead-b']);
		});
	});
});
