/* eslint-disable no-console -- it prints its progress and figures */
/**
 * "One poll cycle in n8n, against the peer workflow": one poll cycle in a
 * real n8n, ours against the peer workflow a user builds from n8n's own
 * nodes, on the same emulator data: a form of `size` inquiries, 10 new ones
 * before each cycle. Also counts what each one emitted against what was new,
 * so repeats and misses are measured. n8nFloor.ts runs these cycles with
 * n8n's own floor measured in the same minutes.
 */
import { peerPollWorkflow, triggerWorkflow } from '../lib/benchWorkflows';
import type { EmulatorProcess } from '../lib/emulatorProcess';
import { benchN8nVersion, type FinishedExecution, type N8nForBench } from '../lib/n8nForBench';
import { usageBetween, usageSnapshot, type UsageSnapshot } from '../lib/processUsage';
import { lineChart } from '../lib/svgChart';
import { sleep } from '../../test/support/sleep';
import { median } from '../lib/median';
import type { PollRow } from './onePoll';

const INQUIRIES_PATH = '/V4/webservices/FormBuilderApi.php';

export interface CycleRow {
	size: number;
	who: string;
	/** Median of the measured cycles; undefined when none finished in time. */
	cycleMs?: number;
	cycles: number;
	/** Leads emitted by the first run, before anything new arrived. */
	firstRunEmitted: number;
	/** Where ours spends a cycle (medians): the answer being served, then the poll reading it until n8n starts the execution, then the execution. */
	breakdown?: CycleBreakdown;
	/** Ours, cycle by cycle in the order measured: the same parts, and what the machine did meanwhile. */
	samples?: CycleSample[];
	/** Ours: the bytes of its answer as they crossed the socket in its transfer. */
	wireBytes?: number;
	/** Per cycle: new leads emitted, old leads emitted again, new leads missing. */
	newEmitted: number[];
	repeated: number[];
	missed: number[];
	note?: string;
}

export interface CycleSettings {
	sizes: number[];
	/** Cycles measured per form and contender after the first run; an odd number, so the median is one of them. */
	cyclesFor: (size: number, who: 'ours' | 'peer') => number;
	newPerCycle: number;
	/** How long the peer may take for one cycle before it is reported as not finishing. */
	peerTimeoutMs: number;
	/** 0: ours alone; 1: also the peer with n8n's default history; 2: also with the history raised. */
	peerVariants: 0 | 1 | 2;
}

export const CYCLES: Record<'full' | 'smoke', CycleSettings> = {
	full: {
		sizes: [1_000, 10_000, 100_000],
		// Ours polls once a minute, so each cycle costs a minute: five, for a median with a spread beside it (with
		// three, runs disagreed by up to 2x on the same figure). The peer, many times slower, three; its runs at
		// 100,000 last longer than its 2-minute schedule and n8n hands them back without their items (only their
		// time is known): one.
		cyclesFor: (size, who) => (who === 'peer' ? (size >= 100_000 ? 1 : 3) : 5),
		newPerCycle: 10,
		// The peer's first run at 100,000 did not finish in 12 minutes in earlier runs; 6 say as much and leave time for triggers per main.
		peerTimeoutMs: 4 * 60_000,
		peerVariants: 2,
	},
	smoke: {
		sizes: [300],
		cyclesFor: () => 1,
		newPerCycle: 10,
		peerTimeoutMs: 120_000,
		peerVariants: 1,
	},
};

export interface CycleBreakdown {
	/** From n8n's cron tick to the trigger's request reaching the emulator: n8n's scheduling and the trigger's setup. */
	tickToRequestMs: number;
	servedMs: number;
	pollToStartMs: number;
	executionMs: number;
	/** The whole cycle counted from the cron tick instead of the request: comparable with a trigger that sends no request. */
	fromTickMs: number;
	/** The same answer fetched bare (read as it arrives, nothing parsed) just before the cycle's tick: its transfer. */
	transferMs: number;
}

/** What the machine did while a cycle ran, from just before its tick until a second after its answer's last byte (or its poll). */
export interface MachineDuring {
	/** n8n's process and its task runners, the emulator, and every other process of the machine, in cores. */
	n8nCores: number;
	emulatorCores: number;
	othersCores: number;
}

/** n8n's major garbage collections in a cycle: those whose pause began between its tick and its execution's end. */
export interface GcDuring {
	/** NaN when n8n did not log them. */
	n8nMajorGcs: number;
}

export type CycleSample = CycleBreakdown & MachineDuring & GcDuring;

/** The processes a cycle's machine use is split by: n8n and the emulator (undefined when not started here). */
export function cycleRoots(bench: N8nForBench, emulator: EmulatorProcess): number[] | undefined {
	const [n8n, emulatorPid] = [bench.pid, emulator.pid];
	return n8n === undefined || emulatorPid === undefined ? undefined : [n8n, emulatorPid];
}

export function machineSince(before: UsageSnapshot | undefined, roots?: number[]): MachineDuring {
	if (!before || !roots)
		return { n8nCores: Number.NaN, emulatorCores: Number.NaN, othersCores: Number.NaN };
	const used = usageBetween(before, usageSnapshot(roots));
	return {
		n8nCores: used.treesCores[0],
		emulatorCores: used.treesCores[1],
		othersCores: used.othersCores,
	};
}

/** The next time n8n's cron ticks on `second` of a minute, at or after `afterMs`. */
export function nextTickOn(second: number, afterMs: number): number {
	const minute = Math.floor(afterMs / 60_000) * 60_000;
	const tick = minute + second * 1000;
	return tick >= afterMs ? tick : tick + 60_000;
}

export async function sleepUntil(atMs: number): Promise<void> {
	const wait = atMs - Date.now();
	if (wait > 0) await sleep(wait);
}

/** How long before a tick the machine is read, and how long after a cycle's last byte the benchmark first asks n8n for its execution. */
export const BEFORE_TICK_MS = 300;
export const QUIET_AFTER_MS = 1_000;
/** Ours polls on a second this far from its activation: its first poll (the baseline) and the first cycle's preparation end before it. */
const FIRST_TICK_AHEAD_S = 25;

interface LoggedRequest {
	path: string;
	headers?: Record<string, string | string[] | undefined>;
	receivedAt: number;
	finishedAt?: number;
	status?: number;
}

/** Sent by anything else in the benchmark's n8n that asks for the form's inquiries, so ours' requests are told apart from it. */
export const NOT_OURS_HEADER = 'x-bench-not-ours';

/**
 * The cron tick a poll started from. n8n schedules a poll on a whole second
 * (a fixed second of each minute); the poll starts a few milliseconds after
 * it, and a timer may fire a hair early, hence the 50 ms of slack.
 */
export function cronTick(pollStartedAt: number): number {
	return Math.floor((pollStartedAt + 50) / 1000) * 1000;
}

/** Emitted records carry requestId BULK<n>: the n-th inquiry added since the form was filled. */
function bulkSequence(item: { json: Record<string, unknown> }): number {
	return Number(String(item.json.requestId ?? '').replace(/^BULK/, ''));
}

/**
 * The error an execution ended with: n8n keeps it on the workflow, or only on
 * the node that failed; for a very large execution the data can come back
 * without it, and then n8n's log says it.
 */
function errorOf(execution: FinishedExecution, bench: N8nForBench): string {
	const result = execution.data?.resultData;
	const nodeError = Object.values(result?.runData ?? {})
		.flat()
		.map((run) => (run as { error?: { message?: string } }).error?.message)
		.find(Boolean);
	return result?.error?.message ?? nodeError ?? `(from n8n's log) ${bench.lastWords()}`;
}

function outputOf(execution: FinishedExecution | undefined, nodeName: string) {
	return execution?.data?.resultData.runData[nodeName]?.[0]?.data?.main?.[0] ?? [];
}

/** Splits what a cycle emitted into the leads new in it, old ones again, and new ones missing. */
function judge(
	emitted: Array<{ json: Record<string, unknown> }>,
	firstNew: number,
	newPerCycle: number,
) {
	const sequences = emitted.map(bulkSequence);
	const isNew = (sequence: number) => sequence >= firstNew && sequence < firstNew + newPerCycle;
	const newOnes = new Set(sequences.filter(isNew));
	// Everything else emitted is a lead already delivered: an old one, or a new one twice.
	return {
		newEmitted: newOnes.size,
		repeated: sequences.length - newOnes.size,
		missed: newPerCycle - newOnes.size,
	};
}

async function inquiryRequests(emulator: EmulatorProcess): Promise<LoggedRequest[]> {
	const requests = (await emulator.control('GET', '/requests')) as LoggedRequest[];
	return requests.filter(
		(request) =>
			request.path === INQUIRIES_PATH &&
			request.finishedAt !== undefined &&
			request.headers?.[NOT_OURS_HEADER] === undefined,
	);
}

export async function waitForInquiryRequests(
	emulator: EmulatorProcess,
	count: number,
	timeoutMs: number,
): Promise<LoggedRequest[]> {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		const requests = await inquiryRequests(emulator);
		if (requests.length >= count) return requests;
		if (Date.now() > deadline) throw new Error(`the trigger did not poll ${count} times in time`);
		await sleep(250);
	}
}

/** The tick ours' next cycle is prepared for: far enough away that preparing it (two fetches of 190 MB at 100,000) fits before. */
function oursNextTick(cronSecond: number): number {
	return nextTickOn(cronSecond, Date.now() + 3_000);
}

/** A cycle of ours, prepared: its tick, and its answer's transfer measured just before it. */
export interface PreparedCycle {
	tick: number;
	transfer: { ms: number; wireBytes: number };
}

/**
 * The next cycle of ours on `cronSecond`, prepared: `newPerCycle` new
 * inquiries, one untimed fetch (so the emulator serves the cycle's answer
 * from the body it keeps, as it serves the transfer), then the transfer
 * itself: the answer this cycle reads, fetched bare in the same minute, so
 * the floor moves with the emulator's and the machine's speed at the time,
 * as ours does. The request log is cleared; throws when preparing ran into
 * the `leadMs` before the tick.
 */
export async function prepareOurCycle(
	emulator: EmulatorProcess,
	cronSecond: number,
	newPerCycle: number,
	{ leadMs, what }: { leadMs: number; what: string },
): Promise<PreparedCycle> {
	const tick = oursNextTick(cronSecond);
	await emulator.addNew(newPerCycle);
	await emulator.transfer();
	const { ms, wireBytes } = await emulator.transfer();
	await emulator.control('DELETE', '/requests');
	if (Date.now() > tick - leadMs) throw new Error(`${what} was not prepared before its tick`);
	return { tick, transfer: { ms, wireBytes } };
}

/**
 * Ours: the trigger polls once a minute (n8n's shortest), on a second chosen
 * here; a cycle runs from its request to the end of the execution. Between
 * cycles the benchmark prepares the next one (10 new inquiries, and one
 * untimed fetch, so the emulator serves the cycle's answer from the body it
 * keeps, as it serves the transfer), then leaves n8n alone: it reads the
 * machine just before the tick, watches only the emulator's log while the
 * cycle runs, and asks n8n for the execution a second after the last byte.
 * `alongside`, when given, runs in the same minutes, told ours' cron second
 * and its first tick.
 */
async function measureOurs(
	emulator: EmulatorProcess,
	bench: N8nForBench,
	size: number,
	settings: CycleSettings,
	alongside?: AlongsideOurs,
): Promise<CycleRow> {
	await emulator.fillForm(size);
	await emulator.control('DELETE', '/requests');
	const cronSecond = (Math.floor(Date.now() / 1000) + FIRST_TICK_AHEAD_S) % 60;
	const workflowId = await bench.activate(triggerWorkflow(bench.credential, { cronSecond }));
	const roots = cycleRoots(bench, emulator);
	const row: CycleRow = {
		size,
		who: OURS,
		cycles: 0,
		firstRunEmitted: 0,
		newEmitted: [],
		repeated: [],
		missed: [],
	};
	const times: number[] = [];
	const parts: CycleSample[] = [];
	// Settled at once, so a failure alongside waits for ours' cycles and is then reported, not left unhandled.
	const besides = alongside?.(size, cronSecond, oursNextTick(cronSecond)).then(
		() => undefined,
		(error: unknown) => ({ error }),
	);
	try {
		await waitForInquiryRequests(emulator, 1, 150_000); // the first poll: the baseline
		for (let cycle = 1; cycle <= settings.cyclesFor(size, 'ours'); cycle++) {
			const { tick, transfer } = await prepareOurCycle(emulator, cronSecond, settings.newPerCycle, {
				leadMs: BEFORE_TICK_MS,
				what: `ours at ${size}: cycle ${cycle}`,
			});
			row.wireBytes = transfer.wireBytes;
			await sleepUntil(tick - BEFORE_TICK_MS);
			const before = roots && usageSnapshot(roots);
			const [request] = await waitForInquiryRequests(emulator, 1, 150_000);
			const lastByte = request.finishedAt ?? request.receivedAt;
			await sleepUntil(lastByte + QUIET_AFTER_MS);
			const machine = machineSince(before, roots);
			const execution = await bench.waitForExecution(workflowId, cycle, 120_000);
			if (!execution) throw new Error(`ours at ${size}: no execution after poll ${cycle + 1}`);
			times.push(Date.parse(execution.stoppedAt) - request.receivedAt);
			parts.push({
				tickToRequestMs: request.receivedAt - tick,
				servedMs: lastByte - request.receivedAt,
				pollToStartMs: Date.parse(execution.startedAt) - lastByte,
				executionMs: Date.parse(execution.stoppedAt) - Date.parse(execution.startedAt),
				fromTickMs: Date.parse(execution.stoppedAt) - tick,
				transferMs: transfer.ms,
				...machine,
				n8nMajorGcs: bench.majorGcsBetween(tick, Date.parse(execution.stoppedAt)),
			});
			const verdict = judge(
				outputOf(execution, 'New Inquiry'),
				size + (cycle - 1) * settings.newPerCycle,
				settings.newPerCycle,
			);
			row.newEmitted.push(verdict.newEmitted);
			row.repeated.push(verdict.repeated);
			row.missed.push(verdict.missed);
		}
		const failed = await besides;
		if (failed) throw failed.error;
	} finally {
		await besides;
		await bench.deactivate(workflowId);
	}
	row.cycles = times.length;
	row.cycleMs = median(times);
	row.samples = parts;
	const medianOf = (key: keyof CycleBreakdown) => median(parts.map((part) => part[key]));
	row.breakdown = {
		tickToRequestMs: medianOf('tickToRequestMs'),
		servedMs: medianOf('servedMs'),
		pollToStartMs: medianOf('pollToStartMs'),
		executionMs: medianOf('executionMs'),
		fromTickMs: medianOf('fromTickMs'),
		transferMs: medianOf('transferMs'),
	};
	return row;
}

/**
 * The peer on a Schedule Trigger. Its first run finds every lead new (the
 * dedup history is empty); after each run 10 new leads arrive before the next.
 * A cycle runs from the schedule's tick (a whole multiple of its interval) to
 * the end of the execution, as ours runs from its request.
 */
export async function measurePeer(
	emulator: EmulatorProcess,
	bench: N8nForBench,
	size: number,
	settings: CycleSettings,
	historySize?: number,
): Promise<CycleRow> {
	await emulator.fillForm(size);
	const everySeconds = size >= 100_000 ? 120 : 20;
	const workflowId = await bench.activate(
		peerPollWorkflow(bench.credential, emulator.webUrl, everySeconds, historySize),
	);
	const who = peerLabel(historySize);
	const row: CycleRow = {
		size,
		who,
		cycles: 0,
		firstRunEmitted: 0,
		newEmitted: [],
		repeated: [],
		missed: [],
	};
	const times: number[] = [];
	const timeout = settings.peerTimeoutMs + everySeconds * 1000;
	try {
		const first = await bench
			.waitForExecution(workflowId, 1, timeout)
			.catch(async (error: unknown) => {
				if (!(await bench.stopped())) throw error;
				row.note = `n8n itself stopped during the first run: ${bench.lastWords()}`;
				await bench.restartWithout(workflowId);
				return undefined;
			});
		if (row.note) return row;
		if (!first || first.status !== 'success') {
			row.note = first
				? `its first run ended with status ${first.status}: ${errorOf(first, bench)}`
				: `its first run did not finish in ${timeout / 60_000} min; n8n's log: ${bench.lastWords()}`;
			return row;
		}
		// n8n can hand back a very large execution without its node data; then what it emitted is not known.
		const unreadable = (execution: FinishedExecution) =>
			outputOf(execution, 'Get Inquiries').length === 0;
		const UNREADABLE =
			'n8n returned the execution without its node data (too large), so what it emitted is not known';
		if (unreadable(first)) row.note = UNREADABLE;
		row.firstRunEmitted = outputOf(first, 'Remove Duplicates').length;
		for (let cycle = 1; cycle <= settings.cyclesFor(size, 'peer'); cycle++) {
			await emulator.addNew(settings.newPerCycle);
			const execution = await bench.waitForExecution(workflowId, cycle + 1, timeout);
			if (!execution || execution.status !== 'success') {
				row.note = execution
					? `cycle ${cycle} ended with status ${execution.status}: ${errorOf(execution, bench)}`
					: `cycle ${cycle} did not finish in ${timeout / 60_000} min`;
				break;
			}
			const tick =
				Math.floor(Date.parse(execution.startedAt) / (everySeconds * 1000)) * everySeconds * 1000;
			times.push(Date.parse(execution.stoppedAt) - tick);
			if (unreadable(execution)) {
				row.note = UNREADABLE;
				continue;
			}
			const verdict = judge(
				outputOf(execution, 'Remove Duplicates'),
				size + (cycle - 1) * settings.newPerCycle,
				settings.newPerCycle,
			);
			row.newEmitted.push(verdict.newEmitted);
			row.repeated.push(verdict.repeated);
			row.missed.push(verdict.missed);
		}
	} finally {
		await bench.deactivate(workflowId);
	}
	row.cycles = times.length;
	row.cycleMs = times.length > 0 ? median(times) : undefined;
	return row;
}

export const OURS = 'App Builder Trigger';
/** The history a user sets after the default one fails; large enough for every form measured. */
export const RAISED_HISTORY = 1_000_000;

/** How the peer is named in rows and in the report: by the history Remove Duplicates keeps. */
export function peerLabel(historySize?: number): string {
	return historySize
		? `peer, history ${historySize.toLocaleString('en')}`
		: 'peer, default history';
}
export const PEER_RAISED = peerLabel(RAISED_HISTORY);

/** What a caller measures in the same minutes as ours at `size`: ours polls on `cronSecond`, first at `firstTick`. */
export type AlongsideOurs = (size: number, cronSecond: number, firstTick: number) => Promise<void>;

export async function measurePollCycles(
	emulator: EmulatorProcess,
	bench: N8nForBench,
	settings: CycleSettings,
	alongsideOurs?: AlongsideOurs,
): Promise<CycleRow[]> {
	const rows: CycleRow[] = [];
	const contenders = [
		(size: number) => measureOurs(emulator, bench, size, settings, alongsideOurs),
		(size: number) => measurePeer(emulator, bench, size, settings),
		(size: number) => measurePeer(emulator, bench, size, settings, RAISED_HISTORY),
	];
	// Ours at every size before the peer: the peer's large runs keep n8n saving and collecting garbage
	// well after they end, and ours' cycles read 190 MB at 100,000 on the same 2 cores.
	for (const [index, measure] of contenders.slice(0, settings.peerVariants + 1).entries()) {
		for (const size of settings.sizes) {
			const crashed = rows.find(
				(row) => row.size === size && row.note?.startsWith('n8n itself stopped'),
			);
			// The raised history changes nothing before the first run ends, so a first run that stopped n8n is not repeated.
			const row =
				index === 2 && crashed
					? {
							...crashed,
							who: PEER_RAISED,
							note: 'not run: its first run is the one that stopped n8n above',
						}
					: await measure(size);
			rows.push(row);
			console.log(
				`cycle  ${row.who.padEnd(28)} ${String(size).padStart(7)} inquiries  ${row.cycleMs === undefined ? '     -' : row.cycleMs.toFixed(0).padStart(6)} ms  first run ${row.firstRunEmitted}` +
					`  new ${row.newEmitted.join('/')}  repeated ${row.repeated.join('/')}  missed ${row.missed.join('/')}` +
					`${row.breakdown ? `  (tick to request ${row.breakdown.tickToRequestMs} ms, served ${row.breakdown.servedMs} ms, poll to start ${row.breakdown.pollToStartMs} ms, execution ${row.breakdown.executionMs} ms, from tick ${row.breakdown.fromTickMs} ms)` : ''}` +
					`${row.note ? `  (${row.note})` : ''}`,
			);
		}
	}
	return rows;
}

/** What the package promises, checked on every run: each new lead of ours' cycles once. */
export function checkEachLeadOnce(cycles: CycleRow[], settings: CycleSettings): void {
	for (const row of cycles.filter((r) => r.who === OURS)) {
		const wrong =
			row.missed.some(Boolean) ||
			row.repeated.some(Boolean) ||
			row.newEmitted.some((n) => n !== settings.newPerCycle);
		if (wrong || row.cycles !== settings.cyclesFor(row.size, 'ours'))
			throw new Error(`the trigger in n8n at ${row.size}: ${JSON.stringify(row)}`);
	}
}

/** The median cycle of one workflow at one size; undefined when it did not finish. */
function cycleMsAt(cycles: CycleRow[], size: number, who: string): number | undefined {
	return cycles.find((row) => row.size === size && row.who === who)?.cycleMs;
}

/** docs/poll-cycle.svg: the sizes where both charted workflows finished; the peer with the default history is not charted. */
export function pollCycleChart(cycles: CycleRow[], settings: CycleSettings): string {
	const charted = settings.sizes.filter(
		(size) =>
			cycleMsAt(cycles, size, OURS) !== undefined &&
			cycleMsAt(cycles, size, PEER_RAISED) !== undefined,
	);
	const cycleOf = (who: string) => charted.map((size) => cycleMsAt(cycles, size, who) as number);
	return lineChart({
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
	});
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
function cycleCounts(settings: CycleSettings): string {
	return settings.sizes
		.map((size) => {
			const [ours, peer] = [settings.cyclesFor(size, 'ours'), settings.cyclesFor(size, 'peer')];
			return `${ours} cycles at ${size.toLocaleString('en')}${peer === ours ? '' : ` (the peer ${peer})`}`;
		})
		.join(', ');
}

/** The section of docs/benchmarks.md; `polls`, the same answers read in this process ("One poll against the physical floor"). */
export function cycleSection(
	cycles: CycleRow[],
	polls: PollRow[],
	settings: CycleSettings,
): string {
	const whos = [...new Set(cycles.map((row) => row.who))];
	const timeRows = settings.sizes.map((size) => {
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
installs community packages), on the same emulator form, ${settings.newPerCycle} new
inquiries before each cycle, ${cycleCounts(settings)} after the first run (medians).
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

What each delivered (per cycle after the first run; new = of the ${settings.newPerCycle} new
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
