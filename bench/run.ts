/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-dangerous-functions, no-console -- n8n Cloud's limits are for nodes; this runs on Node itself (timers, process, built-in modules, child processes); it prints its progress and figures */
/**
 * npm run bench: the trigger's poll against the physical floor (fetching the
 * same body over loopback and JSON.parse of it), and in a real n8n the
 * trigger and the App Builder node against the same jobs built from n8n's own
 * nodes, measured side by side in one run on the same emulator data,
 * reported as ratios. `--smoke` runs a small, fast version (part of the test
 * command), checks what it can, and writes nothing.
 */
import { execFileSync } from 'node:child_process';
import { cpus, tmpdir, totalmem } from 'node:os';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

import {
	commitPoll,
	MAX_FIRST_POLL_COUNT,
	planPoll,
	type CursorOptions,
} from '../nodes/AppBuilder/trigger/cursor/cursor';
import { type InquiryEvent } from '../nodes/AppBuilder/inquiries/inquiryEvent';
import { flattenInquiry } from '../nodes/AppBuilder/inquiries/flatten';
import { freePort } from '../test/e2e/n8nInstance';
import {
	idealMsOf,
	measureAddUser,
	unlimitedRun,
	type AddUserRow,
	type AddUserSettings,
} from './sections/addUser';
import {
	CYCLE_PROFILE_HEADING,
	cycleProfileSection,
	profileCycles,
	type CycleProfileSettings,
	type ProfiledSeries,
} from './sections/cycleProfile';
import { EmulatorProcess } from './lib/emulatorProcess';
import {
	floorSection,
	floorTargetRow,
	measureTrivialCycles,
	n8nFloorRows,
	TRIVIAL_AFTER_OURS_S,
	type FloorRow,
	type TrivialAlongside,
} from './sections/n8nFloor';
import { benchN8nVersion, N8nForBench } from './lib/n8nForBench';
import {
	cycleRoots,
	measurePollCycles,
	OURS,
	PEER_RAISED,
	peerLabel,
	RAISED_HISTORY,
	type AlongsideOurs,
	type CycleRow,
	type CycleSettings,
} from './sections/pollCycle';
import {
	measureSlowLink,
	slowLinkSection,
	slowLinkTargetRows,
	type SlowLinkRow,
	type SlowLinkSettings,
} from './sections/slowLink';
import { TriggerPoller } from './lib/triggerPoller';
import {
	allFormsSection,
	allFormsTargetRows,
	measureAllForms,
	type AllFormsRow,
	type AllFormsSettings,
} from './sections/allForms';
import { crashSection } from './sections/crash';
import {
	compressedReadSection,
	compressedReadTargetRow,
	measureCompressedRead,
	type CompressedReadRow,
	type CompressedReadSettings,
} from './sections/compressedRead';
import { lineChart } from './lib/svgChart';
import {
	manyPollsSection,
	manyPollsTargetRow,
	measureManyPolls,
	profilePolls,
	type ManyPolls,
	type PollProfile,
} from './sections/manyPolls';
import {
	cpuMsPerPoll,
	measureTriggersPerMain,
	SCALE_N8N_ENV,
	type ScaleResult,
	type ScaleSettings,
} from './sections/triggersPerMain';
import {
	PEER_FACTOR,
	replaceMeasuredBlock,
	scaleChart,
	scaleSection,
	scaleTargetAt,
	scaleTargetRows,
	scalingDocBlock,
} from './sections/triggersPerMainReport';
import { notePartialRun, putSection, putTargetRows, sectionOf } from './reportPatch';
import { median } from './lib/median';

const SMOKE = process.argv.includes('--smoke');
const RUN_STARTED = Date.now();
const runMinutes = () => Math.round((Date.now() - RUN_STARTED) / 60_000);
let sectionStarted = RUN_STARTED;
/** Prints how long the section just ended took, so a run's log shows where its time goes. */
function sectionDone(name: string): void {
	console.log(
		`bench  ${name}: ${((Date.now() - sectionStarted) / 60_000).toFixed(1)} minutes (${runMinutes()} since the start)`,
	);
	sectionStarted = Date.now();
}
/**
 * `--only=manyPolls,allForms,scale`: those sections alone, put into the report
 * the last full run wrote (each in place of its own section and target rows),
 * with a note of what the partial run wrote and when. `floor`: n8n's own floor
 * and ours' cycles against it (not the peer); `cycleProfile`: where a cycle's
 * time goes in n8n, profiled, which only a partial run measures (a full run
 * keeps the section the last one wrote); `slowLink`: one poll over a slow link,
 * in an n8n of its own for the peer.
 */
const ONLY_SECTIONS = [
	'manyPolls',
	'allForms',
	'scale',
	'floor',
	'cycleProfile',
	'compressedRead',
	'slowLink',
] as const;
type OnlySection = (typeof ONLY_SECTIONS)[number];
const ONLY = onlySections(process.argv);

function onlySections(argv: string[]): Set<OnlySection> | undefined {
	const given = argv.find((arg) => arg.startsWith('--only='));
	if (!given) return undefined;
	const names = given.slice('--only='.length).split(',').filter(Boolean);
	const unknown = names.filter((name) => !(ONLY_SECTIONS as readonly string[]).includes(name));
	if (names.length === 0 || unknown.length > 0)
		throw new Error(
			`--only takes some of ${ONLY_SECTIONS.join(', ')}, separated by commas; not ${JSON.stringify(unknown.join(',') || given)}`,
		);
	return new Set(names as OnlySection[]);
}
const SIZES = SMOKE ? [500] : [1_000, 10_000, 100_000];
const ROUNDS = (size: number) => (SMOKE ? 2 : size >= 100_000 ? 3 : 5);
const NEW_PER_POLL = 10;
const CYCLES: CycleSettings = SMOKE
	? {
			sizes: [300],
			cyclesFor: () => 1,
			newPerCycle: NEW_PER_POLL,
			peerTimeoutMs: 120_000,
			peerVariants: 1,
		}
	: {
			sizes: [1_000, 10_000, 100_000],
			// Ours polls once a minute, so each cycle costs a minute: five, for a median with a spread beside it (with
			// three, runs disagreed by up to 2x on the same figure). The peer, many times slower, three; its runs at
			// 100,000 last longer than its 2-minute schedule and n8n hands them back without their items (only their
			// time is known): one.
			cyclesFor: (size, who) => (who === 'peer' ? (size >= 100_000 ? 1 : 3) : 5),
			newPerCycle: NEW_PER_POLL,
			// The peer's first run at 100,000 did not finish in 12 minutes in earlier runs; 6 say as much and leave time for triggers per main.
			peerTimeoutMs: 4 * 60_000,
			peerVariants: 2,
		};
/** Where a cycle's time goes in n8n (`--only=cycleProfile`): cycles profiled per size, and of the trivial trigger. */
const CYCLE_PROFILE: CycleProfileSettings = {
	sizes: CYCLES.sizes,
	cycles: SMOKE ? 1 : 3,
	newPerCycle: NEW_PER_POLL,
	samplingIntervalUs: 200,
	// Once more at 10,000 with V8's bytecode flushing off in n8n, to show what running cold costs a cycle.
	flushingOffAt: SMOKE ? undefined : 10_000,
	// BENCH_CYCLE_PROFILES=<folder>: each cycle's whole profile written there too, to open in Chrome's DevTools.
	profileDir: process.env.BENCH_CYCLE_PROFILES,
};
// 50 Mbit/s and a 100 ms round trip; the smoke run takes the same paths on a small form and a fast link.
const SLOW_LINK: SlowLinkSettings = SMOKE
	? {
			sizes: [300],
			bandwidthBytesPerSecond: 50_000_000,
			roundTripMs: 5,
			roundsFor: () => 1,
			newPerPoll: NEW_PER_POLL,
		}
	: {
			sizes: [10_000, 100_000],
			bandwidthBytesPerSecond: 50_000_000 / 8,
			roundTripMs: 100,
			roundsFor: (size) => (size >= 100_000 ? 1 : 3),
			newPerPoll: NEW_PER_POLL,
		};
/** The everyday poll of a small form, many times: the form's size, the rounds timed, the polls profiled. */
const MANY_POLLS = SMOKE
	? { size: 300, rounds: 5, profiled: 5 }
	: { size: 1_000, rounds: 101, profiled: 60 };
/**
 * Triggers per n8n main. Every window lasts a minute at least (a poll a
 * minute), so what runs is chosen to keep the section's length down (the
 * report says how long it took): ours with compression off is searched from scratch and its K
 * confirmed over 5 minutes with every lead checked, at each size; ours with
 * compression on is tried at that K (and at the first K that failed, or at
 * four fifths of it); the peer at a fifth of the target, and at a fifth of
 * ours' K if it passes there, which decides the 5x target. The smoke run takes the same paths
 * on a small form with K of 1 and 2.
 */
const SCALE: ScaleSettings = SMOKE
	? {
			configs: [
				{ who: 'ours', size: 300, compression: true, confirm: true, start: 2, max: 2 },
				{
					who: 'peer',
					size: 300,
					compression: true,
					confirm: false,
					start: 1,
					max: 1,
					relativeTo: {
						who: 'ours',
						size: 300,
						compression: true,
						factors: [0.5],
						maxProbes: 1,
						firstAt: 1,
					},
				},
			],
			probeWindowMs: 60_000,
			// Long enough for the leads of its first minute to be due.
			confirmWindowMs: 90_000,
			resolution: 0.25,
			newPerMinute: 3,
			peerHistory: RAISED_HISTORY,
			emulatorAloneRequests: 10,
			idleMs: 5_000,
			drainMs: 5_000,
			waitForPeerFirstRuns: false,
			confirmAttempts: 1,
			confirmStepDown: 0.85,
			probeUpToN8nCores: 1.9,
			confirmUpToN8nCores: 1.35,
		}
	: {
			configs: [1_000, 10_000].flatMap((size) => {
				const off = { who: 'ours' as const, size, compression: false };
				return [
					// At most 4 times the target: past that n8n's answers under load (creating and activating hundreds of
					// workflows more) take longer than the windows themselves, and one run's n8n refused them at 1,168.
					{
						...off,
						confirm: true,
						start: size >= 10_000 ? 10 : 50,
						max: size >= 10_000 ? 200 : 800,
					},
					{
						...off,
						compression: true,
						confirm: false,
						start: 1,
						max: 3_200,
						relativeTo: { ...off, factors: [1, 0.8], maxProbes: 2 },
					},
					// The target itself: failing at a fifth of the target, or at a fifth of ours, says ours carries more than 5
					// times the peer. The smaller first: waiting out 31 first runs of 10,000 inquiries took 9 minutes. Once
					// overloaded, n8n took more than 10 minutes to begin a window at a tenth, so none lower is tried.
					{
						who: 'peer' as const,
						size,
						compression: false,
						confirm: false,
						start: 1,
						max: 3_200,
						relativeTo: {
							...off,
							factors: [1 / PEER_FACTOR],
							maxProbes: 2,
							firstAt: Math.ceil((scaleTargetAt(size) ?? 0) / PEER_FACTOR),
						},
					},
				];
			}),
			probeWindowMs: 60_000,
			confirmWindowMs: 5 * 60_000,
			resolution: 0.2,
			newPerMinute: 3,
			peerHistory: RAISED_HISTORY,
			emulatorAloneRequests: 200,
			idleMs: 30_000,
			drainMs: 10_000,
			waitForPeerFirstRuns: true,
			// A 5-minute window meets the editor's rare slow answer more often than a 1-minute probe: at 1,000 inquiries
			// one run's confirmations at 486 and then 425 each failed on a single answer over a second (2.2 s, 2.8 s).
			confirmAttempts: 3,
			// A K a few percent lower meets the same slow moments: one run's confirmations failed at 399 and then 388.
			confirmStepDown: 0.85,
			// Past about 550 triggers on 1,000-inquiry forms n8n fell apart for minutes (polls two minutes late, 5.8 GiB), and every
			// confirmation at a K whose probe kept n8n above about 1.3 cores failed, in both runs that reached one.
			probeUpToN8nCores: 1.9,
			confirmUpToN8nCores: 1.35,
		};
/** Add User's target: its node time within this much of the ideal. */
const ADD_USER_TARGET = 1.25;
/** One all-forms trigger against one trigger per form, on 1, 10 and 50 forms. */
const ALL_FORMS: AllFormsSettings = SMOKE
	? { formCounts: [1, 3], inquiriesPerForm: 50, newPerFormPerCycle: 2, cycles: 1 }
	: { formCounts: [1, 10, 50], inquiriesPerForm: 1_000, newPerFormPerCycle: 2, cycles: 9 };
/** One poll reading a gzip answer against a plain one + inflate, each size from an answer replayed by a process of its own. */
const COMPRESSED_READ: CompressedReadSettings = SMOKE
	? { sizes: [1_000], roundsFor: () => 5, newPerPoll: NEW_PER_POLL }
	: {
			sizes: [10_000, 100_000],
			// A poll varies by a third, and at 100,000 by up to 2x, on a shared machine (7 rounds at 100,000 read 0.76x
			// in one run and 1.09x in the next): 15 rounds at each size, about a minute at 100,000.
			roundsFor: () => 15,
			newPerPoll: NEW_PER_POLL,
		};
const ADD_USER: AddUserSettings = {
	items: SMOKE ? 30 : 1_000,
	latencyMs: 50,
	rateLimitPerSecond: 20,
};

interface PollRow {
	size: number;
	bodyBytes: number;
	floorMs: number;
	oursMs: number;
	ratio: number;
	stateBytes: number;
}

const now = () => Number(process.hrtime.bigint()) / 1e6;

async function measurePolls(emulator: EmulatorProcess): Promise<PollRow[]> {
	const rows: PollRow[] = [];
	for (const size of SIZES) {
		await emulator.fillForm(size);
		const poller = new TriggerPoller(emulator.webUrl);
		await poller.poll(); // first poll: the baseline, not timed
		const floor: number[] = [];
		const ours: number[] = [];
		let bodyBytes = 0;
		for (let round = 0; round < ROUNDS(size); round++) {
			await emulator.addNew(NEW_PER_POLL);
			let start = now();
			const parsed = await emulator.fetchAndParse();
			floor.push(now() - start);
			bodyBytes = parsed.bytes;
			start = now();
			const emitted = await poller.poll();
			ours.push(now() - start);
			if (emitted !== NEW_PER_POLL)
				throw new Error(`poll emitted ${emitted}, expected ${NEW_PER_POLL}`);
		}
		const row = {
			size,
			bodyBytes,
			floorMs: median(floor),
			oursMs: median(ours),
			ratio: median(ours) / median(floor),
			stateBytes: JSON.stringify(poller.staticData).length,
		};
		rows.push(row);
		console.log(
			`poll   ${String(size).padStart(7)} inquiries  body ${(bodyBytes / 1e6).toFixed(1).padStart(6)} MB  floor ${row.floorMs.toFixed(0).padStart(6)} ms  ours ${row.oursMs.toFixed(0).padStart(6)} ms  ratio ${row.ratio.toFixed(2)}  state ${row.stateBytes} B`,
		);
	}
	return rows;
}

/** The cursor alone over a million inquiries: what a form that size leaves in static data. */
const STATE_FORM_SIZE = SMOKE ? 20_000 : 1_000_000;

function stateSizeAtMillion(): number {
	const count = STATE_FORM_SIZE;
	const start = Date.now() - count * 1000;
	const events: InquiryEvent[] = Array.from({ length: count }, (_, i) => ({
		key: `65f1c0ffee${String(i).padStart(14, '0')}`,
		time: start + i * 1000,
	}));
	const options: CursorOptions = {
		mode: 'new',
		firstPoll: { kind: 'none' },
		maxItems: 500,
		nowMs: Date.now(),
	};
	let state = planPoll(undefined, events, options).baseline;
	for (let poll = 0; poll < 5; poll++) {
		for (let i = 0; i < NEW_PER_POLL; i++)
			events.push({ key: `new-${poll}-${i}`, time: Date.now() + poll * 1000 + i });
		const plan = planPoll(state, events, options);
		state = commitPoll(plan, plan.toEmit, options);
	}
	const bytes = JSON.stringify(state).length;
	console.log(`state  ${count} inquiries (cursor alone): ${bytes} B`);
	return bytes;
}

function memoryProbe(
	mode: 'ours' | 'latest' | 'floor',
	webUrl: string,
	staticDataFile?: string,
): number {
	const args = [
		resolve(__dirname, 'lib', 'memoryProbe.ts'),
		mode,
		webUrl,
		...(staticDataFile ? [staticDataFile] : []),
	];
	const output = execFileSync(process.execPath, [...process.execArgv, ...args], {
		encoding: 'utf8',
	});
	return (JSON.parse(output) as { peakAddedBytes: number }).peakAddedBytes;
}

/** Flattening against JSON.parse of the same records: medians of rounds after a warm-up round, both warm. */
function flattenThroughput(records: unknown[]): {
	records: number;
	perSecond: number;
	ratioToParse: number;
} {
	const texts = records.map((record) => JSON.stringify(record));
	const parseMs: number[] = [];
	const flattenMs: number[] = [];
	for (let round = 0; round <= FLATTEN_ROUNDS; round++) {
		let start = now();
		const parsed = texts.map((text) => JSON.parse(text) as unknown);
		const parsing = now() - start;
		start = now();
		for (const record of parsed) flattenInquiry(record);
		const flattening = now() - start;
		if (round === 0) continue;
		parseMs.push(parsing);
		flattenMs.push(flattening);
	}
	const perSecond = records.length / (median(flattenMs) / 1000);
	const ratioToParse = median(flattenMs) / median(parseMs);
	console.log(
		`flatten ${records.length} records: ${Math.round(perSecond)} records/s, ${ratioToParse.toFixed(2)}x JSON.parse of the same records (medians of ${FLATTEN_ROUNDS} rounds after a warm-up)`,
	);
	return { records: records.length, perSecond, ratioToParse };
}

const FLATTEN_ROUNDS = 9;

/**
 * `--property=N`: the all-forms trigger's model-based property test with N
 * cases (test:quick runs 2,000), and with PROPERTY_SEED set, from
 * that seed; it measures nothing and writes no report.
 */
const PROPERTY_RUNS = process.argv
	.find((arg) => arg.startsWith('--property='))
	?.slice('--property='.length);

function runPropertyTest(runs: string): void {
	if (!/^[1-9]\d{0,6}$/.test(runs))
		throw new Error(
			`--property takes a number of cases (1 to 9,999,999), not ${JSON.stringify(runs)}`,
		);
	const started = Date.now();
	// The package's own jest, from the repository's root: the test is the package's, not the bench's.
	const root = resolve(__dirname, '..');
	execFileSync(
		join(root, 'node_modules', '.bin', 'jest'),
		['test/engine/triggerAllForms.property.test.ts'],
		{
			cwd: root,
			stdio: 'inherit',
			env: { ...process.env, ALL_FORMS_PROPERTY_RUNS: runs },
		},
	);
	console.log(
		`property  ${runs} cases of the all-forms trigger against its model passed in ${((Date.now() - started) / 60_000).toFixed(1)} minutes`,
	);
}

async function main(): Promise<void> {
	if (PROPERTY_RUNS !== undefined) return runPropertyTest(PROPERTY_RUNS);
	const emulator = await EmulatorProcess.start(await freePort());
	try {
		if (ONLY) return await runSectionsOnly(emulator, ONLY);
		const polls = await measurePolls(emulator);
		sectionDone('one poll against the floor');
		const compressed = await measureCompressedRead(emulator, COMPRESSED_READ);
		sectionDone('reading a compressed answer');
		const many = await measureManyPolls(emulator, MANY_POLLS.size, MANY_POLLS.rounds, NEW_PER_POLL);
		const profile = await profilePolls(
			emulator,
			MANY_POLLS.size,
			MANY_POLLS.profiled,
			NEW_PER_POLL,
		);
		console.log(
			`polls  ${MANY_POLLS.size} inquiries, ${MANY_POLLS.rounds} rounds: ${manyPollsTargetRow(many)}; profiled ${profile.busyMsPerPoll.toFixed(1)} ms busy a poll`,
		);
		sectionDone('a small form, many times');
		const largest = SIZES[SIZES.length - 1];
		await emulator.fillForm(largest);
		const { bytes, records } = await emulator.fetchAndParse();
		// An everyday poll: from the state the first poll left, with new inquiries to emit.
		const baseline = new TriggerPoller(emulator.webUrl);
		await baseline.poll();
		await emulator.addNew(NEW_PER_POLL);
		const staticDataFile = resolve(
			mkdtempSync(join(tmpdir(), 'appbuilder-bench-')),
			'static-data.json',
		);
		writeFileSync(staticDataFile, JSON.stringify(baseline.staticData));
		const oursPeak = memoryProbe('ours', emulator.webUrl, staticDataFile);
		const floorPeak = memoryProbe('floor', emulator.webUrl);
		const latestPeak = memoryProbe('latest', emulator.webUrl);
		console.log(
			`memory ${largest} inquiries: one poll adds ${(oursPeak / 1e6).toFixed(0)} MB at peak = ${(oursPeak / bytes).toFixed(2)}x the body; a first poll set to Send the Latest Leads ${(latestPeak / bytes).toFixed(2)}x; the floor adds ${(floorPeak / bytes).toFixed(2)}x`,
		);
		const flatten = flattenThroughput(records.slice(0, 10_000));
		const million = stateSizeAtMillion();
		sectionDone('memory, flattening and static data');
		const allForms = await measureAllForms(emulator, ALL_FORMS);
		sectionDone('every form of an app');
		const { cycles, addUser, floor, slowLink, scale } = await measureInN8n(
			emulator,
			polls[0].stateBytes,
		);
		checkNoLeadTwice(scale);
		// The smoke run writes its report aside, so the report's templates are exercised on every test run too.
		const docs = SMOKE ? mkdtempSync(join(tmpdir(), 'appbuilder-bench-report-')) : COMMITTED_DOCS;
		writeReport(
			docs,
			polls,
			{ oursPeak, latestPeak, floorPeak, bytes, largest },
			flatten,
			million,
			cycles,
			addUser,
			floor,
			slowLink,
			{ many, profile, scale },
			allForms,
			compressed,
		);
		if (SMOKE) rmSync(docs, { recursive: true });
		console.log(
			`ratio of one poll to the floor at ${largest}: ${polls[polls.length - 1].ratio.toFixed(2)}`,
		);
	} finally {
		await emulator.stop();
	}
}

/** What the package promises whatever the load: no lead twice. (A lead late because n8n could not keep up fails its window, not the run.) */
function checkNoLeadTwice(scale: ScaleResult): void {
	for (const row of scale.rows.filter((r) => r.config.who === 'ours')) {
		const repeated = row.windows.find((window) => (window.leads?.repeated ?? 0) > 0);
		if (repeated)
			throw new Error(
				`triggers per main at ${row.config.size}, K ${repeated.k}: ${repeated.judgement.reasons.join('; ')}`,
			);
	}
}

/** The sections `only` names, measured as the full run measures them and put into the report the last full run wrote. */
async function runSectionsOnly(emulator: EmulatorProcess, only: Set<OnlySection>): Promise<void> {
	const many = only.has('manyPolls')
		? await measureManyPolls(emulator, MANY_POLLS.size, MANY_POLLS.rounds, NEW_PER_POLL)
		: undefined;
	const profile = many
		? await profilePolls(emulator, MANY_POLLS.size, MANY_POLLS.profiled, NEW_PER_POLL)
		: undefined;
	if (many && profile)
		console.log(
			`polls  ${MANY_POLLS.size} inquiries, ${MANY_POLLS.rounds} rounds: ${manyPollsTargetRow(many)}; profiled ${profile.busyMsPerPoll.toFixed(1)} ms busy a poll`,
		);
	// The smoke run writes into a copy, so the patching is exercised and the committed report stays as it is.
	const docs = SMOKE ? mkdtempSync(join(tmpdir(), 'appbuilder-bench-report-')) : COMMITTED_DOCS;
	const names = [...only].join(',');
	const note = () =>
		`${names} on ${today()} (\`npm run bench -- --only=${names}\`, a run of ${runMinutes()} minutes), on ${machineName()}, Node ${process.version}; the other sections are from the date above.`;
	const withScale = (report: string, scale: ScaleResult) => {
		writeFileSync(resolve(docs, 'poll-time-vs-k.svg'), scaleChart(scale));
		writeScalingFigures(docs, scale);
		return putTargetRows(
			putSection(report, scaleSection(scale, SCALE), '## Over a slow link'),
			scaleTargetRows(scale),
			'One poll over a slow link',
		);
	};
	const committedReport = readFileSync(resolve(COMMITTED_DOCS, 'benchmarks.md'), 'utf8');
	// Each configuration of triggers per main takes many minutes: each one finished is written as it ends, and the last write replaces them.
	const scaleSoFar = (soFar: ScaleResult) =>
		writeFileSync(
			resolve(docs, 'benchmarks.md'),
			notePartialRun(withScale(committedReport, soFar), note()),
		);
	const allForms = only.has('allForms') ? await measureAllForms(emulator, ALL_FORMS) : undefined;
	const compressed = only.has('compressedRead')
		? await measureCompressedRead(emulator, COMPRESSED_READ)
		: undefined;
	const scale = only.has('scale')
		? await measureTriggersPerMain(emulator, SCALE, undefined, scaleSoFar)
		: undefined;
	if (scale) checkNoLeadTwice(scale);
	const floor = only.has('floor') ? await measureFloorOnly(emulator) : undefined;
	const cycleProfile = only.has('cycleProfile') ? await measureCycleProfile(emulator) : undefined;
	const slowLink = only.has('slowLink') ? await measureSlowLinkOnly(emulator) : undefined;

	let report = committedReport;
	if (many && profile) {
		report = putSection(
			report,
			manyPollsSection(many, profile, scale && pollCycleCostInN8n(scale, many.size)),
			'## Static data',
		);
		report = putTargetRows(report, [manyPollsTargetRow(many)], 'Poll cycle in n8n');
	}
	if (scale) report = withScale(report, scale);
	if (allForms) {
		report = putSection(report, allFormsSection(allForms, ALL_FORMS), '## Over a slow link');
		report = putTargetRows(report, allFormsTargetRows(allForms), 'Static data');
	}
	if (compressed) {
		report = putSection(
			report,
			compressedReadSection(compressed, COMPRESSED_READ),
			'## Over a slow link',
		);
		report = putTargetRows(
			report,
			[compressedReadTargetRow(compressed)],
			'One poll over a slow link',
		);
	}
	if (floor) {
		report = putSection(report, floorSection(floor.rows), '## Triggers per n8n main');
		report = putTargetRows(
			report,
			[floorTargetRow(floor.rows, CYCLES.sizes)],
			'Triggers one n8n main',
		);
	}
	if (cycleProfile)
		report = putSection(
			report,
			cycleProfileSection(cycleProfile, CYCLE_PROFILE),
			'## Triggers per n8n main',
		);
	if (slowLink) {
		report = putSection(
			report,
			slowLinkSection(slowLink, SLOW_LINK),
			'## Add User over 1,000 items',
		);
		report = putTargetRows(report, slowLinkTargetRows(slowLink, SLOW_LINK), 'All forms');
	}
	report = notePartialRun(report, note());
	writeFileSync(resolve(docs, 'benchmarks.md'), report);
	console.log(
		`wrote the ${names} sections into ${join(docs, 'benchmarks.md')}${scale ? ', poll-time-vs-k.svg and the figures in scaling.md' : ''}`,
	);
	if (SMOKE) rmSync(docs, { recursive: true });
}

const machineName = () => `${cpus().length} × ${cpus()[0]?.model ?? 'CPU'}`;
const today = () => new Date().toISOString().slice(0, 10);
/** Where the report and the pages quoting it live; the smoke run writes copies elsewhere. */
const COMMITTED_DOCS = resolve(__dirname, '../docs');

/** A section only a partial run measures, as the committed report has it, for a full run to keep; or nothing. */
function keptSection(heading: string): string {
	const section = sectionOf(
		readFileSync(resolve(COMMITTED_DOCS, 'benchmarks.md'), 'utf8'),
		heading,
	);
	return section ? `${section}\n` : '';
}

/** docs/scaling.md quotes the triggers per main between its markers: the committed page with them put in, written into `docs`. */
function writeScalingFigures(docs: string, scale: ScaleResult): void {
	const scalingPage = readFileSync(resolve(COMMITTED_DOCS, 'scaling.md'), 'utf8');
	writeFileSync(
		resolve(docs, 'scaling.md'),
		replaceMeasuredBlock(scalingPage, scalingDocBlock(scale, today(), machineName())),
	);
}

interface N8nFloor {
	rows: FloorRow[];
}

/**
 * Figures 2 and 5, in real n8n with the packed package installed. `stateBytes`:
 * the size of ours' saved state, which the trivial trigger also keeps in one of its runs.
 */
async function measureInN8n(
	emulator: EmulatorProcess,
	stateBytes: number,
): Promise<{
	cycles: CycleRow[];
	addUser: AddUserRow[];
	floor: N8nFloor;
	slowLink: SlowLinkRow[];
	scale: ScaleResult;
}> {
	const { cycles, addUser, floor } = await measureCyclesInN8n(emulator, stateBytes);
	sectionDone("Add User, poll cycles and n8n's own floor in n8n");
	// The peer's largest runs can leave n8n out of memory or still saving: the slow link gets an n8n of its own.
	// The smoke run measures triggers per main in that n8n too; the full run gives it a fresh one, whose memory it reports.
	const bench = await N8nForBench.start(emulator.webUrl, SMOKE ? SCALE_N8N_ENV : {});
	let slowLink: SlowLinkRow[];
	try {
		slowLink = await measureSlowLink(emulator, bench, SLOW_LINK);
		sectionDone('over a slow link');
		if (SMOKE)
			return {
				cycles,
				addUser,
				floor,
				slowLink,
				scale: await measureTriggersPerMain(emulator, SCALE, bench),
			};
	} finally {
		await bench.stop();
	}
	const scale = await measureTriggersPerMain(emulator, SCALE);
	sectionDone('triggers per main');
	return { cycles, addUser, floor, slowLink, scale };
}

async function measureCyclesInN8n(
	emulator: EmulatorProcess,
	stateBytes: number,
): Promise<{ cycles: CycleRow[]; addUser: AddUserRow[]; floor: N8nFloor }> {
	const bench = await N8nForBench.start(emulator.webUrl, {}, { logMajorGcs: true });
	try {
		const addUser = await measureAddUser(emulator, bench, ADD_USER);
		const { cycles, floor } = await measureFloorAndCycles(emulator, bench, stateBytes, CYCLES);
		// What the package promises, checked on every run: every user added once.
		for (const row of addUser.filter((r) => r.label.startsWith('App Builder'))) {
			if (row.created !== row.items || row.failedItems > 0)
				throw new Error(`Add User in n8n: ${JSON.stringify(row)}`);
		}
		return { cycles, addUser, floor };
	} finally {
		await bench.stop();
	}
}

/**
 * The answers' transfer, then the poll cycles `settings` name (ours, and the
 * peer unless its variants are 0), with n8n's own floor (the trivial trigger,
 * with and without a state) measured in the same minutes as ours at each
 * size. `stateBytes`: ours' saved state, which the trivial trigger keeps in
 * one of its runs.
 */
async function measureFloorAndCycles(
	emulator: EmulatorProcess,
	bench: N8nForBench,
	stateBytes: number,
	settings: CycleSettings,
): Promise<{ cycles: CycleRow[]; floor: N8nFloor }> {
	const roots = cycleRoots(bench, emulator);
	const alongside = new Map<number, TrivialAlongside>();
	const trivialAlongside: AlongsideOurs = async (size, cronSecond, firstTick) => {
		const cycles = settings.cyclesFor(size, 'ours');
		const at = (afterOurs: number) => ({
			cronSecond: (cronSecond + afterOurs) % 60,
			firstTickAfter: firstTick,
			roots,
		});
		const [trivial, withState, receiving] = await Promise.all([
			measureTrivialCycles(bench, cycles, at(TRIVIAL_AFTER_OURS_S.plain)),
			measureTrivialCycles(bench, cycles, { ...at(TRIVIAL_AFTER_OURS_S.withState), stateBytes }),
			measureTrivialCycles(bench, cycles, {
				...at(TRIVIAL_AFTER_OURS_S.receiving),
				receive: emulator.formAnswer,
			}),
		]);
		alongside.set(size, { trivial, withState, receiving });
	};
	const cycles = await measurePollCycles(emulator, bench, settings, trivialAlongside);
	// What the package promises, checked on every run: each new lead once.
	for (const row of cycles.filter((r) => r.who === OURS)) {
		const wrong =
			row.missed.some(Boolean) ||
			row.repeated.some(Boolean) ||
			row.newEmitted.some((n) => n !== NEW_PER_POLL);
		if (wrong || row.cycles !== settings.cyclesFor(row.size, 'ours'))
			throw new Error(`the trigger in n8n at ${row.size}: ${JSON.stringify(row)}`);
	}
	return { cycles, floor: { rows: n8nFloorRows(cycles, alongside) } };
}

/** `--only=floor`: n8n's own floor and ours' cycles against it, in an n8n of their own, without the peer. */
async function measureFloorOnly(emulator: EmulatorProcess): Promise<N8nFloor> {
	// Ours' saved state at the smallest form, as the full run takes it from its first section.
	await emulator.fillForm(CYCLES.sizes[0]);
	const poller = new TriggerPoller(emulator.webUrl);
	await poller.poll();
	await emulator.addNew(NEW_PER_POLL);
	await poller.poll();
	const stateBytes = JSON.stringify(poller.staticData).length;
	const bench = await N8nForBench.start(emulator.webUrl, {}, { logMajorGcs: true });
	try {
		return (
			await measureFloorAndCycles(emulator, bench, stateBytes, { ...CYCLES, peerVariants: 0 })
		).floor;
	} finally {
		await bench.stop();
	}
}

/** `--only=slowLink`: one poll over a slow link, the peer in an n8n of its own as in the full run. */
async function measureSlowLinkOnly(emulator: EmulatorProcess): Promise<SlowLinkRow[]> {
	const bench = await N8nForBench.start(emulator.webUrl);
	try {
		return await measureSlowLink(emulator, bench, SLOW_LINK);
	} finally {
		await bench.stop();
	}
}

/** `--only=cycleProfile`: the cycles profiled, in an n8n of their own started with an inspector. */
async function measureCycleProfile(emulator: EmulatorProcess): Promise<ProfiledSeries[]> {
	const inspectPort = await freePort();
	const bench = await N8nForBench.start(emulator.webUrl, {}, { inspectPort });
	try {
		return await profileCycles(emulator, bench, inspectPort, CYCLE_PROFILE);
	} finally {
		await bench.stop();
	}
}

function writeReport(
	docs: string,
	polls: PollRow[],
	memory: {
		oursPeak: number;
		latestPeak: number;
		floorPeak: number;
		bytes: number;
		largest: number;
	},
	flatten: ReturnType<typeof flattenThroughput>,
	millionStateBytes: number,
	cycles: CycleRow[],
	addUser: AddUserRow[],
	floor: N8nFloor,
	slowLink: SlowLinkRow[],
	scaling: { many: ManyPolls; profile: PollProfile; scale: ScaleResult },
	allForms: AllFormsRow[],
	compressed: CompressedReadRow[],
): void {
	writeFileSync(resolve(docs, 'poll-time-vs-k.svg'), scaleChart(scaling.scale));
	// The sizes where both charted workflows finished; the peer with the default history is not charted.
	const charted = CYCLES.sizes.filter(
		(size) =>
			cycleMsAt(cycles, size, OURS) !== undefined &&
			cycleMsAt(cycles, size, PEER_RAISED) !== undefined,
	);
	const cycleOf = (who: string) => charted.map((size) => cycleMsAt(cycles, size, who) as number);
	writeFileSync(
		resolve(docs, 'poll-cycle.svg'),
		lineChart({
			title: 'One poll cycle in n8n versus the form size',
			xLabel: 'inquiries in the form',
			yLabel: 'ms (median, log scale)',
			xs: charted,
			series: [
				{ name: 'App Builder Trigger', values: cycleOf(OURS) },
				{
					name: `peer workflow (history ${RAISED_HISTORY.toLocaleString('en')})`,
					values: cycleOf(PEER_RAISED),
				},
			],
		}),
	);
	writeFileSync(
		resolve(docs, 'poll-cost.svg'),
		lineChart({
			title: 'One poll versus the form size',
			xLabel: 'inquiries in the form',
			yLabel: 'ms (median, log scale)',
			xs: polls.map((row) => row.size),
			series: [
				{ name: 'App Builder Trigger poll', values: polls.map((row) => row.oursMs) },
				{ name: 'floor: fetch + JSON.parse', values: polls.map((row) => row.floorMs) },
			],
		}),
	);
	const table = polls
		.map(
			(row) =>
				`| ${row.size.toLocaleString('en')} | ${(row.bodyBytes / 1e6).toFixed(1)} MB | ${row.floorMs.toFixed(0)} ms | ${row.oursMs.toFixed(0)} ms | **${row.ratio.toFixed(2)}x** | ${row.stateBytes.toLocaleString('en')} B |`,
		)
		.join('\n');
	const report = `# Benchmarks

Written by \`npm run bench\` on ${today()}, a run of ${runMinutes()} minutes. Times are
noisy on a shared machine; the ratios are measured side by side in one run
on the same data and hold.

Machine: ${cpus().length} × ${cpus()[0]?.model ?? 'CPU'}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}.

${targetsSection(polls, memory, millionStateBytes, floor.rows, addUser, slowLink, scaling, allForms, compressed)}
## One poll against the physical floor

Each form holds inquiries of about 2 KB (10 fields, formData and
formbuilderData both filled); ${NEW_PER_POLL} new ones arrive before each poll. The
*floor* is the least any client can do: fetch the same body over loopback
and \`JSON.parse\` it. *Ours* is one poll of the App Builder Trigger run by
n8n-core's \`PollContext\` (n8n's HTTP helpers, the credential, the cursor,
flattening the ${NEW_PER_POLL} new inquiries, the static data written back). The
emulator runs in its own process, so neither side pays for serving.

| inquiries | body | floor | one poll | poll / floor | static data |
| --- | --- | --- | --- | --- | --- |
${table}

![One poll versus the form size](poll-cost.svg)

${manyPollsSection(scaling.many, scaling.profile, pollCycleCostInN8n(scaling.scale, scaling.many.size))}
## Static data

A form of 1,000,000 inquiries, through the cursor alone (a 1.5 GB body is
more than one HTTP response here can carry): **${millionStateBytes.toLocaleString('en')} B** after the
first poll and five more. The documented bound is about 50 KB whatever the
form's size.

## Memory of one poll

At ${memory.largest.toLocaleString('en')} inquiries (${(memory.bytes / 1e6).toFixed(0)} MB body), the peak resident memory one poll adds,
measured in a fresh process (an everyday poll: from the state a first poll
left, ${NEW_PER_POLL} new inquiries to emit): **${(memory.oursPeak / memory.bytes).toFixed(2)}x the body** for the trigger,
${(memory.floorPeak / memory.bytes).toFixed(2)}x for the floor. The trigger reads the answer as it
arrives and keeps only the records it may emit (those at or after its
cursor's floor), so its memory does not grow with the answer. A first poll
set to Send the Latest Leads (no saved state, the newest ${MAX_FIRST_POLL_COUNT}) adds **${(memory.latestPeak / memory.bytes).toFixed(2)}x the body**:
it keeps the bytes of only the newest records as the answer streams past.

## Flattening

${Math.round(flatten.perSecond).toLocaleString('en')} records per second, **${flatten.ratioToParse.toFixed(2)}x** the time of \`JSON.parse\` of the same records (medians of ${FLATTEN_ROUNDS} rounds over ${flatten.records.toLocaleString('en')} records, after a warm-up round).

${cycleSection(cycles, polls)}
${floorSection(floor.rows)}
${keptSection(CYCLE_PROFILE_HEADING)}${scaleSection(scaling.scale, SCALE)}
${allFormsSection(allForms, ALL_FORMS)}
${compressedReadSection(compressed, COMPRESSED_READ)}
${slowLinkSection(slowLink, SLOW_LINK)}
${addUserSection(addUser)}
${crashSection(resolve(COMMITTED_DOCS, 'crash-suite.json'))}`;
	writeFileSync(resolve(docs, 'benchmarks.md'), report);
	// docs/scaling.md quotes the triggers per main (the smoke run writes a copy aside).
	writeScalingFigures(docs, scaling.scale);
	console.log(
		`wrote ${join(docs, 'benchmarks.md')}, poll-cost.svg, poll-cycle.svg, poll-time-vs-k.svg and the figures in scaling.md`,
	);
}

/**
 * What a poll cycle of ours costs n8n's CPU on a form of `size` (or the
 * smallest form measured), with compression off: over the window that
 * confirmed its K (what K triggers pay), else the largest that passed.
 */
function pollCycleCostInN8n(
	scale: ScaleResult,
	size: number,
): { cpuMs: number; k: number } | undefined {
	const ours = scale.rows.filter((row) => row.config.who === 'ours');
	const row =
		ours.find((r) => r.config.size === size && !r.config.compression) ??
		ours.find((r) => r.config.size === size) ??
		ours[0];
	const window =
		row?.confirmed ?? row?.windows.filter((w) => w.passed).sort((a, b) => b.k - a.k)[0];
	const cpuMs = window && cpuMsPerPoll(window, scale.idleCores);
	return window && cpuMs !== undefined ? { cpuMs, k: window.k } : undefined;
}

/** The targets the package holds itself to, each with what this run measured. */
function targetsSection(
	polls: PollRow[],
	memory: { oursPeak: number; latestPeak: number; bytes: number; largest: number },
	millionStateBytes: number,
	floorRows: FloorRow[],
	addUser: AddUserRow[],
	slowLink: SlowLinkRow[],
	scaling: { many: ManyPolls; scale: ScaleResult },
	allForms: AllFormsRow[],
	compressed: CompressedReadRow[],
): string {
	const verdict = (met: boolean) => (met ? 'met' : '**not met**');
	const largest = polls[polls.length - 1];
	const smallest = polls[0];
	// Cost per byte of answer at the largest form against the smallest: above 1, the poll grows faster than the body.
	const growth = largest.oursMs / largest.bodyBytes / (smallest.oursMs / smallest.bodyBytes);
	const stateBound = 50_000;
	const maxState = Math.max(largest.stateBytes, millionStateBytes);
	const memoryRatio = memory.oursPeak / memory.bytes;
	const latestRatio = memory.latestPeak / memory.bytes;
	const ours = unlimitedRun(addUser, 'App Builder, Concurrency 5');
	const oursLimited = addUser.find(
		(row) => row.label.startsWith('App Builder') && row.rateLimitPerSecond !== null,
	);
	const addRatio = ours?.idealMs ? ours.nodeMs / ours.idealMs : undefined;
	const ours20 = unlimitedRun(addUser, 'App Builder, Concurrency 20');
	const addRatio20 = ours20?.idealMs ? ours20.nodeMs / ours20.idealMs : undefined;
	// n8n's own node with no concurrency limit at all: what 1,000 calls cost n8n on this machine whatever the node does.
	const httpAllAtOnce = unlimitedRun(addUser, 'HTTP Request, defaults (every');
	const allAtOnceNote = httpAllAtOnce
		? `; n8n's HTTP Request node, every item at once, takes ${ms(httpAllAtOnce.nodeMs)}`
		: '';
	const boundNote = (ratio: number | undefined) =>
		ratio !== undefined && ratio > ADD_USER_TARGET
			? ' (what bounds it: [Add User](#add-user-over-1000-items))'
			: '';
	const httpLosses = addUser
		.filter((row) => row.label.startsWith('HTTP Request') && row.rateLimitPerSecond !== null)
		.map(
			(row) =>
				`${row.label.replace('HTTP Request, ', '')}: ${(row.items - row.created).toLocaleString('en')} not created`,
		)
		.join('; ');
	const rows = [
		`| One poll against the floor at ${largest.size.toLocaleString('en')} | at most 1.5x, growing no faster than the body | ${largest.ratio.toFixed(2)}x; cost per byte ${growth.toFixed(2)}x that at ${smallest.size.toLocaleString('en')} | ${verdict(largest.ratio <= 1.5 && growth <= 1.1)} |`,
		manyPollsTargetRow(scaling.many),
		floorTargetRow(floorRows, CYCLES.sizes),
		...scaleTargetRows(scaling.scale),
		compressedReadTargetRow(compressed),
		...slowLinkTargetRows(slowLink, SLOW_LINK),
		...allFormsTargetRows(allForms),
		`| Static data at ${largest.size.toLocaleString('en')} and ${STATE_FORM_SIZE.toLocaleString('en')} | within the documented bound (about 50 KB) | ${largest.stateBytes.toLocaleString('en')} B and ${millionStateBytes.toLocaleString('en')} B | ${verdict(maxState <= stateBound)} |`,
		`| Peak memory of one poll at ${memory.largest.toLocaleString('en')} | at most 3x the body | ${memoryRatio.toFixed(2)}x (${(memory.oursPeak / 1e6).toFixed(0)} MB) | ${verdict(memoryRatio <= 3)} |`,
		`| Peak memory of a first poll set to Send the Latest Leads at ${memory.largest.toLocaleString('en')} | at most 1x the body | ${latestRatio.toFixed(2)}x (${(memory.latestPeak / 1e6).toFixed(0)} MB) | ${verdict(latestRatio <= 1)} |`,
		`| Add User, ${ADD_USER.items.toLocaleString('en')} items at ${ADD_USER.latencyMs} ms, Concurrency 5 | within ${ADD_USER_TARGET}x of the ideal | ${addRatio === undefined ? 'not measured' : `${addRatio.toFixed(2)}x`}${boundNote(addRatio)} | ${verdict(addRatio !== undefined && addRatio <= ADD_USER_TARGET)} |`,
		`| Add User, ${ADD_USER.items.toLocaleString('en')} items at ${ADD_USER.latencyMs} ms, Concurrency 20 | within ${ADD_USER_TARGET}x of the ideal | ${addRatio20 === undefined ? 'not measured' : `${addRatio20.toFixed(2)}x`}${allAtOnceNote}${boundNote(addRatio20)} | ${verdict(addRatio20 !== undefined && addRatio20 <= ADD_USER_TARGET)} |`,
		`| Add User under a rate limit | no item lost | ${oursLimited ? `${(oursLimited.items - oursLimited.created).toLocaleString('en')} lost (the HTTP Request node: ${httpLosses})` : 'not measured'} | ${verdict(oursLimited !== undefined && oursLimited.created === oursLimited.items)} |`,
	];
	return `## Targets

| figure | target | this run | |
| --- | --- | --- | --- |
${rows.join('\n')}
`;
}

/** The median cycle of one workflow at one size; undefined when it did not finish. */
function cycleMsAt(cycles: CycleRow[], size: number, who: string): number | undefined {
	return cycles.find((row) => row.size === size && row.who === who)?.cycleMs;
}

const ms = (value: number | undefined) =>
	value === undefined ? '-' : `${Math.round(value).toLocaleString('en')} ms`;
const counts = (values: number[]) => (values.length > 0 ? values.join(', ') : '-');

/**
 * The same answer read by the same code, in n8n and in this process: how much
 * of a cycle is the trigger's own reading and how much is n8n around it.
 */
function inN8nAgainstHere(oursBroken: CycleRow[], polls: PollRow[]): string {
	const pairs = oursBroken.slice(1).flatMap((row) => {
		const here = polls.find((poll) => poll.size === row.size);
		return here && row.breakdown
			? [{ size: row.size, inN8n: row.breakdown.servedMs, here: here.oursMs }]
			: [];
	});
	if (pairs.length === 0) return '';
	const first = pairs[0];
	return `

In n8n the answer is read more slowly than the same poll runs in this
process: at ${first.size.toLocaleString('en')} inquiries, ${ms(first.inN8n)} from the request to the last byte in n8n,
${ms(first.here)} for the whole poll here (the table above). The code and the answer are the
same; in n8n the trigger runs once a minute, inside n8n's process and
through its HTTP stack, where here it runs in a warm loop.`;
}

/** How many cycles each contender was measured over, size by size, as the report says it. */
function cycleCounts(): string {
	return CYCLES.sizes
		.map((size) => {
			const [ours, peer] = [CYCLES.cyclesFor(size, 'ours'), CYCLES.cyclesFor(size, 'peer')];
			return `${ours} cycles at ${size.toLocaleString('en')}${peer === ours ? '' : ` (the peer ${peer})`}`;
		})
		.join(', ');
}

function cycleSection(cycles: CycleRow[], polls: PollRow[]): string {
	const whos = [...new Set(cycles.map((row) => row.who))];
	const timeRows = CYCLES.sizes.map((size) => {
		const of = (who: string) => cycles.find((row) => row.size === size && row.who === who);
		const ours = of(OURS)?.cycleMs;
		const peer = of(PEER_RAISED)?.cycleMs;
		const cells = whos.map((who) => {
			const row = of(who);
			return row?.cycleMs !== undefined ? ms(row.cycleMs) : row?.note ? 'failed (below)' : '-';
		});
		const ratio =
			ours !== undefined && peer !== undefined ? `**${(peer / ours).toFixed(1)}x**` : '-';
		return `| ${size.toLocaleString('en')} | ${cells.join(' | ')} | ${ratio} |`;
	});
	const deliveryRows = cycles.map(
		(row) =>
			`| ${row.size.toLocaleString('en')} | ${row.who} | ${row.note?.includes('not known') ? '?' : row.firstRunEmitted.toLocaleString('en')} | ${counts(row.newEmitted)} | ${counts(row.repeated)} | ${counts(row.missed)} | ${row.note ?? ''} |`,
	);
	const oursBroken = cycles.filter((row) => row.who === OURS && row.breakdown);
	const breakdowns = oursBroken.map(
		(row) =>
			`| ${row.size.toLocaleString('en')} | ${ms(row.breakdown?.servedMs)} | ${ms(row.breakdown?.pollToStartMs)} | ${ms(row.breakdown?.executionMs)} |`,
	);
	const smallest = oursBroken[0]?.breakdown;
	const fixedCost = smallest
		? `At ${oursBroken[0].size.toLocaleString('en')} inquiries the answer takes ${ms(smallest.servedMs)}, and n8n still needs
${ms(smallest.pollToStartMs + smallest.executionMs)} from its last byte to the end of the execution: what any poll costs in
n8n, whatever the form. Above that, a cycle of ours grows with the answer's
transfer, which the trigger reads as it arrives; the API has no "since"
filter, so every poll receives the whole form.${inN8nAgainstHere(oursBroken, polls)}`
		: '';
	const defaultHistoryFailures = cycles
		.filter((row) => row.who === peerLabel() && row.note)
		.map((row) => `at ${row.size.toLocaleString('en')}, ${row.note?.replace(/: .*$/, '')}`);
	const peerWrong =
		defaultHistoryFailures.length > 0
			? `What the peer gets wrong: with n8n's default history of 10,000, Remove
Duplicates stops the workflow with an error once a run holds more items than
that (${defaultHistoryFailures.join('; ')}), so no lead
gets through until the user raises the history; it did not emit old leads
again. Raised, it works, but every run carries every inquiry of the form
through each node, which is where its time goes.`
			: '';
	return `## One poll cycle in n8n, against the peer workflow

The same job in one real n8n ${benchN8nVersion()} (the packed package installed as n8n
installs community packages), on the same emulator form, ${CYCLES.newPerCycle} new
inquiries before each cycle, ${cycleCounts()} after the first run (medians).
Ours runs at every size first, then the peer: the peer's large runs keep n8n
saving and collecting garbage well after they end, so ours' cycles never
follow them.

- **${OURS}**: the trigger (once a minute, n8n's shortest interval) and a
  No Operation node. A cycle runs from the trigger's request reaching the
  emulator to the end of the execution it starts.
- **peer**: what a user builds from n8n's own nodes: Schedule Trigger → HTTP
  Request (the same credential) → Split Out (\`data\`) → Remove Duplicates
  ("Remove Items Processed in Previous Executions", by \`_id\`) → Code
  (flattens formbuilderData). A cycle runs from the schedule's tick to the end
  of the execution. Once with n8n's default history (10,000), once with the
  history raised to ${RAISED_HISTORY.toLocaleString('en')}, as its error message tells a user to do.

| inquiries | ${whos.join(' | ')} | peer / ours |
| --- | ${whos.map(() => '---').join(' | ')} | --- |
${timeRows.join('\n')}

![One poll cycle versus the form size](poll-cycle.svg)

What each delivered (per cycle after the first run; new = of the ${CYCLES.newPerCycle} new
leads, repeated = leads already delivered, delivered again):

| inquiries | workflow | first run emitted | new | repeated | missed | note |
| --- | --- | --- | --- | --- | --- | --- |
${deliveryRows.join('\n')}

${peerWrong}

Where a cycle of ours goes (medians): from the request reaching the emulator
to the last byte of the answer leaving it (the trigger reads the answer as
it arrives), from there until n8n starts the execution (the trigger planning and flattening what it emits,
then n8n saving its state and starting the execution), and the execution:

| inquiries | request to last byte | last byte to execution start | execution |
| --- | --- | --- | --- |
${breakdowns.join('\n')}

${fixedCost}
`;
}

function addUserSection(rows: AddUserRow[]): string {
	const lines = rows.map((row) => {
		const ideal = idealMsOf(row);
		const ratio =
			ideal !== undefined && row.label.startsWith('App Builder')
				? `**${(row.nodeMs / ideal).toFixed(2)}x**`
				: '-';
		return `| ${row.label} | ${row.rateLimitPerSecond ? `${row.rateLimitPerSecond}/s` : 'none'} | ${ms(row.nodeMs)} | ${ms(ideal)} | ${ratio} | ${row.created} of ${row.items} | ${row.calls} | ${row.failedItems} | ${row.executionStatus} |`;
	});
	return `## Add User over ${ADD_USER.items.toLocaleString('en')} items

A webhook receives ${ADD_USER.items.toLocaleString('en')} people; Split Out; then App Builder → Add User,
or n8n's HTTP Request node making the same addUser calls with the same
credential. The emulator answers each call after ${ADD_USER.latencyMs} ms, then also
rate-limits to ${ADD_USER.rateLimitPerSecond} calls per second (429 with Retry-After). *Node time*
is the node's execution time as n8n recorded it. The *ideal* is items ×
latency ÷ concurrency, and at the rate limit no less than items ÷ rate.
*Created* counts the app users the emulator holds afterwards; *calls* the
addUser calls it received.

| node | rate limit | node time | ideal | node / ideal | created | calls | items failed | execution |
| --- | --- | --- | --- | --- | --- | --- | --- | --- |
${lines.join('\n')}
${concurrencyBound(rows)}`;
}

/**
 * What bounds Add User: n8n's work per call. With no limit at all, n8n's own
 * HTTP Request node shows what each call costs n8n's single thread; at
 * Concurrency 20 ours is busy rather than waiting, so its time per item is
 * that work as it does it. A call holds its slot for the latency plus that
 * work, which gives the least time at a lower Concurrency.
 */
function concurrencyBound(rows: AddUserRow[]): string {
	const allAtOnce = unlimitedRun(rows, 'HTTP Request, defaults (every');
	const ours20 = unlimitedRun(rows, 'App Builder, Concurrency 20');
	const ours5 = unlimitedRun(rows, 'App Builder, Concurrency 5');
	if (!allAtOnce || !ours20) return '';
	const perCall = ours20.nodeMs / ours20.items;
	const atFive = ours5 && (ours5.items * (ADD_USER.latencyMs + perCall)) / 5;
	const fiveLine =
		ours5 && atFive
			? ` Allowing that work per call, a call holds one of 5 slots for ${ADD_USER.latencyMs} ms +
${perCall.toFixed(1)} ms, so the least time at Concurrency 5 is ${ms(atFive)}: ours takes ${ms(ours5.nodeMs)},
**${(ours5.nodeMs / atFive).toFixed(2)}x** that.`
			: '';
	return `
What bounds it is n8n's work per call, on n8n's one JavaScript thread. n8n's
own HTTP Request node, sending every item at once with no limit, needs
${ms(allAtOnce.nodeMs)} for the same ${allAtOnce.items.toLocaleString('en')} calls: ${(allAtOnce.nodeMs / allAtOnce.items).toFixed(1)} ms per call, where the ideal at
Concurrency 20 allows ${(ADD_USER.latencyMs / 20).toFixed(1)} ms. At Concurrency 20 ours is busy, not waiting:
${perCall.toFixed(1)} ms per item, ${(ours20.nodeMs / allAtOnce.nodeMs).toFixed(2)}x the time n8n's own node takes.${fiveLine}
A CPU profile of the node in n8n-core's engine (\`bench/addUserInEngine.ts\`,
compiled with tsc, then \`node <out>/bench/addUserInEngine.js 1000 50 20\`)
puts about 62% of the busy time in n8n's HTTP helper (it builds new agents,
so a new TCP connection, for every request: \`setAxiosAgents\` in
\`@n8n/backend-network\`), 17% in n8n evaluating the item's expressions, 11%
in garbage collection and 6% in this package's transport (streamed reading,
deadline, redaction). The one option n8n's helpers take for the connection,
\`agentOptions\` of \`httpRequest\`, only shapes that new agent (\`keepAlive\`
included: \`buildNodeAgents\` makes a fresh \`http.Agent\` with them on every
call), so nothing a node may pass keeps a connection from one call to the
next; the target stays, and what bounds it is n8n's, as measured above.
`;
}

main().catch((error) => {
	console.error(error);
	process.exit(1);
});
