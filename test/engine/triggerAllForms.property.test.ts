/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- n8n Cloud's limits are for nodes; this test runs on Node itself (its settings from the environment, streams for the model's answers) */
import fc from 'fast-check';
import type { IDataObject, IHttpRequestOptions } from 'n8n-workflow';
import { Readable } from 'node:stream';

import { FIXTURE } from '../emulator';
import { MemoryCredentialsHelper } from '../harness';
import { AppBuilderApi } from '../../credentials/AppBuilderApi.credentials';
import { pollAppBuilderTrigger } from '../support/appBuilderRuns';

/**
 * The whole trigger (its poll through n8n-core's PollContext, the transport,
 * the answer readers, the cursor and the saved position) against a model of
 * an app whose list of forms and forms change between polls: lists that
 * come back absent, empty or failed, forms leaving and returning, failing
 * reads (at activation too), leads late, dated in the future, without a
 * time, or more than Max Inquiries per Poll at once, Watch and Event
 * switched, n8n restarted and the node renamed, in n8n's default mode and
 * under durable poll cursors. The static data is JSON round-tripped between
 * polls, as n8n stores it.
 *
 * The model answers the node's requests in this process (thousands of polls
 * must fit in seconds); test/engine/triggerAllForms.engine.test.ts and the
 * e2e suite cover the same paths over real HTTP.
 *
 * What must hold, for each Event (a change of Event starts over):
 * - no lead is emitted twice;
 * - a lead submitted after the trigger began to watch its form (or, with
 *   Send Leads Since a Date, one dated at or after Since) is emitted, once the
 *   app behaves again; an undated one once its form has been read;
 * - none submitted before, and dated before, is emitted;
 * - each poll's items are oldest first, undated last;
 * - a failure (the list, any number of forms) is reported once per outage,
 *   when Error After Failed Polls is reached; a failure while setting up
 *   is shown at once.
 *
 * Cases: ALL_FORMS_PROPERTY_RUNS (default 1,000), from ALL_FORMS_PROPERTY_SEED
 * when set; `npm run bench -- --property=20000` starts a longer run.
 */
const RUNS = Number(process.env.ALL_FORMS_PROPERTY_RUNS ?? 1000);
const SEED =
	process.env.ALL_FORMS_PROPERTY_SEED === undefined
		? undefined
		: Number(process.env.ALL_FORMS_PROPERTY_SEED);
const MAX_LEADS_PER_FORM = 40;

type LeadKind = 'now' | 'late' | 'future' | 'undated';
type Step =
	| { kind: 'lead'; form: number; lead: LeadKind; back: number }
	| { kind: 'burst'; form: number; count: number }
	| { kind: 'list' | 'unlist' | 'fail' | 'heal'; form: number }
	| { kind: 'glitch'; answer: 'null' | 'empty' | 'fail' }
	| { kind: 'listDown' | 'listUp' | 'poll' | 'restart' | 'rename' | 'event' | 'watchAll' }
	| { kind: 'watchOne'; form: number };

interface Case {
	forms: number;
	durable: boolean;
	maxItems: number;
	errorAfterPolls: number;
	firstPoll: 'none' | 'since';
	startAll: boolean;
	failAtActivation: boolean;
	/** Alert When Quiet: off, or on with a tiny threshold so forms go quiet between polls. */
	quietAlert: 'off' | 'fixed' | 'unusual';
	steps: Step[];
}

interface Lead {
	key: string;
	form: number;
	time: number | undefined;
	/** The number of polls run before it was submitted. */
	after: number;
}

/** What the trigger covers of one form, within one Event. */
interface Coverage {
	/** Leads dated at or after this may be the trigger's: when the poll that began the form's watch started (or Since). */
	mayFrom: number;
	/** Leads dated at or after this are the trigger's: when that poll ended (or Since). */
	mustFrom: number;
	/** Leads submitted after this poll count, dated ones within the above. */
	afterPoll: number;
	/** Whether the form was read from a time on, which takes leads already there (not as On First Poll "nothing" does). */
	fromTime: boolean;
	/** The poll whose read, as n8n stored it, gave the form its cursor: undated leads submitted after it are the trigger's. */
	readAtPoll: number | undefined;
}

const stepArb = (forms: number): fc.Arbitrary<Step> => {
	const form = fc.integer({ min: 0, max: forms - 1 });
	return fc.oneof(
		{
			weight: 8,
			arbitrary: fc.record({
				kind: fc.constant('lead' as const),
				form,
				lead: fc.constantFrom<LeadKind>('now', 'now', 'late', 'future', 'undated'),
				back: fc.integer({ min: 1, max: 600_000 }),
			}),
		},
		{
			weight: 1,
			arbitrary: fc.record({
				kind: fc.constant('burst' as const),
				form,
				count: fc.integer({ min: 2, max: 8 }),
			}),
		},
		{
			weight: 1,
			arbitrary: fc.record({
				kind: fc.constantFrom('list' as const, 'unlist' as const, 'fail' as const, 'heal' as const),
				form,
			}),
		},
		{
			weight: 2,
			arbitrary: fc.record({
				kind: fc.constant('glitch' as const),
				answer: fc.constantFrom('null' as const, 'empty' as const, 'fail' as const),
			}),
		},
		{
			weight: 1,
			arbitrary: fc.constantFrom(
				{ kind: 'listDown' as const },
				{ kind: 'listUp' as const },
				{ kind: 'restart' as const },
				{ kind: 'rename' as const },
			),
		},
		{
			weight: 1,
			arbitrary: fc.constantFrom({ kind: 'event' as const }, { kind: 'watchAll' as const }),
		},
		{ weight: 1, arbitrary: fc.record({ kind: fc.constant('watchOne' as const), form }) },
		{ weight: 8, arbitrary: fc.constant({ kind: 'poll' as const }) },
	);
};

const caseArb: fc.Arbitrary<Case> = fc
	.record({
		// Now and then an app of more than 100 forms.
		forms: fc.oneof(
			{ weight: 39, arbitrary: fc.integer({ min: 2, max: 6 }) },
			{ weight: 1, arbitrary: fc.integer({ min: 101, max: 104 }) },
		),
		durable: fc.boolean(),
		maxItems: fc.integer({ min: 1, max: 6 }),
		errorAfterPolls: fc.integer({ min: 1, max: 3 }),
		firstPoll: fc.constantFrom('none' as const, 'since' as const),
		startAll: fc.oneof(
			{ weight: 3, arbitrary: fc.constant(true) },
			{ weight: 1, arbitrary: fc.constant(false) },
		),
		failAtActivation: fc.boolean(),
		quietAlert: fc.constantFrom(
			'off' as const,
			'off' as const,
			'fixed' as const,
			'unusual' as const,
		),
	})
	.chain(
		(setup) =>
			fc.record({
				...Object.fromEntries(
					Object.entries(setup).map(([key, value]) => [key, fc.constant(value)]),
				),
				steps: fc.array(stepArb(setup.forms), { minLength: 5, maxLength: 40 }),
			}) as fc.Arbitrary<Case>,
	);

describe('App Builder Trigger over every form of an app, against a model of the app (property)', () => {
	const credentialsHelper = new MemoryCredentialsHelper({
		types: { appBuilderApi: new AppBuilderApi() },
		credentials: {
			appBuilderApi: {
				accessToken: FIXTURE.accessToken,
				apiKey: FIXTURE.apiKey,
				baseUrl: 'http://app-model.test',
				connectAccessToken: '',
			},
		},
	});

	it(
		`emits every lead of the watch once and none from before it, whatever the list of forms does (${RUNS} cases)`,
		async () => {
			await fc.assert(
				fc.asyncProperty(caseArb, async (testCase) => {
					await runCase(testCase, credentialsHelper);
				}),
				{ numRuns: RUNS, seed: SEED, endOnFailure: true },
			);
		},
		Math.max(600_000, RUNS * 250),
	);
});

let caseCount = 0;
const ignore = () => undefined;
const QUIET = {
	error: ignore,
	warn: ignore,
	info: ignore,
	debug: ignore,
	verbose: ignore,
} as unknown as NonNullable<Parameters<typeof pollAppBuilderTrigger>[2]>['logger'];

async function runCase(testCase: Case, credentialsHelper: MemoryCredentialsHelper): Promise<void> {
	const caseId = ++caseCount;
	const pageIds = Array.from(
		{ length: testCase.forms },
		(_, index) => `formbuilder_77_${index + 1}`,
	);
	const leads: Lead[] = [];
	const perForm = pageIds.map(() => 0);
	const listed = new Set(
		pageIds.map((_, index) => index).filter((index) => index < Math.max(2, testCase.forms - 1)),
	);
	const failing = new Set<number>();
	let listDown = false;
	let glitch: 'null' | 'empty' | 'fail' | undefined;
	let serial = 0;
	let polls = 0;

	// The trigger's settings and n8n around it.
	let allForms = testCase.startAll;
	let oneForm = 0;
	let event: 'new' | 'newOrUpdated' = 'new';
	let n8nProcess = 1;
	let nodeName = 'Trigger';
	let stored: IDataObject = {};
	const startedAt = Date.now();
	const since = startedAt - 30 * 60_000;

	// The model of what the trigger covers, per Event (epoch).
	let coverage = new Map<number, Coverage>();
	let allFormsFrom: { mayFrom: number; mustFrom: number; afterPoll: number } | undefined;
	let emitted = new Map<string, number>();
	let streak = 0;
	// n8n stores static data after an activation poll and a poll that emits (under durable cursors, after every poll):
	// a restart goes back to it, and activates the workflow again, as a change of its settings does.
	let persisted: IDataObject = {};
	let persistedReads = new Map<number, number | undefined>();
	let activating = true;
	// The Event of the stored position: a poll with another starts over.
	let positionEvent: 'new' | 'newOrUpdated' | undefined;
	let persistedEvent: 'new' | 'newOrUpdated' | undefined;

	const submit = (form: number, time: number | undefined) => {
		if (perForm[form] >= MAX_LEADS_PER_FORM) return;
		perForm[form]++;
		leads.push({ key: `lead-${caseId}-${serial++}`, form, time, after: polls });
	};
	// Leads from before the trigger ran: some before Since, some after.
	for (let form = 0; form < Math.min(testCase.forms, 6); form++) {
		submit(form, since - 60_000);
		submit(form, since + 60_000);
	}

	const answer = async (request: IHttpRequestOptions): Promise<unknown> => {
		const body = request.body as IDataObject;
		if (body.method === 'getAppFeatures') {
			const now = glitch;
			glitch = undefined;
			if (listDown || now === 'fail')
				return json(404, { status: 'error', code: 404, msg: 'Not found' });
			if (now === 'null')
				return json(200, { status: 'success', msg: 'No record found', data: null });
			if (now === 'empty')
				return json(200, { status: 'success', msg: 'No record found', data: [] });
			return json(200, {
				status: 'success',
				data: [
					{ pageId: 'home_77', pageName: 'Home' },
					...[...listed]
						.sort((a, b) => a - b)
						.map((index) => ({ pageId: pageIds[index], pageName: `Form ${index}` })),
				],
			});
		}
		const form = pageIds.indexOf(String(body.pageId));
		if (failing.has(form) || (testCase.failAtActivation && polls === 0))
			return json(404, { status: 'error', code: 404, msg: 'Form not found' });
		const records = leads
			.filter((lead) => lead.form === form)
			.map((lead) =>
				lead.time === undefined
					? { _id: lead.key, name: lead.key }
					: { _id: lead.key, name: lead.key, addedon: lead.time, updatedon: lead.time },
			);
		return json(200, { status: 'success', data: records.reverse() });
	};

	/** One poll, checked against the model; how many leads it emitted. */
	const poll = async (): Promise<number> => {
		const pollStart = Date.now();
		const parameters: IDataObject = {
			event,
			appId: FIXTURE.appId,
			watch: allForms ? 'allForms' : 'form',
			...(allForms ? {} : { pageId: { __rl: true, mode: 'id', value: pageIds[oneForm] } }),
			simplify: true,
			options: {
				maxItemsPerPoll: testCase.maxItems,
				errorAfterPolls: testCase.errorAfterPolls,
				errorAfterMinutes: 0,
				...(testCase.firstPoll === 'since'
					? { firstPoll: 'since', firstPollSince: new Date(since).toISOString() }
					: {}),
				// A hundredth of a second: every form that had no lead since the last poll is quiet.
				...(testCase.quietAlert === 'off'
					? {}
					: { quietAlert: testCase.quietAlert, quietHours: 0.01 / 3600 }),
			},
		};
		const data = JSON.parse(JSON.stringify(stored)) as IDataObject;
		// Another Event starts over, once a poll saves a position for it; until then the old one stays.
		const before = { coverage, allFormsFrom, emitted };
		if (positionEvent !== undefined && positionEvent !== event) startOver();
		// What the model expects of this poll, decided before it runs (the answers change what they depend on).
		const listFails = allForms && (listDown || glitch === 'fail');
		const listNone = allForms && (glitch === 'null' || glitch === 'empty');
		const watched = allForms ? (listFails || listNone ? [] : [...listed]) : [oneForm];
		const failsNow = (form: number) =>
			failing.has(form) || (testCase.failAtActivation && polls === 0);
		const readNow = watched.filter((form) => !failsNow(form));

		const outcome = await pollAppBuilderTrigger(credentialsHelper, parameters, {
			workflowId: `model-${caseId}-${n8nProcess}`,
			node: { id: 'trigger', name: nodeName },
			httpRequest: answer,
			// Thousands of polls log their failures and recoveries; what is logged is tested elsewhere.
			logger: QUIET,
			...(testCase.durable ? { staticData: data } : { workflowStaticData: data }),
		});
		const pollEnd = Date.now();

		const settingUp = allForms
			? allFormsFrom === undefined && listFails
			: !coverage.has(oneForm) && failsNow(oneForm);
		const failures = listFails || watched.some(failsNow);
		let reported = false;
		if (!settingUp) {
			streak = failures ? streak + 1 : 0;
			reported = failures && streak === testCase.errorAfterPolls;
		}
		glitch = undefined;
		polls++;

		const context = `case ${caseId}, poll ${polls}`;
		// Alert When Quiet reports beside the poll and changes nothing it emits or saves: the checks below hold with it on.
		for (const alert of outcome.emittedErrors)
			if (testCase.quietAlert === 'off' || !/no new lead/.test(alert.message))
				throw new Error(`${context}: an error reported beside the poll: ${alert.message}`);
		if (settingUp || reported) {
			if (outcome.error === undefined)
				throw new Error(
					`${context}: expected ${settingUp ? 'the setup error' : 'the report of the outage'}, got none`,
				);
			({ coverage, allFormsFrom, emitted } = before);
			return 0;
		}
		if (outcome.error !== undefined)
			throw new Error(
				`${context}: unexpected error ${outcome.error.message} ${outcome.error.description ?? ''}`,
			);
		stored = testCase.durable ? outcome.staticData : outcome.workflowStaticData;

		// Coverage: forms read now get their cursor; the watch of every form begins with its first saved poll.
		const saved = !(
			readNow.length === 0 &&
			failures &&
			(allForms ? allFormsFrom !== undefined : true)
		);
		if (!saved) ({ coverage, allFormsFrom, emitted } = before);
		if (saved) {
			positionEvent = event;
			const firstAllPoll = allForms && allFormsFrom === undefined;
			const sinceMode = testCase.firstPoll === 'since';
			for (const form of readNow) {
				const entry = coverage.get(form);
				if (entry !== undefined) {
					entry.readAtPoll ??= polls;
					continue;
				}
				const fromAll = allForms && !firstAllPoll ? allFormsFrom : undefined;
				coverage.set(form, {
					mayFrom: fromAll?.mayFrom ?? (sinceMode ? since : pollStart),
					mustFrom: fromAll?.mustFrom ?? (sinceMode ? since : pollEnd),
					afterPoll: fromAll?.afterPoll ?? polls,
					fromTime: fromAll !== undefined || sinceMode,
					readAtPoll: polls,
				});
			}
			if (firstAllPoll)
				allFormsFrom = {
					mayFrom: sinceMode ? since : pollStart,
					mustFrom: sinceMode ? since : pollEnd,
					afterPoll: polls,
				};
		}

		const items = outcome.result?.[0] ?? [];
		if (!saved && items.length > 0)
			throw new Error(`${context}: emitted without saving a position`);
		checkOrder(
			items.map((item) => item.json),
			leads,
			context,
		);
		for (const item of items) {
			const key = String(item.json.inquiryId);
			const lead = leads.find((entry) => entry.key === key);
			if (lead === undefined) throw new Error(`${context}: emitted ${key}, which no form holds`);
			const times = (emitted.get(key) ?? 0) + 1;
			if (times > 1) throw new Error(`${context}: emitted ${key} ${times} times`);
			emitted.set(key, times);
			if (!isTheTriggers(lead, coverage.get(lead.form), 'may'))
				throw new Error(
					`${context}: emitted ${key} of form ${lead.form}, submitted before its watch began`,
				);
		}

		if (testCase.durable || activating || items.length > 0) {
			persisted = stored;
			persistedEvent = positionEvent;
			persistedReads = new Map([...coverage].map(([form, entry]) => [form, entry.readAtPoll]));
		}
		activating = false;
		return items.length;
	};

	const restart = () => {
		n8nProcess++;
		streak = 0;
		activating = true;
		stored = persisted;
		positionEvent = persistedEvent;
		// A form's first read that n8n did not store is done again, and takes the undated leads there as handled.
		for (const [form, entry] of coverage) entry.readAtPoll = persistedReads.get(form);
	};

	function startOver(): void {
		coverage = new Map();
		allFormsFrom = undefined;
		emitted = new Map();
	}
	// A change of the trigger's settings is saved with the workflow, which n8n activates again.
	const reactivate = () => {
		activating = true;
	};

	for (const step of testCase.steps) {
		const now = Date.now();
		switch (step.kind) {
			case 'lead': {
				const covered = coverage.get(step.form);
				// A late arrival is older than leads already emitted, yet never older than its form's watch.
				const earliest =
					covered === undefined ? now - step.back : Math.max(covered.mustFrom + 1, now - step.back);
				const time =
					step.lead === 'now'
						? now
						: step.lead === 'late'
							? earliest
							: step.lead === 'future'
								? now + step.back * 100
								: undefined;
				submit(step.form, time);
				break;
			}
			case 'burst':
				for (let index = 0; index < step.count; index++) submit(step.form, now);
				break;
			case 'list':
				listed.add(step.form);
				break;
			case 'unlist':
				listed.delete(step.form);
				break;
			case 'fail':
				failing.add(step.form);
				break;
			case 'heal':
				failing.delete(step.form);
				break;
			case 'glitch':
				glitch = step.answer;
				break;
			case 'listDown':
				listDown = true;
				break;
			case 'listUp':
				listDown = false;
				break;
			case 'restart':
				// A new process: what the trigger keeps in memory is gone, the static data n8n stored stays.
				restart();
				break;
			case 'rename':
				nodeName = nodeName === 'Trigger' ? 'Trigger renamed' : 'Trigger';
				break;
			case 'event':
				event = event === 'new' ? 'newOrUpdated' : 'new';
				reactivate();
				break;
			case 'watchAll':
				allForms = true;
				reactivate();
				break;
			case 'watchOne':
				allForms = false;
				oneForm = step.form;
				reactivate();
				break;
			case 'poll':
				await poll();
				break;
		}
	}

	// The app behaves again, every form listed; the trigger watches every form until nothing is left.
	listDown = false;
	glitch = undefined;
	failing.clear();
	pageIds.forEach((_, index) => listed.add(index));
	if (!allForms) reactivate();
	allForms = true;
	const quiet = testCase.failAtActivation && polls === 0 ? 1 : 0;
	for (let index = 0; index < quiet; index++) await poll();
	// Until two polls in a row emit nothing (a healthy poll with anything left emits some), within the most it could take.
	const settle = Math.ceil(leads.length / testCase.maxItems) + 3;
	for (let index = 0, quietPolls = 0; index < settle && quietPolls < 2; index++)
		quietPolls = (await poll()) === 0 ? quietPolls + 1 : 0;

	for (const lead of leads) {
		if (emitted.has(lead.key)) continue;
		if (isTheTriggers(lead, coverage.get(lead.form), 'must')) {
			throw new Error(
				`case ${caseId}: lead ${lead.key} of form ${lead.form} (${lead.time === undefined ? 'undated' : new Date(lead.time).toISOString()}, after poll ${lead.after}) was never emitted; coverage ${JSON.stringify(coverage.get(lead.form))}`,
			);
		}
	}
}

/**
 * Whether a lead is the trigger's: `must` be emitted, or `may` be (a lead
 * the trigger could not tell from one before its watch, as a lead dated in
 * the future that was there when the watch began).
 */
function isTheTriggers(
	lead: Lead,
	covered: Coverage | undefined,
	strength: 'must' | 'may',
): boolean {
	if (covered === undefined) return false;
	if (lead.time === undefined)
		return covered.readAtPoll !== undefined && lead.after >= covered.readAtPoll;
	const submittedAfter = lead.after >= covered.afterPoll;
	if (strength === 'may') return submittedAfter || lead.time >= covered.mayFrom;
	return lead.time >= covered.mustFrom && (submittedAfter || covered.fromTime);
}

/** Oldest first, undated last. */
function checkOrder(items: IDataObject[], leads: readonly Lead[], context: string): void {
	const timeOf = new Map(leads.map((lead) => [lead.key, lead.time]));
	let previous = -Infinity;
	let undatedSeen = false;
	for (const item of items) {
		const time = timeOf.get(String(item.inquiryId));
		if (time === undefined) {
			undatedSeen = true;
			continue;
		}
		if (undatedSeen) throw new Error(`${context}: a dated lead came after an undated one`);
		if (time < previous) throw new Error(`${context}: leads not oldest first`);
		previous = time;
	}
}

function json(
	statusCode: number,
	body: unknown,
): { statusCode: number; headers: Record<string, string>; body: Readable } {
	return {
		statusCode,
		headers: { 'content-type': 'application/json' },
		body: Readable.from([Buffer.from(JSON.stringify(body))]),
	};
}
