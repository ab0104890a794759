/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports, no-console -- n8n Cloud's limits are for nodes; this runs on Node itself (process, timers, built-in modules); it prints its progress */
/**
 * Where a poll cycle's time goes inside n8n: n8n's main process runs with an
 * inspector (`--inspect`), and V8's sampling profiler runs in it from just
 * before a cycle's tick until a second after its answer's last byte. Each
 * sample is charged to the innermost frame of a named part (cpuProfile.ts),
 * and to the stretch of the cycle it was taken in: before the request, while
 * the answer arrives, after its last byte, the execution, and after it.
 * `npm run bench -- --only=cycleProfile` alone runs it, so the profiler never
 * slows the figures of the other sections.
 */
import { cpus } from 'node:os';

import { triggerWorkflow, trivialTriggerWorkflow } from '../lib/benchWorkflows';
import {
	summarizeWindows,
	type CpuProfile,
	type ProfilePart,
	type ProfileSummary,
	type ProfileWindow,
} from '../lib/cpuProfile';
import { freePort } from '../../test/e2e/n8nInstance';
import type { EmulatorProcess } from '../lib/emulatorProcess';
import { InspectorClient, inspectorTarget } from '../lib/inspectorClient';
import { trivialExecutionOn } from './n8nFloor';
import { N8nForBench } from '../lib/n8nForBench';
import {
	CYCLES,
	nextTickOn,
	OURS,
	prepareOurCycle,
	QUIET_AFTER_MS,
	sleepUntil,
	waitForInquiryRequests,
} from './pollCycle';

export interface CycleProfileSettings {
	sizes: number[];
	/** Cycles profiled at each size, and of the trivial trigger. */
	cycles: number;
	newPerCycle: number;
	/** V8's sampling interval, in microseconds. */
	samplingIntervalUs: number;
	/**
	 * Ours at this size once more at the end, with V8's bytecode flushing
	 * turned off in n8n's process (an experiment, not how n8n runs): whether
	 * a cycle runs the trigger's code cold decides much of its time.
	 */
	flushingOffAt?: number;
}

/** At the sizes of the poll cycles; only `--only=cycleProfile` measures it. */
export const CYCLE_PROFILE: Record<'full' | 'smoke', CycleProfileSettings> = {
	full: {
		sizes: CYCLES.full.sizes,
		cycles: 3,
		newPerCycle: 10,
		samplingIntervalUs: 200,
		// Once more at 10,000 with V8's bytecode flushing off in n8n, to show what running cold costs a cycle.
		flushingOffAt: 10_000,
	},
	smoke: {
		sizes: CYCLES.smoke.sizes,
		cycles: 1,
		newPerCycle: 10,
		samplingIntervalUs: 200,
	},
};

/** The stretches of a cycle, in order; the trivial trigger sends no request, so it has no answer arriving. */
export const STRETCHES = [
	'cron tick to request',
	'request to last byte',
	'last byte to execution start',
	'execution',
	'after the execution',
] as const;
export type Stretch = (typeof STRETCHES)[number];

/** A file of the package as n8n loads it: the installed package's compiled folder. */
const ofOurs = (url: string, ...paths: string[]) =>
	url.includes('/node_modules/n8n-nodes-appbuilder/dist/nodes/') &&
	(paths.length === 0 || paths.some((path) => url.includes(`/dist/nodes/${path}`)));
/** A part of the package's own code: its files, by path under nodes/ (a folder ends with "/"). */
const oursPart = (name: string, ...paths: string[]): ProfilePart => ({
	name,
	packagePaths: paths,
	matches: (url) => ofOurs(url, ...paths),
});
const inModules = (url: string, ...names: string[]) =>
	names.some((name) => url.includes(`/node_modules/${name}/`));
const ofN8n = (url: string, ...paths: string[]) =>
	paths.some((path) => url.includes(`/node_modules/n8n/dist/${path}`));

export const READING =
	"ours: reading the answer (the JSON scan, each record's identity and time, the records kept)";
export const REQUEST =
	"ours: the request (credentials, its options, the gate, the answer's status)";
export const CURSOR = "ours: the cursor and the poll's plan";
export const FLATTENING = 'ours: flattening what it emits';
export const SAVED = 'ours: the saved position and the claim';
export const OURS_OTHER = "ours: the poll's other steps (settings, reports)";
export const N8N_HTTP = "n8n's HTTP helper (n8n-core's request helpers, axios)";
export const SOCKETS = "Node's sockets and streams";
export const N8N_SAVING = "n8n's database: the static data and the execution saved";
export const N8N_CORE =
	"n8n-core and n8n's workflow runner: the poll context, starting and running the execution";
export const N8N_OTHER = "n8n's other work (scheduling, events, logs)";
export const NODE_OTHER = "Node's other internals (timers, promises)";
export const NATIVE = 'outside JavaScript ((program): compiling, native calls)';

/** The parts, most specific first: a frame counts for the first part it matches. */
export const CYCLE_PARTS: ProfilePart[] = [
	oursPart(
		READING,
		'shared/jsonStream/',
		'shared/http/answerReading',
		'shared/http/streamReading',
		'AppBuilder/inquiries/readInquiryStream',
		'AppBuilder/trigger/events/inquiryList',
		'AppBuilder/trigger/events/identity',
		'AppBuilder/trigger/events/jsonText',
		'AppBuilder/inquiries/timestamps',
		'AppBuilder/trigger/events/latestListings',
		'AppBuilder/trigger/reading/',
	),
	oursPart(
		REQUEST,
		'AppBuilder/transport/',
		'shared/http/',
		'shared/connect/',
		'shared/text/',
		'shared/appBuilderApi',
		'shared/hostRouting',
	),
	oursPart(
		CURSOR,
		'AppBuilder/trigger/events/inquiryEvent',
		'AppBuilder/trigger/cursor/',
		'AppBuilder/trigger/plan/',
		'AppBuilder/trigger/quiet/',
		'AppBuilder/acrossForms/readForms',
	),
	oursPart(
		FLATTENING,
		'AppBuilder/inquiries/flatten',
		'AppBuilder/inquiries/inquiryItem',
		'AppBuilder/inquiries/submittedFields',
		'AppBuilder/inquiries/unreadableInquiry',
		'AppBuilder/acrossForms/itemForm',
	),
	oursPart(
		SAVED,
		'AppBuilder/trigger/saved/',
		'AppBuilder/trigger/forms/',
		'AppBuilder/trigger/triggerMemory',
	),
	{ name: OURS_OTHER, matches: (url) => ofOurs(url) },
	{
		name: SOCKETS,
		matches: (url) =>
			/^node:(?:_http|net|stream|zlib|internal\/(?:streams|stream_base_commons|http|net|tls))/.test(
				url,
			),
	},
	{
		name: N8N_HTTP,
		matches: (url) =>
			inModules(url, 'axios', 'follow-redirects', '@n8n/backend-network', 'proxy-from-env') ||
			(inModules(url, 'n8n-core') && url.includes('request-helper')),
	},
	{
		name: N8N_SAVING,
		matches: (url) =>
			inModules(url, '@n8n/typeorm', 'typeorm', 'sqlite3', '@n8n/db') ||
			ofN8n(url, 'execution-lifecycle/', 'executions/', 'workflows/workflow-static-data'),
	},
	{
		name: N8N_CORE,
		matches: (url) =>
			inModules(url, 'n8n-core', 'n8n-workflow') ||
			ofN8n(
				url,
				'workflow-runner',
				'active-executions',
				'workflows/triggers/',
				'workflow-execute-additional-data',
				'concurrency/',
				'active-workflow-manager',
			),
	},
	{ name: N8N_OTHER, matches: (url) => inModules(url, 'n8n') || url.includes('/node_modules/') },
	{ name: NODE_OTHER, matches: (url) => url.startsWith('node:') },
	{ name: NATIVE, matches: (_url, functionName) => functionName === '(program)' },
];

const PART_NAMES = [...CYCLE_PARTS.map((part) => part.name), 'garbage collection', 'other'];

/** One profiled cycle: each stretch's wall time and where its samples went. */
export interface ProfiledCycle {
	wallMs: Record<Stretch, number>;
	profile: Record<Stretch, ProfileSummary>;
}

export interface ProfiledSeries {
	label: string;
	size?: number;
	/** Measured with V8's bytecode flushing off in n8n (the experiment). */
	flushingOff?: boolean;
	cycles: ProfiledCycle[];
}

/**
 * The bench's wall clock (epoch ms, as the emulator's log and n8n's
 * executions give times) on the profile's clock (the machine's monotonic
 * clock in microseconds, which process.hrtime reads too).
 */
function wallToProfileClock(): (wallMs: number) => number {
	const offsets = Array.from(
		{ length: 5 },
		() => Date.now() * 1000 - Number(process.hrtime.bigint() / 1000n),
	);
	const offset = offsets.sort((a, b) => a - b)[2];
	return (wallMs) => wallMs * 1000 - offset;
}

/** The stretches between the moments a cycle passed, cut out of its profile. */
export function cycleOf(
	profile: CpuProfile,
	moments: number[],
	toClock: (ms: number) => number,
): ProfiledCycle {
	const bounds = [...moments.map(toClock), profile.endTime];
	const windows: ProfileWindow[] = STRETCHES.map((_, index) => ({
		fromUs: bounds[index],
		toUs: bounds[index + 1],
	}));
	const summaries = summarizeWindows(profile, CYCLE_PARTS, windows);
	const wallMs = {} as Record<Stretch, number>;
	const stretches = {} as Record<Stretch, ProfileSummary>;
	STRETCHES.forEach((stretch, index) => {
		wallMs[stretch] = Math.max(0, (windows[index].toUs - windows[index].fromUs) / 1000);
		stretches[stretch] = summaries[index];
	});
	return { wallMs, profile: stretches };
}

/** How long before a tick the profiler starts: starting it takes n8n's thread a few milliseconds. */
const PROFILE_LEAD_MS = 1_000;

async function profiled<T>(
	client: InspectorClient,
	during: () => Promise<T>,
): Promise<{ result: T; profile: CpuProfile }> {
	await client.post('Profiler.start');
	let stopped = false;
	const stop = async () => {
		stopped = true;
		return (await client.post<{ profile: CpuProfile }>('Profiler.stop')).profile;
	};
	try {
		const result = await during();
		return { result, profile: await stop() };
	} finally {
		// Stopped whatever happens, so n8n is never left sampling.
		if (!stopped) await client.post('Profiler.stop').catch(() => undefined);
	}
}

async function trivialSeries(
	bench: N8nForBench,
	client: InspectorClient,
	settings: CycleProfileSettings,
): Promise<ProfiledSeries> {
	const cycles = settings.cycles;
	const cronSecond = (Math.floor(Date.now() / 1000) + 8) % 60;
	const workflowId = await bench.activate(trivialTriggerWorkflow(cronSecond));
	const series: ProfiledSeries = { label: 'trivial trigger', cycles: [] };
	let count = 0;
	try {
		while (series.cycles.length < cycles) {
			const tick = nextTickOn(cronSecond, Date.now() + PROFILE_LEAD_MS + 200);
			await sleepUntil(tick - PROFILE_LEAD_MS);
			const toClock = wallToProfileClock();
			const { profile } = await profiled(client, async () => {
				await sleepUntil(tick + QUIET_AFTER_MS);
			});
			const found = await trivialExecutionOn(bench, workflowId, tick, count);
			count = found.count;
			const { pollStartedAt } = found;
			const startedAt = Date.parse(found.execution.startedAt);
			const stoppedAt = Date.parse(found.execution.stoppedAt);
			// No request: the poll's start stands for both ends of the answer.
			series.cycles.push(
				cycleOf(profile, [tick, pollStartedAt, pollStartedAt, startedAt, stoppedAt], toClock),
			);
			console.log(`profile trivial trigger: cycle ${series.cycles.length} of ${cycles}`);
		}
	} finally {
		await bench.deactivate(workflowId);
	}
	return series;
}

async function oursSeries(
	emulator: EmulatorProcess,
	bench: N8nForBench,
	client: InspectorClient,
	size: number,
	settings: CycleProfileSettings,
	flushingOff = false,
): Promise<ProfiledSeries> {
	await emulator.fillForm(size);
	await emulator.control('DELETE', '/requests');
	const cronSecond = (Math.floor(Date.now() / 1000) + 25) % 60;
	const workflowId = await bench.activate(triggerWorkflow(bench.credential, { cronSecond }));
	const series: ProfiledSeries = {
		label: `${OURS} at ${size.toLocaleString('en')}${flushingOff ? ", V8's bytecode flushing off" : ''}`,
		size,
		flushingOff,
		cycles: [],
	};
	try {
		await waitForInquiryRequests(emulator, 1, 150_000); // the first poll: the baseline
		for (let cycle = 1; cycle <= settings.cycles; cycle++) {
			const { tick } = await prepareOurCycle(emulator, cronSecond, settings.newPerCycle, {
				leadMs: PROFILE_LEAD_MS,
				what: `profile at ${size}: cycle ${cycle}`,
			});
			await sleepUntil(tick - PROFILE_LEAD_MS);
			const toClock = wallToProfileClock();
			const { result: request, profile } = await profiled(client, async () => {
				const [logged] = await waitForInquiryRequests(emulator, 1, 150_000);
				await sleepUntil((logged.finishedAt ?? logged.receivedAt) + QUIET_AFTER_MS);
				return logged;
			});
			const execution = await bench.waitForExecution(workflowId, cycle, 120_000);
			if (!execution) throw new Error(`profile at ${size}: no execution after poll ${cycle + 1}`);
			series.cycles.push(
				cycleOf(
					profile,
					[
						tick,
						request.receivedAt,
						request.finishedAt ?? request.receivedAt,
						Date.parse(execution.startedAt),
						Date.parse(execution.stoppedAt),
					],
					toClock,
				),
			);
			console.log(`profile ${series.label}: cycle ${cycle} of ${settings.cycles}`);
		}
	} finally {
		await bench.deactivate(workflowId);
	}
	return series;
}

/** The trivial trigger's cycles, then ours at each size, each cycle profiled in n8n (started with an inspector on `inspectPort`). */
export async function profileCycles(
	emulator: EmulatorProcess,
	bench: N8nForBench,
	inspectPort: number,
	settings: CycleProfileSettings,
): Promise<ProfiledSeries[]> {
	const client = await InspectorClient.connect(await inspectorTarget(inspectPort));
	try {
		await client.post('Profiler.enable');
		await client.post('Profiler.setSamplingInterval', { interval: settings.samplingIntervalUs });
		const series = [await trivialSeries(bench, client, settings)];
		for (const size of settings.sizes)
			series.push(await oursSeries(emulator, bench, client, size, settings));
		if (settings.flushingOffAt !== undefined) {
			// n8n's process is not started with V8 flags (NODE_OPTIONS refuses them): set from inside it, after every other series.
			await client.post('Runtime.evaluate', {
				expression: "process.mainModule.require('v8').setFlagsFromString('--no-flush-bytecode')",
			});
			series.push(
				await oursSeries(emulator, bench, client, settings.flushingOffAt, settings, true),
			);
		}
		return series;
	} finally {
		await client.post('Profiler.disable').catch(() => undefined);
		client.close();
	}
}

/** `--only=cycleProfile`: the cycles profiled, in an n8n of their own started with an inspector. */
export async function measureCycleProfile(
	emulator: EmulatorProcess,
	settings: CycleProfileSettings,
): Promise<ProfiledSeries[]> {
	const inspectPort = await freePort();
	const bench = await N8nForBench.start(emulator.webUrl, {}, { inspectPort });
	try {
		return await profileCycles(emulator, bench, inspectPort, settings);
	} finally {
		await bench.stop();
	}
}

/** Per cycle: the mean over a series' cycles. */
function meanOf(cycles: ProfiledCycle[], value: (cycle: ProfiledCycle) => number): number {
	return cycles.reduce((sum, cycle) => sum + value(cycle), 0) / Math.max(1, cycles.length);
}

const partMs = (summary: ProfileSummary, name: string) =>
	summary.parts.find((part) => part.name === name)?.ms ?? 0;

const fixed = (value: number) => (value >= 10 ? value.toFixed(0) : value.toFixed(1));

/** One series' table: a row per part that took time somewhere, a column per stretch. */
export function seriesTable(series: ProfiledSeries): string {
	const stretches =
		series.size === undefined
			? STRETCHES.filter((stretch) => stretch !== 'request to last byte')
			: [...STRETCHES];
	const cell = (value: (cycle: ProfiledCycle) => number) => fixed(meanOf(series.cycles, value));
	const rows = PART_NAMES.filter((name) =>
		stretches.some(
			(stretch) => meanOf(series.cycles, (cycle) => partMs(cycle.profile[stretch], name)) >= 0.05,
		),
	).map(
		(name) =>
			`| ${name} | ${stretches.map((stretch) => cell((cycle) => partMs(cycle.profile[stretch], name))).join(' | ')} |`,
	);
	const heading = (stretch: Stretch) =>
		series.size === undefined && stretch === 'cron tick to request'
			? 'cron tick to the poll'
			: series.size === undefined && stretch === 'last byte to execution start'
				? 'the poll to execution start'
				: stretch;
	return `| ${series.label} (ms per cycle) | ${stretches.map(heading).join(' | ')} |
| --- | ${stretches.map(() => '---').join(' | ')} |
${rows.join('\n')}
| **busy** | ${stretches.map((stretch) => `**${cell((cycle) => cycle.profile[stretch].busyMs)}**`).join(' | ')} |
| idle (n8n waiting) | ${stretches.map((stretch) => cell((cycle) => cycle.profile[stretch].idleMs)).join(' | ')} |
| the stretch, wall clock | ${stretches.map((stretch) => cell((cycle) => cycle.wallMs[stretch])).join(' | ')} |`;
}

/** The parts that took the most of a stretch, as "name 12.3 ms". */
function largest(series: ProfiledSeries, stretch: Stretch, count: number): string {
	return PART_NAMES.map((name) => ({
		name,
		ms: meanOf(series.cycles, (cycle) => partMs(cycle.profile[stretch], name)),
	}))
		.sort((a, b) => b.ms - a.ms)
		.slice(0, count)
		.filter((part) => part.ms >= 0.05)
		.map((part) => `${part.name} ${fixed(part.ms)} ms`)
		.join('; ');
}

export const CYCLE_PROFILE_HEADING = "## Where a poll cycle's time goes in n8n";

/** What the profile showed, and what was cut for it (from the profiled runs when it was written). */
const FINDINGS = `What the profile showed, and what was cut:

- Before the request most of the time is n8n's own: at each tick it works out
  the cron's next date (luxon) and sets up an expression isolate
  (isolated-vm) for the poll, as it does for the trivial trigger. Ours' own
  work there was about 8 ms a cycle at 1,000 (3 cycles), 4.4 ms of it a
  fingerprint of the whole saved position (the 41 KB cursor written out with
  its keys sorted, then hashed) made on every poll, though only a poll under
  n8n's durable poll cursors (off unless set) uses it: it is now made only
  then. Reading the settings took eight copies of the node (n8n's
  \`getNode()\` copies it on every call): now one. What is left before the
  request is needed for this poll: the settings, the credential, reading and
  checking the saved position, and from it which records the scan keeps.
- After the last byte: the scan still reading the bytes the kernel held
  (the emulator's log says the last byte left it before the trigger read
  it), the cursor's plan, flattening the 10 it emits, then n8n saving the
  static data and starting the execution. The plan made a map of the latest
  listing of every inquiry of the answer, though only those after its floor
  can be new: it now gathers only those (a key's latest time is its
  greatest, so a listing at or before the floor decides nothing), and the
  cursor's share of a cycle fell from 104 to 22 ms at 100,000 and from 32 to
  11 ms at 10,000 (the profiles before and after, same machine). A log
  context (one more copy of the node) was built on every poll where only a
  failure logs it: now only then. The scan copies no record's bytes but
  those of records the cursor may emit.
- While the answer arrives, at 10,000 and 100,000, nearly all of n8n's time
  is the scan reading every byte, with Node's socket reads and the garbage
  collection of the chunks: n8n reads the answer on one thread, more slowly
  than the bare transfer reads it. What the scan costs against the least a
  JavaScript reader that follows JSON's structure does with the same bytes
  is measured in [Reading a compressed answer](#reading-a-compressed-answer).
  Finding a string's end with \`Buffer.indexOf\` or on a latin1 string did
  not make it faster on these answers (most of whose bytes are a JSON text
  inside a string, with an escaped quote every few bytes). What did: a
  record that lies whole in one chunk is read in one loop with its state in
  local variables (nodes/shared/jsonStream/wholeElement.ts); at 100,000 the
  reading fell from about 1,300 to 788 ms of n8n's busy time a cycle (two
  profiles on this machine, a day apart).
- The same work takes very different times from one cycle to the next (the
  cycle-by-cycle table above): the slow cycles mostly meet other processes
  busy on the machine's cores, and in them n8n also spends more CPU on the
  same work, as code does that runs cold. The trigger runs once a minute; V8
  may drop its compiled code in between (bytecode flushing), and then a poll
  runs its scan and cursor interpreted and compiles them again as it goes.
  The last table tests that: of three profiled runs while this section was
  written, in two the trigger's own code at 10,000 ran 1.5 to 3 times faster
  with flushing off, in one it made no difference. So cold code is one cause
  some of the time, the machine's load another; which minute meets which is
  why runs disagree on the same figure. The package
  does not change V8's settings in n8n's process, nor keep a timer running
  to keep its code warm.`;

export function cycleProfileSection(
	series: ProfiledSeries[],
	settings: CycleProfileSettings,
): string {
	const ours = series.filter((one) => one.size !== undefined && !one.flushingOff);
	const smallest = ours[0];
	const biggest = ours[ours.length - 1];
	const flushingOff = series.find((one) => one.flushingOff);
	const asRun = flushingOff && ours.find((one) => one.size === flushingOff.size);
	const ourParts = [READING, REQUEST, CURSOR, FLATTENING, SAVED, OURS_OTHER];
	const requestToStart = (one: ProfiledSeries) =>
		one.cycles
			.map((cycle) =>
				Math.round(
					cycle.wallMs['request to last byte'] + cycle.wallMs['last byte to execution start'],
				),
			)
			.join(', ');
	const oursBusy = (one: ProfiledSeries) =>
		fixed(
			meanOf(one.cycles, (cycle) =>
				STRETCHES.reduce(
					(sum, stretch) =>
						sum + ourParts.reduce((inner, name) => inner + partMs(cycle.profile[stretch], name), 0),
					0,
				),
			),
		);
	const flushLine =
		flushingOff && asRun
			? `With V8's bytecode flushing off in n8n's process (the last table: an experiment, set from inside n8n through the inspector after every other series; n8n does not run so): at ${flushingOff.size?.toLocaleString('en')}, from the request to the execution start, cycle by cycle, ${requestToStart(flushingOff)} ms, against ${requestToStart(asRun)} ms as n8n runs; the trigger's own code busy ${oursBusy(flushingOff)} ms a cycle against ${oursBusy(asRun)} ms, for the same answer and the same work.`
			: undefined;
	const gcShare = (one: ProfiledSeries) => {
		const busy = meanOf(one.cycles, (cycle) =>
			STRETCHES.reduce((sum, stretch) => sum + cycle.profile[stretch].busyMs, 0),
		);
		const gc = meanOf(one.cycles, (cycle) =>
			STRETCHES.reduce(
				(sum, stretch) => sum + partMs(cycle.profile[stretch], 'garbage collection'),
				0,
			),
		);
		return busy > 0 ? gc / busy : 0;
	};
	const summary = [
		smallest &&
			`Before the request, at ${smallest.size?.toLocaleString('en')}: ${largest(smallest, 'cron tick to request', 4)}.`,
		smallest &&
			`After the last byte, at ${smallest.size?.toLocaleString('en')}: ${largest(smallest, 'last byte to execution start', 4)}.`,
		biggest &&
			`While the answer arrives, at ${biggest.size?.toLocaleString('en')}: ${largest(biggest, 'request to last byte', 4)}; n8n idle ${fixed(meanOf(biggest.cycles, (cycle) => cycle.profile['request to last byte'].idleMs))} ms of ${fixed(meanOf(biggest.cycles, (cycle) => cycle.wallMs['request to last byte']))} ms.`,
		flushLine,
		`Garbage collection, of a cycle's busy time: ${series.map((one) => `${(gcShare(one) * 100).toFixed(0)}% (${one.label})`).join(', ')}.`,
	].filter(Boolean);
	return `${CYCLE_PROFILE_HEADING}

The same cycles as above, in an n8n of their own started with an inspector
(\`--inspect\`, \`npm run bench -- --only=cycleProfile\`, so no other figure is
taken with it on): V8's sampling profiler (a sample every ${settings.samplingIntervalUs} µs) runs in
n8n's main process from a second before each cycle's tick until a second after
its answer's last byte; ${settings.cycles} cycles of the trivial trigger, then ${settings.cycles} of ours at each
size, ${settings.newPerCycle} new inquiries before each. Every sample is charged to the innermost
frame of a named part (\`bench/sections/cycleProfile.ts\`: the package's files by
folder, n8n's and Node's by module), and to the stretch of the cycle it was
taken in (the emulator's log gives the request and its last byte, n8n's
execution its start and end). Figures are milliseconds per cycle, the mean of
the cycles; *busy* is n8n's main thread running, *idle* is it waiting (for the
answer's bytes, the database's own thread, or a core: ${cpus().length} cores are shared with the
emulator and other processes). The profiler slows n8n a little, so the wall
times here run above those of the sections before; the split holds.

${series.map(seriesTable).join('\n\n')}

${summary.map((line) => `- ${line}`).join('\n')}

${FINDINGS}
`;
}
