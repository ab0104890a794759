/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports, no-console -- n8n Cloud's limits are for nodes; this runs on Node itself (process, the inspector); it prints its figures */
/**
 * "One poll of a small form, many times": the everyday poll at a small
 * form, where a poll's fixed cost shows: many
 * polls against the fetch-and-parse floor, each side's median and spread,
 * and a profile of where a poll's time goes. One poll is the App Builder
 * Trigger run by n8n-core's PollContext in this process, as in "One poll
 * against the physical floor"; V8's sampling profiler runs only while a
 * poll does, and its samples are charged to the part of the code that spent
 * them (cpuProfile.ts).
 */
import { Session } from 'node:inspector/promises';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

import {
	summarizeProfile,
	type CpuProfile,
	type PartTime,
	type ProfilePart,
} from '../lib/cpuProfile';
import type { EmulatorProcess } from '../lib/emulatorProcess';
import { TriggerPoller } from '../lib/triggerPoller';
import { quantile } from '../lib/median';
import { cpuMsPerPoll, type ScaleResult } from './triggersPerMain';

export interface ManyPollsSettings {
	/** Inquiries the form keeps. */
	size: number;
	/** Rounds timed, and polls profiled after them. */
	rounds: number;
	profiled: number;
	newPerPoll: number;
}

export const MANY_POLLS: Record<'full' | 'smoke', ManyPollsSettings> = {
	full: { size: 1_000, rounds: 101, profiled: 60, newPerPoll: 10 },
	smoke: { size: 300, rounds: 5, profiled: 5, newPerPoll: 10 },
};

const inPackage = (url: string, ...paths: string[]) =>
	paths.some((path) => url.includes(`/nodes/${path}`));
/** A part of the package's own code: its files, by path under nodes/ (a folder ends with "/"). */
const packagePart = (name: string, ...paths: string[]): ProfilePart => ({
	name,
	packagePaths: paths,
	matches: (url) => inPackage(url, ...paths),
});

/**
 * The guards of the hardening, each a part of its own so the profile says
 * what each costs a poll: the bounds every answer is read within, the gate
 * and retry policy every request passes, the checks of what came back.
 */
export const GUARD_PARTS: ProfilePart[] = [
	packagePart(
		'answer bounds: deadline and byte count on every chunk (answerReading.ts)',
		'shared/http/answerReading',
		'shared/http/answerLimits',
	),
	packagePart(
		'request gate and retry policy (requestGate.ts, retryPolicy.ts, retryAfter.ts)',
		'shared/http/requestGate',
		'shared/http/retryPolicy',
		'shared/http/retryAfter',
	),
	packagePart(
		'redirect, network failure and content coding checks',
		'shared/http/redirectTarget',
		'shared/http/networkFailure',
		'shared/http/contentCoding',
		'shared/http/headerValue',
	),
	packagePart(
		'reading the answer for errors (streamedOutcome.ts, interpretResponse.ts)',
		'AppBuilder/transport/streamedOutcome',
		'AppBuilder/transport/interpretResponse',
		'AppBuilder/transport/webServiceError',
		'AppBuilder/transport/errorCatalog',
	),
	packagePart(
		'records that are not JSON, and the record bound (readInquiryStream.ts)',
		'AppBuilder/inquiries/readInquiryStream',
	),
];

/** Stopping the profiler hands the profile over; its samples are the measurement's, not the poll's. */
const PROFILER = 'the profiler handing its samples over';

/** The parts of a poll, most specific first: a frame counts for the first part it matches. */
export const POLL_PARTS: ProfilePart[] = [
	{
		name: PROFILER,
		matches: (url) => url === 'node:inspector' || url.startsWith('node:internal/inspector'),
	},
	packagePart('reading the answer as it arrives (the JSON scan)', 'shared/jsonStream/'),
	...GUARD_PARTS,
	packagePart(
		'identity and time of each record',
		'AppBuilder/trigger/events/identity',
		'AppBuilder/inquiries/timestamps',
	),
	packagePart(
		'keeping the records the cursor may emit',
		'AppBuilder/trigger/events/inquiryList',
		'AppBuilder/trigger/events/latestListings',
	),
	packagePart(
		'the cursor: what is new, the state to save',
		'AppBuilder/trigger/events/inquiryEvent',
		'AppBuilder/trigger/cursor/',
	),
	packagePart(
		'flattening what it emits',
		'AppBuilder/inquiries/flatten',
		'AppBuilder/inquiries/inquiryItem',
		'AppBuilder/inquiries/submittedFields',
		'AppBuilder/inquiries/unreadableInquiry',
	),
	packagePart(
		"the trigger's other steps (the request's options, the saved position)",
		'AppBuilder/',
		'shared/',
	),
	{
		name: "HTTP: n8n's request helper (axios) and Node's sockets and streams",
		matches: (url) =>
			/node_modules\/(?:axios|@n8n\/backend-network|follow-redirects|form-data|proxy-from-env)\//.test(
				url,
			) ||
			/^node:(?:_http|net|stream|zlib|internal\/(?:streams|stream_base_commons|http))/.test(url),
	},
	{
		name: "n8n's poll context (parameters, credentials)",
		matches: (url) => /node_modules\/(?:n8n-core|n8n-workflow|@n8n)\//.test(url),
	},
	{
		name: 'the static data copied out, as n8n saves it (the harness)',
		matches: (url) => url.includes('/test/harness/'),
	},
];

export interface ManyPolls {
	size: number;
	bodyBytes: number;
	/** Per round, in the order measured. */
	floorMs: number[];
	oursMs: number[];
	/** Polls right after a full garbage collection of the process, and as many without, in turn. */
	afterCollection: { collectedMs: number[]; warmMs: number[] };
}

export interface PollProfile {
	polls: number;
	/** Busy time per poll (idle time, waiting for the answer's bytes, left out). */
	busyMsPerPoll: number;
	parts: PartTime[];
}

const now = () => Number(process.hrtime.bigint()) / 1e6;

/**
 * The next round's form: 10 new inquiries in, the oldest out to keep its
 * size, and one untimed fetch that has the emulator build the answer, so
 * whatever is timed next is served alike. Returns the answer's bytes.
 */
async function nextRound(
	emulator: EmulatorProcess,
	size: number,
	newPerPoll: number,
): Promise<number> {
	await emulator.addNew(newPerPoll);
	await emulator.trimForm(size);
	return (await emulator.fetchAndParse()).bytes;
}

/** One poll, timed; it must emit exactly the round's new inquiries. */
async function timedPoll(poller: TriggerPoller, newPerPoll: number): Promise<number> {
	const start = now();
	const emitted = await poller.poll();
	const ms = now() - start;
	if (emitted !== newPerPoll) throw new Error(`poll emitted ${emitted}, expected ${newPerPoll}`);
	return ms;
}

/**
 * A form that keeps `size` inquiries: before each round 10 new ones arrive
 * and the 10 oldest go. Each round fetches and parses the answer (the floor)
 * and runs one poll, in alternating order so neither always goes first; one
 * untimed fetch before them has the emulator build the round's answer, so
 * both are served the same way.
 */
export async function measureManyPolls(
	emulator: EmulatorProcess,
	size: number,
	rounds: number,
	newPerPoll: number,
): Promise<ManyPolls> {
	await emulator.fillForm(size);
	const poller = new TriggerPoller(emulator.webUrl);
	await poller.poll(); // the first poll: the baseline
	const result: ManyPolls = {
		size,
		bodyBytes: 0,
		floorMs: [],
		oursMs: [],
		afterCollection: { collectedMs: [], warmMs: [] },
	};
	// A few untimed rounds first, so both sides run warm.
	for (let round = -3; round < rounds; round++) {
		result.bodyBytes = await nextRound(emulator, size, newPerPoll);
		let floorMs = 0;
		let oursMs = 0;
		const floor = async () => {
			const start = now();
			await emulator.fetchAndParse();
			floorMs = now() - start;
		};
		const ours = async () => {
			oursMs = await timedPoll(poller, newPerPoll);
		};
		if (round % 2 === 0) {
			await floor();
			await ours();
		} else {
			await ours();
			await floor();
		}
		if (round < 0) continue;
		result.floorMs.push(floorMs);
		result.oursMs.push(oursMs);
	}
	result.afterCollection = await pollsAfterCollection(
		emulator,
		poller,
		size,
		Math.ceil(rounds / 5),
		newPerPoll,
	);
	return result;
}

/** V8's gc(), exposed to this process from here on. */
function fullCollection(): () => void {
	setFlagsFromString('--expose-gc');
	return runInNewContext('gc') as () => void;
}

/**
 * In n8n a trigger polls a minute apart and n8n's heap is collected whole in
 * between. V8 then drops optimized code whose hidden classes the collection
 * freed, so a poll can start cold. `pairs` polls right after a full
 * collection of this process, each with one without it, in turn.
 */
async function pollsAfterCollection(
	emulator: EmulatorProcess,
	poller: TriggerPoller,
	size: number,
	pairs: number,
	newPerPoll: number,
): Promise<ManyPolls['afterCollection']> {
	const collect = fullCollection();
	const times = { collectedMs: [] as number[], warmMs: [] as number[] };
	for (let round = 0; round < pairs * 2; round++) {
		await nextRound(emulator, size, newPerPoll);
		const collected = round % 2 === 0;
		if (collected) collect();
		(collected ? times.collectedMs : times.warmMs).push(await timedPoll(poller, newPerPoll));
	}
	return times;
}

/** Where the time of `polls` everyday polls goes, each profiled alone (the rounds' preparation is not sampled). */
export async function profilePolls(
	emulator: EmulatorProcess,
	size: number,
	polls: number,
	newPerPoll: number,
): Promise<PollProfile> {
	await emulator.fillForm(size);
	const poller = new TriggerPoller(emulator.webUrl);
	await poller.poll();
	const session = new Session();
	session.connect();
	try {
		await session.post('Profiler.enable');
		await session.post('Profiler.setSamplingInterval', { interval: 250 });
		const totals = new Map<string, number>();
		let busyMs = 0;
		for (let round = -3; round < polls; round++) {
			await nextRound(emulator, size, newPerPoll);
			await session.post('Profiler.start');
			await poller.poll();
			const { profile } = await session.post('Profiler.stop');
			if (round < 0) continue;
			const summary = summarizeProfile(profile as CpuProfile, POLL_PARTS);
			for (const part of summary.parts) {
				if (part.name === PROFILER) continue;
				totals.set(part.name, (totals.get(part.name) ?? 0) + part.ms);
				busyMs += part.ms;
			}
		}
		const names = [
			...POLL_PARTS.map((part) => part.name).filter((name) => name !== PROFILER),
			'garbage collection',
			'other',
		];
		const parts = names.map((name) => ({
			name,
			ms: (totals.get(name) ?? 0) / polls,
			share: busyMs > 0 ? (totals.get(name) ?? 0) / busyMs : 0,
		}));
		return { polls, busyMsPerPoll: busyMs / polls, parts };
	} finally {
		await session.post('Profiler.disable').catch(() => undefined);
		session.disconnect();
	}
}

/** The rounds timed against the floor, then the polls profiled. */
export async function runManyPolls(
	emulator: EmulatorProcess,
	settings: ManyPollsSettings,
): Promise<{ many: ManyPolls; profile: PollProfile }> {
	const many = await measureManyPolls(
		emulator,
		settings.size,
		settings.rounds,
		settings.newPerPoll,
	);
	const profile = await profilePolls(
		emulator,
		settings.size,
		settings.profiled,
		settings.newPerPoll,
	);
	console.log(
		`polls  ${settings.size} inquiries, ${settings.rounds} rounds: ${manyPollsTargetRow(many)}; profiled ${profile.busyMsPerPoll.toFixed(1)} ms busy a poll`,
	);
	return { many, profile };
}

/**
 * What a poll cycle of ours costs n8n's CPU on a form of `size` (or the
 * smallest form measured), with compression off, from "Triggers per n8n
 * main": over the window that confirmed its K (what K triggers pay), else
 * the largest that passed.
 */
export function cycleCostInN8n(
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

/** The target: the median everyday poll at most this much of the median fetch-and-parse floor. */
export const SMALL_FORM_TARGET = 1.5;

export function manyPollsRatio(many: ManyPolls): number {
	return quantile(many.oursMs, 0.5) / quantile(many.floorMs, 0.5);
}

export function manyPollsTargetRow(many: ManyPolls): string {
	const ratio = manyPollsRatio(many);
	const perRound = many.oursMs.map((ours, index) => ours / many.floorMs[index]);
	return `| One poll against the floor at ${many.size.toLocaleString('en')}, the median of ${many.oursMs.length} polls | at most ${SMALL_FORM_TARGET}x | ${ratio.toFixed(2)}x (poll by poll: ${quantile(perRound, 0.1).toFixed(2)}x to ${quantile(perRound, 0.9).toFixed(2)}x, 10th to 90th percentile) | ${ratio <= SMALL_FORM_TARGET ? 'met' : '**not met**'} |`;
}

const spread = (values: number[]) =>
	`${quantile(values, 0.5).toFixed(0)} ms (${quantile(values, 0.1).toFixed(0)} to ${quantile(values, 0.9).toFixed(0)})`;

/**
 * `cycleInN8n`: what a poll cycle of ours at this size costs n8n's CPU, from
 * the scaling section's smallest window (n8n's CPU less its idle CPU, per poll).
 */
export function manyPollsSection(
	many: ManyPolls,
	profile: PollProfile,
	cycleInN8n?: { cpuMs: number; k: number },
): string {
	const perRound = many.oursMs.map((ours, index) => ours / many.floorMs[index]);
	const guardNames = new Set(GUARD_PARTS.map((part) => part.name));
	const partRows = profile.parts
		.filter((part) => !guardNames.has(part.name))
		.map(
			(part) => `| ${part.name} | ${part.ms.toFixed(2)} ms | ${(part.share * 100).toFixed(1)}% |`,
		);
	const guardRows = profile.parts
		.filter((part) => guardNames.has(part.name))
		.map(
			(part) =>
				`| ${part.name} | ${(part.ms * 1000).toFixed(0)} µs | ${(part.share * 100).toFixed(2)}% |`,
		);
	const cycle = cycleInN8n
		? `

In n8n, a whole poll cycle of ours at this size (the poll, n8n saving the trigger's
state, starting and saving the execution) costs n8n **${cycleInN8n.cpuMs.toFixed(0)} ms of CPU**: n8n's CPU less what it
spends idle, per poll, over the scaling section's window of ${cycleInN8n.k} triggers (below). That is what K
triggers pay K times a minute.`
		: '';
	const { collectedMs, warmMs } = many.afterCollection;
	const afterCollection =
		collectedMs.length > 0
			? `

A poll right after a full garbage collection of the process, as n8n's polls a minute
apart meet one: ${collectedMs.length} such polls and ${warmMs.length} without, in turn, ${spread(collectedMs)} against ${spread(warmMs)}
(**${(quantile(collectedMs, 0.5) / quantile(warmMs, 0.5)).toFixed(2)}x**). V8 drops the optimized code that checked a hidden class
the collection freed. A socket's chunks have a class of their own that dies
with them, so the scanner reads each chunk through a Buffer of the class every
Buffer made in JavaScript shares (\`lastingView\` in
\`nodes/shared/jsonStream/jsonStreamScanner.ts\`), and its code outlives
the collection.`
			: '';
	return `## One poll of a small form, many times

With hundreds of small forms, what a poll costs whatever the form's size is what
limits how many one n8n carries. The form keeps ${many.size.toLocaleString('en')} inquiries (${(many.bodyBytes / 1e6).toFixed(1)} MB): before each
round 10 new ones arrive and the 10 oldest go. Each round fetches and parses the
answer (the floor) and runs one poll of the trigger, in turn which goes first,
after an untimed fetch that has the emulator build the round's answer, so both
are served alike. ${many.oursMs.length} rounds; the median of each side, with the 10th to 90th
percentile in brackets:

| floor (fetch + JSON.parse) | one poll | median poll / median floor | poll / floor, round by round (10th, 50th, 90th percentile) |
| --- | --- | --- | --- |
| ${spread(many.floorMs)} | ${spread(many.oursMs)} | **${manyPollsRatio(many).toFixed(2)}x** | ${quantile(perRound, 0.1).toFixed(2)}x, ${quantile(perRound, 0.5).toFixed(2)}x, ${quantile(perRound, 0.9).toFixed(2)}x |${afterCollection}

Where a poll's time goes: ${profile.polls} more polls, each alone under V8's sampling profiler
(\`bench/sections/manyPolls.ts\`), every sample charged to the innermost frame of the
code that spent it, so Node's own work on behalf of a part (a Buffer copied for
the scan, a socket read for n8n's HTTP helper) counts for that part. Busy time per
poll: ${profile.busyMsPerPoll.toFixed(1)} ms (waiting for the answer's bytes left out; on a shared machine the
milliseconds include time the process waited for a core, the shares hold):

| part | per poll | share |
| --- | --- | --- |
${partRows.join('\n')}

What each guard of the hardening costs a poll, from the same profile (they stay on):

| guard | per poll | share |
| --- | --- | --- |
${guardRows.join('\n')}

The profile is what found the cost this section's target was missed by before:
the cursor rebuilt its record of the keys it tracks with \`Object.fromEntries\`,
which gives an object of a thousand keys a chain of a thousand hidden classes, made
anew on every poll as the keys move on (about 5 ms a poll; built by assignment it
takes a quarter of a millisecond), and it copied out the bytes of every record it
tracks instead of only the new ones the plan may emit.${cycle}
`;
}
