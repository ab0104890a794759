/* eslint-disable @n8n/community-nodes/no-restricted-imports -- n8n Cloud's limits are for nodes; this test runs on Node itself (streams for the model's answers) */
import fc from 'fast-check';
import type { IDataObject, IHttpRequestOptions } from 'n8n-workflow';
import { Readable } from 'node:stream';

import { FIXTURE } from '../emulator';
import { MemoryCredentialsHelper } from '../harness';
import { AppBuilderApi } from '../../credentials/AppBuilderApi.credentials';
import { pollAppBuilderTrigger } from '../support/appBuilderRuns';
import { SECOND, MINUTE, HOUR } from '../support/durations';
import { caseCount } from '../support/testSize';

/**
 * The whole trigger (its poll through n8n-core's PollContext, the transport,
 * the answer readers, the forms' records, the cursor and the saved position)
 * driven poll by poll against a model of an app, of n8n and of the clock:
 * lists of forms that come back absent, empty or failed, forms added later,
 * leaving and returning, rotating across the 1,000 forms read, failing for
 * good while the list now and then leaves them out, the credential revoked
 * meanwhile; leads late by minutes or hours, dated before the watch began,
 * dated in the future (more at once than a form tracks), without a time,
 * sharing one second, more than Max Leads per Poll at once; Watch switched
 * All -> One -> All and between forms, across an outage, a backlog or a form
 * missing from the list; Event switched; n8n restarted (in its default mode
 * static data is stored only at activation and when a poll emits) and the
 * node renamed, before the first poll after an upgrade from release 0.1.0
 * too; the clock jumping days ahead and hours back; Alert When Quiet; in
 * n8n's default mode and under durable poll cursors. Static data is JSON
 * round-tripped between polls, as n8n stores it.
 *
 * The oracle is the rule at the top of docs/trigger.md, written here apart
 * from the product's code. A form is watched from the poll that begins its
 * watch (under All Forms every form of the app, listed or not; under One
 * Form that form) and not while a change of Watch leaves it out, on the
 * trigger's clock (the start of the poll that makes the change). Per Event:
 * - a lead with a submission time is placed by it: dated while its form was
 *   watched it is emitted exactly once, dated while it was not it never is;
 *   the API dates to the second, so a lead dated in the second of a change
 *   may go either way;
 * - a lead there when the poll that begins its form's watch reads the form
 *   is never emitted, whatever its date (with Send Leads Since a Date, those
 *   dated from Since are); a lead without a submission time is otherwise
 *   emitted exactly once, even one added while its form was out;
 * - a lead dated ahead may be emitted when a poll first finds it while its
 *   form is watched, whatever becomes of the stretch its date falls in;
 * - each poll's items are oldest first, undated last;
 * - each cause of failure (the credential, the app's list, a form) is
 *   reported once per outage, when Error After Failed Polls is reached, and
 *   nothing but a successful read ends it; a failure before the watch began
 *   is shown at once;
 * - Alert When Quiet names only forms read, or watched forms out of the
 *   app's list, and no form twice in one quiet spell.
 * Exceptions the docs state, and the model with them: a position of release
 * 0.1.0 under a node renamed before its first poll of this release is not
 * found (the trigger starts afresh).
 *
 * The model answers the node's requests in this process (thousands of polls
 * must fit in seconds); test/engine/triggerAllForms.engine.test.ts and the
 * e2e suite cover the same paths over real HTTP. Cases: caseCount
 * ALL_FORMS_PROPERTY (2,000 in the quick loop, 20,000 with TEST_SIZE=long);
 * the seed is printed and taken from PROPERTY_SEED (test/support/propertySeed.ts).
 */
const RUNS = caseCount('ALL_FORMS_PROPERTY', 2000, 20_000);
const MAX_LEADS_PER_FORM = 40;
/** The forms the trigger reads of a larger app: the last this many listed. */
const FORMS_READ = 1000;
/** Keys a form's cursor tracks, its share of 1,000 (at least 50): a burst dated ahead past it must wait, not be lost. */
const trackedShare = (forms: number) => Math.max(50, Math.floor(1000 / Math.min(forms, 2000)));

type LeadKind = 'now' | 'late' | 'hoursLate' | 'future' | 'undated' | 'beforeWatch';
type Step =
	| { kind: 'lead'; form: number; lead: LeadKind; back: number }
	| { kind: 'burst'; form: number; count: number }
	| { kind: 'futureBurst'; form: number; extra: number }
	| { kind: 'list' | 'unlist' | 'fail' | 'heal'; form: number }
	| { kind: 'rotate'; count: number }
	| { kind: 'glitch'; answer: 'null' | 'empty' | 'fail' }
	| {
			kind:
				| 'listDown'
				| 'listUp'
				| 'authDown'
				| 'authUp'
				| 'poll'
				| 'restart'
				| 'rename'
				| 'event'
				| 'watchAll';
	  }
	| { kind: 'watchOne'; form: number }
	| { kind: 'clock'; ms: number };

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
	/** Starts from release 0.1.0's position of form 0 (Event New Lead), the node renamed before its first poll or not. */
	upgrade: 'none' | 'kept' | 'renamed';
	steps: Step[];
}

/** A form's watch under one Event, on the trigger's clock. */
interface FormWatch {
	/** Leads dated from here are of its watch (the poll that began it, or Since). */
	from: number;
	/** The poll (its number) that began the watch, and whether it read the form: what was there then is handled. */
	beganPoll: number;
	beganRead: boolean;
	/** How many leads dated ahead were there then: past what the form tracks, the farthest may come out at their time. */
	beganAhead: number;
	/** Stretches the settings left it out, from the start of the poll that left it to that of the poll that took it back. */
	out: Array<{ from: number; to?: number }>;
}

interface Lead {
	key: string;
	form: number;
	time: number | undefined;
	/** The number of polls run before it was submitted. */
	after: number;
	/** Its form's floor can stand no higher when it is submitted: 24 hours before the newest lead the form emitted. */
	lookback: number;
}

const stepArb = (forms: number): fc.Arbitrary<Step> => {
	const form = fc.integer({ min: 0, max: forms - 1 });
	return fc.oneof(
		{
			weight: 8,
			arbitrary: fc.record({
				kind: fc.constant('lead' as const),
				form,
				lead: fc.constantFrom<LeadKind>(
					'now',
					'now',
					'late',
					'hoursLate',
					'future',
					'undated',
					'beforeWatch',
				),
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
			weight: 3,
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
			weight: forms > FORMS_READ ? 3 : 0,
			arbitrary: fc.record({
				kind: fc.constant('rotate' as const),
				count: fc.integer({ min: 1, max: 3 }),
			}),
		},
		{
			weight: 2,
			arbitrary: fc.constantFrom(
				{ kind: 'listDown' as const },
				{ kind: 'listUp' as const },
				{ kind: 'authDown' as const },
				{ kind: 'authUp' as const },
				{ kind: 'restart' as const },
				{ kind: 'rename' as const },
			),
		},
		{
			weight: 2,
			arbitrary: fc.constantFrom({ kind: 'event' as const }, { kind: 'watchAll' as const }),
		},
		{ weight: 3, arbitrary: fc.record({ kind: fc.constant('watchOne' as const), form }) },
		{
			weight: 1,
			arbitrary: fc.record({
				kind: fc.constant('clock' as const),
				ms: fc.oneof(
					fc.integer({ min: MINUTE, max: 72 * HOUR }),
					fc.integer({ min: -2 * HOUR, max: -MINUTE }),
				),
			}),
		},
		{ weight: 8, arbitrary: fc.constant({ kind: 'poll' as const }) },
	);
};

const caseArb: fc.Arbitrary<Case> = fc
	.record({
		// Now and then an app of more than 100 forms, rarely one of more than the trigger reads.
		forms: fc.oneof(
			{ weight: 300, arbitrary: fc.integer({ min: 2, max: 6 }) },
			{ weight: 8, arbitrary: fc.integer({ min: 101, max: 104 }) },
			{ weight: 1, arbitrary: fc.integer({ min: FORMS_READ + 1, max: FORMS_READ + 3 }) },
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
		upgrade: fc.constantFrom(
			'none' as const,
			'none' as const,
			'none' as const,
			'kept' as const,
			'renamed' as const,
		),
	})
	.chain((setup) =>
		fc
			.record({
				...Object.fromEntries(
					Object.entries(setup).map(([key, value]) => [key, fc.constant(value)]),
				),
				steps: fc.array(stepArb(setup.forms), {
					minLength: 5,
					maxLength: setup.forms > FORMS_READ ? 16 : 40,
				}),
				// In one case in thirty, more leads dated ahead than a form tracks, at some step.
				aheadBurst: fc.oneof(
					{ weight: 29, arbitrary: fc.constant(undefined) },
					{
						weight: 1,
						arbitrary: fc.record({
							at: fc.nat(),
							form: fc.integer({ min: 0, max: setup.forms - 1 }),
							extra: fc.integer({ min: 1, max: 12 }),
						}),
					},
				),
			})
			.map(({ aheadBurst, ...testCase }) => {
				const steps = [...testCase.steps];
				if (aheadBurst)
					steps.splice(aheadBurst.at % (steps.length + 1), 0, {
						kind: 'futureBurst',
						...aheadBurst,
					});
				return { ...testCase, steps } as Case;
			}),
	);

/** Every field of a case the fixed cases below leave as the random runs start. */
const BASE: Omit<Case, 'steps'> = {
	forms: 3,
	durable: false,
	maxItems: 4,
	errorAfterPolls: 2,
	firstPoll: 'none',
	startAll: true,
	failAtActivation: false,
	quietAlert: 'off',
	upgrade: 'none',
};

/** Cases that once failed, each run beside the random ones. */
const FIXED: Array<[string, Case]> = [
	[
		// Seed -788173967: a lead of a form set aside by Watch = One Form came out when All Forms took it back.
		'a lead dated while its form was set aside is not emitted when All Forms takes the form back',
		{
			...BASE,
			forms: 5,
			durable: true,
			firstPoll: 'since',
			steps: [
				{ kind: 'lead', form: 1, lead: 'now', back: 294993 },
				{ kind: 'poll' },
				{ kind: 'glitch', answer: 'null' },
				{ kind: 'listUp' },
				{ kind: 'list', form: 3 },
				{ kind: 'lead', form: 1, lead: 'late', back: 334578 },
				{ kind: 'burst', form: 1, count: 7 },
				{ kind: 'watchOne', form: 2 },
				{ kind: 'poll' },
				{ kind: 'glitch', answer: 'fail' },
				{ kind: 'clock', ms: -5080336 },
				{ kind: 'watchAll' },
				{ kind: 'glitch', answer: 'empty' },
				{ kind: 'poll' },
				{ kind: 'watchAll' },
			],
		},
	],
	[
		// Seed -153658979: a form never read yet switched into a One Form watch lost its lead.
		'a lead switched into a One Form watch before its form was ever read is emitted once',
		{
			...BASE,
			forms: 6,
			failAtActivation: true,
			steps: [
				{ kind: 'poll' },
				{ kind: 'poll' },
				{ kind: 'lead', form: 0, lead: 'now', back: 540164 },
				{ kind: 'listDown' },
				{ kind: 'restart' },
				{ kind: 'glitch', answer: 'fail' },
				{ kind: 'poll' },
				{ kind: 'lead', form: 5, lead: 'undated', back: 249469 },
				{ kind: 'poll' },
				{ kind: 'listUp' },
				{ kind: 'watchOne', form: 0 },
				{ kind: 'lead', form: 0, lead: 'now', back: 540466 },
				{ kind: 'lead', form: 5, lead: 'undated', back: 175764 },
				{ kind: 'poll' },
				{ kind: 'lead', form: 5, lead: 'now', back: 545214 },
				{ kind: 'lead', form: 4, lead: 'now', back: 430340 },
				{ kind: 'watchAll' },
				{ kind: 'poll' },
				{ kind: 'poll' },
				{ kind: 'lead', form: 2, lead: 'future', back: 327942 },
			],
		},
	],
	[
		// A lead dated ahead, emitted, its form left out and taken back while its read fails: not emitted again.
		'a lead dated ahead is not emitted again when its form is left out and comes back',
		{
			...BASE,
			durable: true,
			steps: [
				{ kind: 'poll' },
				{ kind: 'lead', form: 0, lead: 'future', back: 300000 },
				{ kind: 'poll' },
				{ kind: 'watchOne', form: 1 },
				{ kind: 'poll' },
				{ kind: 'fail', form: 0 },
				{ kind: 'watchAll' },
				{ kind: 'poll' },
				{ kind: 'heal', form: 0 },
				{ kind: 'poll' },
				{ kind: 'poll' },
			],
		},
	],
	[
		// Seed 606594750: leads dated ahead, there when the trigger first read their form, set aside and taken back.
		'a lead there when its form was first read is not new when the form is taken back in',
		{
			...BASE,
			forms: 6,
			durable: true,
			maxItems: 5,
			quietAlert: 'unusual',
			steps: [
				{ kind: 'burst', form: 3, count: 5 },
				{ kind: 'clock', ms: -5149452 },
				{ kind: 'lead', form: 1, lead: 'undated', back: 406370 },
				{ kind: 'poll' },
				{ kind: 'lead', form: 2, lead: 'undated', back: 105824 },
				{ kind: 'watchOne', form: 1 },
				{ kind: 'lead', form: 2, lead: 'late', back: 578707 },
				{ kind: 'lead', form: 0, lead: 'undated', back: 279415 },
				{ kind: 'poll' },
				{ kind: 'poll' },
				{ kind: 'event' },
				{ kind: 'glitch', answer: 'fail' },
				{ kind: 'lead', form: 1, lead: 'future', back: 237307 },
				{ kind: 'lead', form: 5, lead: 'hoursLate', back: 347080 },
				{ kind: 'event' },
				{ kind: 'watchAll' },
				{ kind: 'list', form: 2 },
				{ kind: 'glitch', answer: 'null' },
				{ kind: 'poll' },
				{ kind: 'poll' },
			],
		},
	],
	[
		// Its reads failing, a form's leads wait; Watch -> One Form on another and back: they come out once.
		'leads waiting on a failing form come out once after a Watch switch and back',
		{
			...BASE,
			steps: [
				{ kind: 'poll' },
				{ kind: 'fail', form: 1 },
				{ kind: 'lead', form: 1, lead: 'now', back: 1000 },
				{ kind: 'lead', form: 1, lead: 'now', back: 1000 },
				{ kind: 'poll' },
				{ kind: 'watchOne', form: 0 },
				{ kind: 'poll' },
				{ kind: 'heal', form: 1 },
				{ kind: 'watchAll' },
				{ kind: 'poll' },
				{ kind: 'poll' },
			],
		},
	],
	[
		// A backlog left by Max Leads per Poll, then Form -> another form -> back: the rest comes out once.
		'a backlog left by Max Leads per Poll comes out once after a Form switch and back',
		{
			...BASE,
			maxItems: 1,
			startAll: false,
			steps: [
				{ kind: 'poll' },
				{ kind: 'lead', form: 0, lead: 'now', back: 1000 },
				{ kind: 'lead', form: 0, lead: 'now', back: 1000 },
				{ kind: 'lead', form: 0, lead: 'now', back: 1000 },
				{ kind: 'poll' },
				{ kind: 'watchOne', form: 1 },
				{ kind: 'poll' },
				{ kind: 'watchOne', form: 0 },
				{ kind: 'poll' },
				{ kind: 'poll' },
			],
		},
	],
	[
		// More records dated ahead than a form tracks (50 on an app of 101 forms), emitted, then a lead of now: it came out never.
		'more leads dated ahead than a form tracks wait their turn: none lost, none twice, the floor never past now',
		{
			...BASE,
			forms: 101,
			maxItems: 6,
			steps: [
				{ kind: 'poll' },
				{ kind: 'futureBurst', form: 0, extra: 3 },
				...Array.from({ length: 10 }, (): Step => ({ kind: 'poll' })),
				{ kind: 'lead', form: 0, lead: 'now', back: 1000 },
				{ kind: 'poll' },
				{ kind: 'poll' },
			],
		},
	],
	[
		// Seed 20261129 (case 11381): a lead found new but left for the next poll ended the form's quiet spell,
		// so its next report is a spell of its own.
		'a lead left for the next poll ends a quiet spell: the form may be reported again',
		{
			...BASE,
			durable: true,
			maxItems: 1,
			firstPoll: 'since',
			quietAlert: 'fixed',
			steps: [
				{ kind: 'poll' },
				{ kind: 'poll' },
				{ kind: 'lead', form: 1, lead: 'hoursLate', back: 571252 },
				{ kind: 'list', form: 1 },
				{ kind: 'lead', form: 1, lead: 'future', back: 261138 },
				{ kind: 'fail', form: 2 },
				{ kind: 'lead', form: 0, lead: 'future', back: 200576 },
				{ kind: 'lead', form: 1, lead: 'beforeWatch', back: 378816 },
				{ kind: 'poll' },
				{ kind: 'fail', form: 0 },
				{ kind: 'unlist', form: 0 },
				{ kind: 'poll' },
			],
		},
	],
	[
		// A lead dated before the watch began that the API lists late is never emitted.
		'a lead dated before the watch began and listed late is never emitted',
		{
			...BASE,
			steps: [
				{ kind: 'poll' },
				{ kind: 'lead', form: 0, lead: 'beforeWatch', back: 60000 },
				{ kind: 'poll' },
				{ kind: 'poll' },
			],
		},
	],
	[
		// 0.1.0's position, the node renamed before its first poll of this release: it starts afresh (documented).
		'an upgrade from 0.1.0 carries on, or starts afresh under a node renamed before its first poll',
		{
			...BASE,
			startAll: false,
			upgrade: 'renamed',
			steps: [
				{ kind: 'lead', form: 0, lead: 'now', back: 1000 },
				{ kind: 'poll' },
				{ kind: 'poll' },
			],
		},
	],
];

describe('App Builder Trigger over every form of an app, against a model of the app and of n8n (property)', () => {
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
	// The model's clock, n8n's and the API's alike: still between the moves the case makes (a poll
	// a minute after the one before, a lead a second after the step before), so nothing depends on
	// how fast the machine runs, and every change of the watch falls on a whole second.
	let now = 0;
	beforeAll(() => jest.spyOn(Date, 'now').mockImplementation(() => now));
	afterAll(() => jest.restoreAllMocks());
	const run = async (testCase: Case) => {
		now = START;
		await runCase(testCase, credentialsHelper, (ms) => (now += ms));
	};

	it.each(FIXED)('%s', async (_, testCase) => {
		await run(testCase);
	});

	it(
		`emits every lead of a watched form once and none submitted outside the watch, whatever the app, n8n and the clock do (${RUNS} cases)`,
		async () => {
			await fc.assert(fc.asyncProperty(caseArb, run), { numRuns: RUNS, endOnFailure: true });
		},
		Math.max(600_000, RUNS * 250),
	);
});

let caseCount_ = 0;
const ignore = () => undefined;
const QUIET = {
	error: ignore,
	warn: ignore,
	info: ignore,
	debug: ignore,
	verbose: ignore,
} as unknown as NonNullable<Parameters<typeof pollAppBuilderTrigger>[2]>['logger'];

/** Every case starts on this instant: a replayed seed runs the same case to the millisecond. */
const START = Date.parse('2026-11-02T09:00:00Z');

async function runCase(
	testCase: Case,
	credentialsHelper: MemoryCredentialsHelper,
	moveClock: (ms: number) => void,
): Promise<void> {
	const caseId = ++caseCount_;
	const pageIds = Array.from(
		{ length: testCase.forms },
		(_, index) => `formbuilder_77_${index + 1}`,
	);
	const leads: Lead[] = [];
	const perForm = pageIds.map(() => 0);
	// Per form, the newest time of a lead it emitted (capped at the clock then): late arrivals are caught within 24 hours of it.
	const newestEmitted = pageIds.map(() => -Infinity);
	// The app's list, in its order: the trigger reads the last FORMS_READ.
	let order = pageIds.map((_, index) => index);
	const listed = new Set(order.filter((index) => index < Math.max(2, testCase.forms - 1)));
	const failing = new Set<number>();
	let listDown = false;
	let authDown = false;
	let glitch: 'null' | 'empty' | 'fail' | undefined;
	let serial = 0;
	let polls = 0;

	// The trigger's settings and n8n around it.
	let allForms = testCase.startAll && testCase.upgrade === 'none';
	let oneForm = 0;
	let event: 'new' | 'newOrUpdated' = 'new';
	let maxItems = testCase.maxItems;
	let n8nProcess = 1;
	let nodeName = 'Trigger';
	const startedAt = Date.now();
	// Since cannot be in the future: the clock goes back at most an hour from the start.
	const since = startedAt - 3 * HOUR;
	let clockBack = 0;

	/** What the trigger holds, as the model sees it: its watch, each form's watch, what it emitted. */
	interface Held {
		/** The Event of the saved position (another starts over), and what it watches. */
		event: 'new' | 'newOrUpdated' | undefined;
		watch: { allForms: true } | { allForms: false; form: number } | undefined;
		forms: Map<number, FormWatch>;
		emitted: Map<string, number>;
	}
	let held: Held = { event: undefined, watch: undefined, forms: new Map(), emitted: new Map() };
	let stored: IDataObject = {};
	/** A lead of the form, unless it has had its share (a burst dated ahead is over and above it). */
	const submit = (form: number, time: number | undefined, counted = true) => {
		if (counted && perForm[form] >= MAX_LEADS_PER_FORM) return;
		if (counted) perForm[form]++;
		const lookback = newestEmitted[form] - 24 * HOUR;
		leads.push({ key: `lead-${caseId}-${serial++}`, form, time, after: polls, lookback });
	};
	// Leads there before the case (the first steps' leads come after them: `after` -1 marks these).
	const before = (form: number, time: number | undefined) => {
		submit(form, time);
		leads[leads.length - 1].after = -1;
	};
	// Leads from before the trigger ran: some before Since, some after.
	for (let form = 0; form < Math.min(testCase.forms, 6); form++) {
		before(form, since - MINUTE);
		before(form, since + MINUTE);
	}
	/** What the trigger holds once it finds release 0.1.0's position. */
	let released: Held | undefined;
	if (testCase.upgrade !== 'none') {
		// Release 0.1.0 polled form 0 an hour ago: it handled every lead there then (two of them undated).
		before(0, undefined);
		before(0, undefined);
		const polledAt = startedAt - HOUR;
		const position = {
			v: 1,
			scope: `${FIXTURE.appId}/${pageIds[0]}/new`,
			floor: polledAt - 24 * HOUR,
			seen: Object.fromEntries(
				leads
					.filter(
						(lead) =>
							lead.form === 0 && lead.time !== undefined && lead.time > polledAt - 24 * HOUR,
					)
					.map((lead) => [lead.key, lead.time]),
			),
			undated: leads
				.filter((lead) => lead.form === 0 && lead.time === undefined)
				.map((lead) => lead.key),
		};
		stored = testCase.durable
			? { inquiryCursor: position }
			: { 'node:Trigger': { inquiryCursor: position } };
		released = {
			event: 'new',
			watch: { allForms: false, form: 0 },
			forms: new Map([
				[0, { from: position.floor, beganPoll: 0, beganRead: true, beganAhead: 0, out: [] }],
			]),
			emitted: new Map(),
		};
		// Renamed before the first poll of this release: n8n keeps 0.1.0's position under the old name.
		if (testCase.upgrade === 'renamed') nodeName = 'Trigger renamed';
	}
	/**
	 * While no poll of this release has saved a position, release 0.1.0's waits: under durable
	 * cursors a poll finds it by the node's ID, by default under the node's name, so not while the
	 * node is renamed.
	 */
	const release1Waits = () => {
		const own = (testCase.durable ? stored : (stored['node:Trigger'] as IDataObject | undefined))
			?.inquiryCursor as IDataObject | undefined;
		return (
			own?.v === 1 && Object.keys((stored.global as IDataObject | undefined) ?? {}).length === 0
		);
	};

	// n8n stores static data at activation and when a poll emits (under durable cursors, after every poll): a restart goes back to it.
	const copy = (state: Held): Held => ({
		...state,
		forms: new Map(
			[...state.forms].map(([form, watch]) => [
				form,
				{ ...watch, out: watch.out.map((o) => ({ ...o })) },
			]),
		),
		emitted: new Map(state.emitted),
	});
	let persisted = { stored, held: copy(held) };
	let activating = true;
	// In-process memory: a failure streak per cause, whether forms past the limit were reported, quiet spells reported.
	let streaks = new Map<string, number>();
	let beyondReported = false;
	let quietReported = new Set<number>();

	const readableOf = (listedNow: readonly number[]) => listedNow.slice(-FORMS_READ);
	const formFails = (form: number) =>
		authDown || failing.has(form) || (testCase.failAtActivation && polls === 0);
	const answer = async (request: IHttpRequestOptions): Promise<unknown> => {
		const body = request.body as IDataObject;
		if (authDown) return json(401, { status: 'error', code: 401, msg: 'Unauthorized' });
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
					...order
						.filter((index) => listed.has(index))
						.map((index) => ({ pageId: pageIds[index], pageName: `Form ${index}` })),
				],
			});
		}
		const form = pageIds.indexOf(String(body.pageId));
		if (formFails(form)) return json(404, { status: 'error', code: 404, msg: 'Form not found' });
		const records = leads
			.filter((lead) => lead.form === form)
			.map((lead) =>
				lead.time === undefined
					? { _id: lead.key, name: lead.key }
					: { _id: lead.key, name: lead.key, addedon: lead.time, updatedon: lead.time },
			);
		return json(200, { status: 'success', data: records.reverse() });
	};

	/** One poll, a minute after the last step, checked against the model; how many leads it emitted. */
	const poll = async (): Promise<number> => {
		moveClock(MINUTE);
		const pollStart = Date.now();
		const parameters: IDataObject = {
			event,
			appId: FIXTURE.appId,
			watch: allForms ? 'allForms' : 'form',
			...(allForms ? {} : { pageId: { __rl: true, mode: 'id', value: pageIds[oneForm] } }),
			simplify: true,
			options: {
				maxItemsPerPoll: maxItems,
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
		if (released !== undefined && release1Waits())
			held =
				testCase.durable || nodeName === 'Trigger'
					? copy(released)
					: { event: undefined, watch: undefined, forms: new Map(), emitted: new Map() };

		// What the model expects of this poll, decided before it runs (the answers change what they depend on).
		const first = held.event !== event;
		const watch = first ? undefined : held.watch;
		const begun = allForms
			? watch?.allForms === true
			: watch !== undefined && (watch.allForms || watch.form === oneForm);
		const changes = allForms
			? watch?.allForms !== true
			: watch === undefined || watch.allForms || watch.form !== oneForm;
		const listFails = allForms && (authDown || listDown || glitch === 'fail');
		const listNone = allForms && !listFails && (glitch === 'null' || glitch === 'empty');
		const listedNow = listFails || listNone ? [] : order.filter((index) => listed.has(index));
		const readable = allForms ? readableOf(listedNow) : [oneForm];
		const failed = listFails ? [] : readable.filter(formFails);
		const readNow = listFails ? [] : readable.filter((form) => !formFails(form));
		const settingUp = !begun && (allForms ? listFails : formFails(oneForm));

		const outcome = await pollAppBuilderTrigger(credentialsHelper, parameters, {
			workflowId: `model-${caseId}-${n8nProcess}`,
			node: { id: 'trigger', name: nodeName },
			httpRequest: answer,
			// Thousands of polls log their failures and recoveries; what is logged is tested elsewhere.
			logger: QUIET,
			...(testCase.durable ? { staticData: data } : { workflowStaticData: data }),
		});
		glitch = undefined;
		polls++;
		const context = `case ${caseId}, poll ${polls}`;

		// Each cause of failure counts on its own; nothing but a successful read ends a streak.
		let reported: string[] = [];
		if (!settingUp) {
			const causes = authDown
				? ['credential']
				: listFails
					? ['list']
					: failed.map((form) => `form:${form}`);
			if (!listFails) {
				if (allForms) streaks.delete('list');
				if (allForms || readNow.length > 0) streaks.delete('credential');
				for (const form of readNow) streaks.delete(`form:${form}`);
			}
			for (const cause of causes) streaks.set(cause, (streaks.get(cause) ?? 0) + 1);
			reported = causes.filter((cause) => streaks.get(cause) === testCase.errorAfterPolls);
		}

		const beyond = outcome.emittedErrors.filter((error) =>
			/^The app lists [\d,]+ forms; the trigger watches 1,000 of them$/.test(error.message),
		);
		const expectBeyond = allForms && !listFails && listedNow.length > FORMS_READ && !beyondReported;
		if (allForms && !listFails) beyondReported = listedNow.length > FORMS_READ;
		if (beyond.length !== (expectBeyond ? 1 : 0))
			throw new Error(`${context}: ${beyond.length} reports of forms past the limit`);
		const quietAlerts = outcome.emittedErrors.filter((error) => !beyond.includes(error));
		for (const alert of quietAlerts)
			if (testCase.quietAlert === 'off' || !/no new lead/.test(alert.message))
				throw new Error(`${context}: an error reported beside the poll: ${alert.message}`);
		if (settingUp || reported.length > 0) {
			if (outcome.error === undefined)
				throw new Error(
					`${context}: expected ${settingUp ? 'the setup error' : `the report of ${reported.join(', ')}`}, got none`,
				);
			return 0;
		}
		if (outcome.error !== undefined)
			throw new Error(
				`${context}: unexpected error ${outcome.error.message} ${outcome.error.description ?? ''}`,
			);
		stored = testCase.durable ? outcome.staticData : outcome.workflowStaticData;

		// Not one form read saves nothing, unless the poll begins or changes the watch.
		const saved = !(readNow.length === 0 && failed.length > 0 && !changes);
		if (saved && changes) {
			held = first
				? { event, watch: undefined, forms: new Map(), emitted: new Map() }
				: { ...held, forms: new Map(held.forms) };
			// Another Event starts over: every form's quiet spell with it.
			if (first) quietReported = new Set();
			const begins = (form: number): FormWatch => ({
				from: first && testCase.firstPoll === 'since' ? since : pollStart,
				beganPoll: polls,
				beganRead: readNow.includes(form),
				beganAhead: leads.filter(
					(lead) =>
						lead.form === form && lead.after < polls && (lead.time ?? -Infinity) > pollStart,
				).length,
				out: [],
			});
			const takeBack = (form: number) => {
				const watching = held.forms.get(form);
				if (watching === undefined) {
					held.forms.set(form, begins(form));
					return;
				}
				const out = watching.out.map((stretch) =>
					stretch.to === undefined ? { ...stretch, to: pollStart } : stretch,
				);
				held.forms.set(form, { ...watching, out });
			};
			const setAside = (form: number) => {
				const watching = held.forms.get(form) as FormWatch;
				if (watching.out.some((stretch) => stretch.to === undefined)) return;
				held.forms.set(form, { ...watching, out: [...watching.out, { from: pollStart }] });
			};
			if (allForms) {
				// Every form of the app is watched, listed or not.
				pageIds.forEach((_, form) => takeBack(form));
				held.watch = { allForms: true };
			} else {
				takeBack(oneForm);
				for (const form of held.forms.keys()) if (form !== oneForm) setAside(form);
				held.watch = { allForms: false, form: oneForm };
			}
		}

		const items = outcome.result?.[0] ?? [];
		if (!saved && items.length > 0)
			throw new Error(`${context}: emitted without saving a position`);
		checkOrder(
			items.map((item) => item.json),
			leads,
			context,
		);
		// Alert When Quiet: never a form this poll brought a lead, only forms read or watched and unlisted, once a spell.
		const brought = new Set(
			items.map((item) => pageIds.indexOf(String(item.json.pageId ?? pageIds[oneForm]))),
		);
		// A lead found new and left for the next poll (Max Leads per Poll) ends the spell too.
		for (const form of readNow)
			if (
				leads.some(
					(lead) =>
						lead.form === form &&
						lead.after < polls &&
						!held.emitted.has(lead.key) &&
						owed(lead, held.forms.get(form), 'may'),
				)
			)
				quietReported.delete(form);
		for (const alert of quietAlerts)
			for (const pageId of new Set(
				`${alert.message} ${alert.description ?? ''}`.match(/formbuilder_77_\d+/g),
			)) {
				const form = pageIds.indexOf(pageId);
				const judged =
					readNow.includes(form) ||
					(allForms && !listFails && !listedNow.includes(form) && held.forms.has(form));
				if (brought.has(form))
					throw new Error(`${context}: ${pageId} reported quiet in the poll that emitted its lead`);
				if (!judged)
					throw new Error(
						`${context}: ${pageId} reported quiet, though it was not read nor out of the list`,
					);
				if (quietReported.has(form))
					throw new Error(`${context}: ${pageId} reported quiet twice in one spell`);
				quietReported.add(form);
			}
		for (const item of items) {
			const key = String(item.json.inquiryId);
			const lead = leads.find((entry) => entry.key === key);
			if (lead === undefined) throw new Error(`${context}: emitted ${key}, which no form holds`);
			const times = (held.emitted.get(key) ?? 0) + 1;
			if (times > 1) throw new Error(`${context}: emitted ${key} ${times} times`);
			held.emitted.set(key, times);
			if (lead.time !== undefined)
				newestEmitted[lead.form] = Math.max(
					newestEmitted[lead.form],
					Math.min(lead.time, pollStart),
				);
			if (!owed(lead, held.forms.get(lead.form), 'may'))
				throw new Error(`${context}: emitted ${key} of form ${lead.form}, ${describe(lead)}`);
		}

		if (testCase.durable || activating || items.length > 0)
			persisted = { stored, held: copy(held) };
		activating = false;
		return items.length;
	};

	// A new process: what the trigger keeps in memory is gone, the static data n8n stored stays, and n8n activates the workflow.
	const restart = () => {
		n8nProcess++;
		streaks = new Map();
		beyondReported = false;
		quietReported = new Set();
		activating = true;
		stored = persisted.stored;
		held = copy(persisted.held);
	};
	// A change of the trigger's settings is saved with the workflow, which n8n activates again.
	const reactivate = () => {
		activating = true;
	};

	for (const step of testCase.steps) {
		if (step.kind !== 'poll') moveClock(SECOND);
		const now = Date.now();
		switch (step.kind) {
			case 'lead': {
				const time = {
					now,
					// A late arrival: older than leads already emitted, by up to ten minutes.
					late: now - step.back,
					// Visible hours after its submission time (a queue in front of the API).
					hoursLate: now - HOUR - step.back * 24,
					future: now + step.back * 100,
					undated: undefined,
					// Listed only now, dated before the trigger's first poll.
					beforeWatch: startedAt - step.back,
				}[step.lead];
				submit(step.form, time);
				break;
			}
			case 'burst':
				// Leads sharing one second.
				for (let index = 0; index < step.count; index++) submit(step.form, now - (now % 1000));
				break;
			case 'futureBurst':
				// More leads dated ahead than the form's cursor tracks, spread over the next hours.
				for (
					let index = 0, count = trackedShare(testCase.forms) + step.extra;
					index < count;
					index++
				)
					submit(step.form, now + HOUR + index * MINUTE, false);
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
			case 'rotate':
				// Forms move in the app's list: some of the last 1,000 fall before them, others come in.
				order = [...order.slice(-step.count), ...order.slice(0, -step.count)];
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
			case 'authDown':
				authDown = true;
				break;
			case 'authUp':
				authDown = false;
				break;
			case 'clock': {
				// Back at most an hour behind the start in all, so that Since stays in the past.
				const ms = Math.round(Math.max(step.ms, -(HOUR - clockBack)) / SECOND) * SECOND;
				clockBack = Math.max(0, clockBack - ms);
				moveClock(ms);
				break;
			}
			case 'restart':
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

	// The app behaves again, every form listed in the order it started with; the trigger watches every form.
	listDown = false;
	authDown = false;
	glitch = undefined;
	failing.clear();
	pageIds.forEach((_, index) => listed.add(index));
	order = pageIds.map((_, index) => index);
	if (!allForms) reactivate();
	allForms = true;
	if (testCase.failAtActivation && polls === 0) await poll();
	// A larger Max Leads per Poll drains what is left in a few polls (a change of settings: n8n activates again).
	maxItems = 500;
	reactivate();
	// Every date comes: leads dated ahead past what a form tracks come out when their time does.
	const latest = Math.max(...leads.map((lead) => lead.time ?? -Infinity));
	if (latest >= Date.now()) moveClock(latest - Date.now() + MINUTE);
	// Until two polls in a row emit nothing (a healthy poll with anything left emits some), within the most it could take.
	const settle = Math.ceil(leads.length / maxItems) + 3;
	for (let index = 0, quietPolls = 0; index < settle && quietPolls < 2; index++)
		quietPolls = (await poll()) === 0 ? quietPolls + 1 : 0;

	// Forms the trigger does not read (the app lists more than it reads) are left out.
	const read = new Set(readableOf(pageIds.map((_, index) => index)));
	for (const lead of leads) {
		if (held.emitted.has(lead.key) || !read.has(lead.form)) continue;
		if (owed(lead, held.forms.get(lead.form), 'must'))
			throw new Error(`case ${caseId}: lead ${lead.key} was never emitted (${describe(lead)})`);
	}

	function describe(lead: Lead): string {
		const time = lead.time === undefined ? 'undated' : new Date(lead.time).toISOString();
		return `${time}, submitted after poll ${lead.after}; its form's watch ${JSON.stringify(held.forms.get(lead.form))}`;
	}

	/**
	 * Whether the rule owes a lead, given its form's watch under the current
	 * Event: `must` be emitted, or `may` be (where the rule leaves it open:
	 * the second of a change, a lead dated ahead found while watched).
	 */
	function owed(lead: Lead, watching: FormWatch | undefined, strength: 'must' | 'may'): boolean {
		if (watching === undefined) return false;
		const presentAtBeginning = watching.beganRead && lead.after < watching.beganPoll;
		if (lead.time === undefined) return !presentAtBeginning;
		const sinceStart = testCase.firstPoll === 'since' && watching.from === since;
		// A form tracks its share of leads dated ahead: past it, those there when its watch began may come out at their time.
		const pastTracked =
			watching.beganAhead > trackedShare(testCase.forms) && lead.time > watching.from;
		if (
			presentAtBeginning &&
			!(sinceStart && lead.time >= since) &&
			!(strength === 'may' && pastTracked)
		)
			return false;
		const time = lead.time;
		// Dated ahead when a poll found it, its form watched: it may come out then, whatever its date falls in.
		if (strength === 'may' && time > Date.now()) return true;
		// Late by more than the lookback (docs/trigger-internals.md, "How it decides what is new"): not promised.
		if (strength === 'must' && time < lead.lookback) return false;
		return (
			time >= watching.from &&
			!watching.out.some((o) => time >= o.from && time < (o.to ?? Infinity))
		);
	}
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
