/* eslint-disable @n8n/community-nodes/no-restricted-imports, no-console -- n8n Cloud's limits are for nodes; this runs on Node itself (timers, process, built-in modules); it prints its progress and figures */
/**
 * n8n's own floor for a poll cycle. Whatever a trigger does, n8n spends a
 * fixed time on each poll (scheduling it, saving state, starting and running
 * the execution); a trivial polling trigger that returns 10 fixed items pays
 * only that. A cycle of ours must also receive the whole answer (the API has
 * no "since" filter), so its floor is the trivial cycle plus the time to
 * fetch the answer's bytes over the same loopback. Both cycles are counted
 * from n8n's cron tick to the end of the execution the poll starts.
 */
import { cpus } from 'node:os';

import {
	TRIVIAL_TRIGGER_NAME,
	trivialTriggerWorkflow,
	type AnswerToReceive,
} from '../lib/benchWorkflows';
import type { EmulatorProcess } from '../lib/emulatorProcess';
import { N8nForBench, type FinishedExecution } from '../lib/n8nForBench';
import {
	BEFORE_TICK_MS,
	checkEachLeadOnce,
	cronTick,
	cycleRoots,
	machineSince,
	measurePollCycles,
	nextTickOn,
	NOT_OURS_HEADER,
	OURS,
	QUIET_AFTER_MS,
	sleepUntil,
	type AlongsideOurs,
	type CycleBreakdown,
	type CycleRow,
	type CycleSample,
	type CycleSettings,
	type GcDuring,
	type MachineDuring,
} from './pollCycle';
import { usageSnapshot } from '../lib/processUsage';
import { median, quantile } from '../lib/median';
import { TriggerPoller } from '../lib/triggerPoller';

/** The target: a cycle of ours within this much of n8n's floor, at every size. */
export const FLOOR_TARGET = 1.2;

/**
 * How long after each tick of ours the trivial trigger polls, without a
 * state, receiving the answer, and with a state, while ours is measured:
 * far enough apart that none of the four cycles (ours at 100,000 reads for
 * about 2 s, then the benchmark prepares its next one) waits on another.
 */
export const TRIVIAL_AFTER_OURS_S = { plain: 20, receiving: 30, withState: 40 } as const;

export interface TrivialCycles {
	cycles: number;
	/** Static data the trigger replaced on each poll (0: none). */
	stateBytes: number;
	/** Medians: the whole cycle from the cron tick, then its parts. */
	cycleMs: number;
	tickToPollMs: number;
	pollToStartMs: number;
	executionMs: number;
	/** Cycle by cycle, in the order measured. */
	samples?: TrivialSample[];
}

export type TrivialSample = Omit<TrivialCycles, 'cycles' | 'stateBytes' | 'samples'> &
	MachineDuring &
	GcDuring;

export interface FloorRow {
	size: number;
	/** The answer's bytes as they crossed the socket, and the median time to fetch them. */
	wireBytes: number;
	transferMs: number;
	/** The trivial trigger, without and with a state of ours' size, measured in the same minutes as ours at this size. */
	trivial: TrivialCycles;
	withState: TrivialCycles;
	/** The trivial trigger receiving the same answer inside n8n on each poll, in the same minutes. */
	receiving?: TrivialCycles;
	/** Ours from the cron tick to the end of the execution; its parts as measured with it. */
	oursMs: number;
	breakdown: CycleBreakdown;
	/** Ours cycle by cycle, in the order measured. */
	samples?: CycleSample[];
	ratio: number;
}

const ms = (value: number) => `${Math.round(value).toLocaleString('en')} ms`;
/** A difference as "N ms more" or "N ms less". */
const moreOrLess = (difference: number) =>
	`${ms(Math.abs(difference))} ${difference >= 0 ? 'more' : 'less'}`;

/** What the trivial trigger's items say of its poll: when it started, and how many bytes of an answer it received. */
function pollOf(execution: FinishedExecution): { startedAt?: number; receivedBytes: number } {
	const items =
		execution.data?.resultData.runData[TRIVIAL_TRIGGER_NAME]?.[0]?.data?.main?.[0] ?? [];
	const { pollStartedAt, receivedBytes } = items[0]?.json ?? {};
	return {
		startedAt: typeof pollStartedAt === 'number' ? pollStartedAt : undefined,
		receivedBytes: typeof receivedBytes === 'number' ? receivedBytes : 0,
	};
}

/**
 * The trivial trigger's execution for its poll on `tick`. Reads executions
 * from `count + 1` on, passing over one on an earlier tick (the poll n8n
 * runs on activation); returns it, what its poll's items say and how many
 * were read.
 */
export async function trivialExecutionOn(
	bench: N8nForBench,
	workflowId: string,
	tick: number,
	count: number,
): Promise<{
	execution: FinishedExecution;
	pollStartedAt: number;
	receivedBytes: number;
	count: number;
}> {
	for (;;) {
		count++;
		const execution = await bench.waitForExecution(workflowId, count, 150_000);
		const poll = execution && pollOf(execution);
		const pollStartedAt = poll?.startedAt;
		if (!execution || !poll || pollStartedAt === undefined)
			throw new Error(`the trivial trigger: no readable execution ${count}`);
		if (cronTick(pollStartedAt) < tick) continue;
		if (cronTick(pollStartedAt) > tick)
			throw new Error(
				`the trivial trigger: no poll on the tick at ${new Date(tick).toISOString()}`,
			);
		return { execution, pollStartedAt, receivedBytes: poll.receivedBytes, count };
	}
}

type CycleParts = Omit<TrivialSample, keyof MachineDuring | keyof GcDuring>;

/**
 * The trivial trigger's cycles, each from its cron tick on `cronSecond`, the
 * first after `firstTickAfter`; the poll n8n runs when a workflow is
 * activated is not on a tick and is left out. As for ours, n8n is left alone
 * while a cycle runs: the machine is read just before the tick, and n8n asked
 * for the execution a second after it. `roots`: n8n's and the emulator's
 * processes, whose use of the machine is counted apart.
 */
export async function measureTrivialCycles(
	bench: N8nForBench,
	cycles: number,
	{
		cronSecond,
		firstTickAfter,
		stateBytes = 0,
		receive,
		roots,
	}: {
		cronSecond: number;
		firstTickAfter: number;
		stateBytes?: number;
		receive?: AnswerToReceive;
		roots?: number[];
	},
): Promise<TrivialCycles> {
	// Its requests are marked, so the emulator's log of ours' requests leaves them out.
	const marked = receive && { ...receive, headers: { ...receive.headers, [NOT_OURS_HEADER]: '1' } };
	const workflowId = await bench.activate(trivialTriggerWorkflow(cronSecond, stateBytes, marked));
	const parts: TrivialSample[] = [];
	const received: number[] = [];
	let count = 0;
	try {
		while (parts.length < cycles) {
			const tick = nextTickOn(
				cronSecond,
				Math.max(Date.now() + BEFORE_TICK_MS + 50, firstTickAfter),
			);
			await sleepUntil(tick - BEFORE_TICK_MS);
			const before = roots && usageSnapshot(roots);
			await sleepUntil(tick + QUIET_AFTER_MS);
			const machine = machineSince(before, roots);
			const found = await trivialExecutionOn(bench, workflowId, tick, count);
			count = found.count;
			const startedAt = Date.parse(found.execution.startedAt);
			const stoppedAt = Date.parse(found.execution.stoppedAt);
			received.push(found.receivedBytes);
			if (receive && found.receivedBytes === 0)
				throw new Error('the trivial trigger received no bytes of the answer it asked for');
			parts.push({
				cycleMs: stoppedAt - tick,
				tickToPollMs: found.pollStartedAt - tick,
				pollToStartMs: startedAt - found.pollStartedAt,
				executionMs: stoppedAt - startedAt,
				...machine,
				n8nMajorGcs: bench.majorGcsBetween(tick, stoppedAt),
			});
		}
	} finally {
		await bench.deactivate(workflowId);
	}
	const medianOf = (key: keyof CycleParts) => median(parts.map((part) => part[key]));
	const trivial = {
		cycles: parts.length,
		stateBytes,
		cycleMs: medianOf('cycleMs'),
		tickToPollMs: medianOf('tickToPollMs'),
		pollToStartMs: medianOf('pollToStartMs'),
		executionMs: medianOf('executionMs'),
		samples: parts,
	};
	console.log(
		`floor  trivial trigger${stateBytes > 0 ? ` with ${stateBytes} B of state` : ''}${receive ? ` receiving ${Math.min(...received)} B` : ''}: cycle ${trivial.cycleMs} ms (tick to poll ${trivial.tickToPollMs} ms, poll to start ${trivial.pollToStartMs} ms, execution ${trivial.executionMs} ms), ${trivial.cycles} cycles`,
	);
	return trivial;
}

/** The trivial trigger's cycles measured alongside ours at one size: without a state, and with one of ours' size. */
export interface TrivialAlongside {
	trivial: TrivialCycles;
	withState: TrivialCycles;
	receiving?: TrivialCycles;
}

/**
 * For each size where ours finished: ours against the trivial cycle plus the
 * transfer. The trivial cycles are those measured in the same minutes as
 * ours at that size (`alongside`), in the same n8n: its heap after the
 * sections before, its database and the machine's load weigh on both alike;
 * the transfer is ours' own, fetched just before each of its cycles.
 */
export function n8nFloorRows(
	cycles: CycleRow[],
	alongside: ReadonlyMap<number, TrivialAlongside>,
): FloorRow[] {
	const rows: FloorRow[] = [];
	for (const ours of cycles.filter((row) => row.who === OURS)) {
		const { breakdown } = ours;
		const floor = alongside.get(ours.size);
		if (!breakdown || !floor) continue;
		const row = {
			size: ours.size,
			wireBytes: ours.wireBytes ?? 0,
			transferMs: breakdown.transferMs,
			...floor,
			oursMs: breakdown.fromTickMs,
			breakdown,
			samples: ours.samples,
			ratio: breakdown.fromTickMs / (floor.trivial.cycleMs + breakdown.transferMs),
		};
		rows.push(row);
		console.log(
			`floor  ${String(row.size).padStart(7)} inquiries  transfer ${row.transferMs.toFixed(0).padStart(5)} ms  trivial ${row.trivial.cycleMs} ms  ours from tick ${row.oursMs} ms  ratio ${row.ratio.toFixed(2)}`,
		);
	}
	return rows;
}

/**
 * The answers' transfer, then the poll cycles `settings` name (ours, and the
 * peer unless its variants are 0: "One poll cycle in n8n, against the peer
 * workflow"), with n8n's own floor (the trivial trigger, with and without a
 * state, and receiving the answer) measured in the same minutes as ours at
 * each size. `stateBytes`: ours' saved state, which the trivial trigger
 * keeps in one of its runs.
 */
export async function measureCyclesWithFloor(
	emulator: EmulatorProcess,
	bench: N8nForBench,
	stateBytes: number,
	settings: CycleSettings,
): Promise<{ cycles: CycleRow[]; floor: FloorRow[] }> {
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
	checkEachLeadOnce(cycles, settings);
	return { cycles, floor: n8nFloorRows(cycles, alongside) };
}

/** `--only=floor`: n8n's own floor and ours' cycles against it, in an n8n of their own, without the peer. */
export async function measureFloorAlone(
	emulator: EmulatorProcess,
	settings: CycleSettings,
): Promise<FloorRow[]> {
	// Ours' saved state at the smallest form, as the full run takes it from its first section.
	await emulator.fillForm(settings.sizes[0]);
	const poller = new TriggerPoller(emulator.webUrl);
	await poller.poll();
	await emulator.addNew(settings.newPerCycle);
	await poller.poll();
	const stateBytes = JSON.stringify(poller.staticData).length;
	const bench = await N8nForBench.start(emulator.webUrl, {}, { logMajorGcs: true });
	try {
		return (
			await measureCyclesWithFloor(emulator, bench, stateBytes, { ...settings, peerVariants: 0 })
		).floor;
	} finally {
		await bench.stop();
	}
}

/** The targets table's row. */
export function floorTargetRow(rows: FloorRow[], sizes: number[]): string {
	const measured = sizes.map((size) => rows.find((row) => row.size === size));
	const met = measured.every((row) => row !== undefined && row.ratio <= FLOOR_TARGET);
	const figures = measured
		.map(
			(row, index) =>
				`${row ? `${row.ratio.toFixed(2)}x` : 'not measured'} at ${sizes[index].toLocaleString('en')}`,
		)
		.join(', ');
	return `| Poll cycle in n8n against n8n's own floor (a trivial polling trigger's cycle + the answer's transfer) | at most ${FLOOR_TARGET}x at each size | ${figures} | ${met ? 'met' : '**not met**'} |`;
}

/**
 * Where a cycle of ours goes beyond the floor, from the parts measured: the
 * fixed cost around the request against the trivial cycle, and the answer's
 * arrival in n8n against the transfer fetched just before each cycle.
 */
function whatBounds(rows: FloorRow[]): string {
	const missed = rows.filter((row) => row.ratio > FLOOR_TARGET);
	if (missed.length === 0) return '';
	const lines = missed.map((row) => {
		const b = row.breakdown;
		const trivialMs = row.trivial.cycleMs;
		const aroundRequest = b.tickToRequestMs + b.pollToStartMs + b.executionMs;
		const receiving = row.receiving
			? ` The trivial trigger receiving the same answer inside n8n took ${ms(row.receiving.cycleMs)} a cycle: ${ms(row.receiving.cycleMs - trivialMs)} more than without it, against a transfer of ${ms(row.transferMs)} in the benchmark's own process; ours is ${(row.oursMs / row.receiving.cycleMs).toFixed(2)}x that cycle.`
			: '';
		return `- At ${row.size.toLocaleString('en')}: ours takes ${ms(row.oursMs)} against a floor of ${ms(trivialMs + row.transferMs)}. Around the request (tick to request ${ms(b.tickToRequestMs)}, last byte to execution start ${ms(b.pollToStartMs)}, execution ${ms(b.executionMs)}) it spends ${ms(aroundRequest)}, against ${ms(trivialMs)} for the whole trivial cycle in the same minutes: ${moreOrLess(aroundRequest - trivialMs)}. The answer takes ${ms(b.servedMs)} from the request to its last byte in n8n, against ${ms(row.transferMs)} to fetch it bare just before: ${moreOrLess(b.servedMs - row.transferMs)}.${receiving}`;
	});
	const stateCost = rows.map(
		(row) =>
			`${ms(row.withState.cycleMs)} against ${ms(row.trivial.cycleMs)} alongside ${row.size.toLocaleString('en')}`,
	);
	return `

Where the target is missed, what bounds it (medians, measured above):

${lines.join('\n')}
- Keeping a state: the trivial trigger replacing ${rows[0].withState.stateBytes.toLocaleString('en')} B of static data on each
  poll, as ours replaces its cursor, takes ${stateCost.join(', ')} without; against that floor plus the transfer, ours is ${rows
		.map((row) => `${withStateRatio(row).toFixed(2)}x at ${row.size.toLocaleString('en')}`)
		.join(', ')}.

The time between the request and the last byte is the emulator serving the
answer while the trigger reads it as it arrives; when it exceeds the plain
transfer, the reading in n8n's process (its HTTP stack and the trigger's
scanner, on a machine whose ${cpus().length} cores are shared) keeps up more slowly
than a bare socket read. The time after the last byte is the trigger
planning its cursor, flattening what it emits, and n8n saving the state and
starting the execution.`;
}

/** Ours against the trivial trigger that keeps a state of ours' size, plus the transfer. */
function withStateRatio(row: FloorRow): number {
	return row.oursMs / (row.withState.cycleMs + row.transferMs);
}

/**
 * A median with the 10th and 90th percentile of its values in brackets ("120 ms
 * (110 to 140)"); a figure of one value, or without its values, alone.
 */
export function msSpread(values: readonly number[] | undefined, medianMs: number): string {
	if (!values || values.length < 2) return ms(medianMs);
	const round = (value: number) => Math.round(value).toLocaleString('en');
	return `${ms(median(values))} (${round(quantile(values, 0.1))} to ${round(quantile(values, 0.9))})`;
}

/** Each cycle of ours against the trivial cycle's median plus that cycle's own transfer: the 10th and 90th percentile of the ratios. */
function ratioSpread(row: FloorRow): string {
	const ratios = (row.samples ?? []).map(
		(sample) => sample.fromTickMs / (row.trivial.cycleMs + sample.transferMs),
	);
	if (ratios.length < 2) return '';
	return ` (${quantile(ratios, 0.1).toFixed(2)} to ${quantile(ratios, 0.9).toFixed(2)})`;
}

/** One series of cycles, for the cycle-by-cycle table and what varies between them. */
export interface Series {
	label: string;
	cycleMs: number[];
	machine: Array<MachineDuring & GcDuring>;
}

/** How the report names the series measured at a size. */
const trivialLabel = (row: FloorRow) =>
	`trivial trigger, alongside ${row.size.toLocaleString('en')}`;
const withStateLabel = (row: FloorRow) =>
	`trivial trigger, ${row.withState.stateBytes.toLocaleString('en')} B of state, alongside ${row.size.toLocaleString('en')}`;
const receivingLabel = (row: FloorRow) =>
	`trivial trigger receiving the answer in n8n, alongside ${row.size.toLocaleString('en')}`;
const oursLabel = (row: FloorRow) => `${OURS} at ${row.size.toLocaleString('en')}`;

function seriesOf(rows: FloorRow[]): Series[] {
	const trivialSeries = (label: string, cycles: TrivialCycles): Series[] =>
		cycles.samples
			? [
					{
						label,
						cycleMs: cycles.samples.map((sample) => sample.cycleMs),
						machine: cycles.samples,
					},
				]
			: [];
	return rows.flatMap((row) => [
		...trivialSeries(trivialLabel(row), row.trivial),
		...trivialSeries(withStateLabel(row), row.withState),
		...(row.receiving ? trivialSeries(receivingLabel(row), row.receiving) : []),
		...(row.samples
			? [
					{
						label: oursLabel(row),
						cycleMs: row.samples.map((sample) => sample.fromTickMs),
						machine: row.samples,
					},
				]
			: []),
	]);
}

const cores = (values: number[]) =>
	values.map((value) => (Number.isFinite(value) ? value.toFixed(2) : '?')).join(', ');
const counts = (values: number[]) =>
	values.map((value) => (Number.isFinite(value) ? String(value) : '?')).join(', ');

function cycleByCycle(series: Series[]): string {
	const lines = series.map(
		(one) =>
			`| ${one.label} | ${one.cycleMs.map((value) => Math.round(value).toLocaleString('en')).join(', ')} | ${cores(one.machine.map((m) => m.othersCores))} | ${cores(one.machine.map((m) => m.emulatorCores))} | ${cores(one.machine.map((m) => m.n8nCores))} | ${counts(one.machine.map((m) => m.n8nMajorGcs))} |`,
	);
	return `| cycle | each cycle from its tick, in order (ms) | other processes meanwhile (cores) | the emulator (cores) | n8n (cores) | n8n's major garbage collections in the cycle |
| --- | --- | --- | --- | --- | --- |
${lines.join('\n')}`;
}

/** Other processes using at least this many cores during a cycle count as load on the machine. */
export const LOADED_CORES = 0.5;

/**
 * What varies between cycles, from what was measured: how wide each series
 * is, whether the first cycle after activation stands out, and how cycles
 * that shared the machine with other processes compare with the rest (each
 * against its own series' median).
 */
export function whatVaries(series: Series[]): string[] {
	const measured = series.filter((one) => one.cycleMs.length >= 2);
	if (measured.length === 0) return [];
	const lines: string[] = [];
	const widths = measured.map((one) => ({
		label: one.label,
		width: quantile(one.cycleMs, 0.9) / quantile(one.cycleMs, 0.1),
	}));
	const widest = widths.reduce((a, b) => (b.width > a.width ? b : a));
	const narrowest = widths.reduce((a, b) => (b.width < a.width ? b : a));
	lines.push(
		`Within a series the 90th percentile is ${narrowest.width.toFixed(2)}x the 10th at the narrowest (${narrowest.label}) and ${widest.width.toFixed(2)}x at the widest (${widest.label}).`,
	);
	const firstSlowest = measured.filter((one) => one.cycleMs[0] === Math.max(...one.cycleMs)).length;
	const firstExcess =
		measured.reduce((sum, one) => sum + one.cycleMs[0] / median(one.cycleMs) - 1, 0) /
		measured.length;
	lines.push(
		`The first cycle after activation was the slowest of its series in ${firstSlowest} of ${measured.length} series; on average it took ${percent(firstExcess)} against its series' median.`,
	);
	const deviations: Deviation[] = measured.flatMap((one) =>
		one.cycleMs.map((value, index) => ({
			excess: value / median(one.cycleMs) - 1,
			others: one.machine[index]?.othersCores ?? Number.NaN,
			gcs: one.machine[index]?.n8nMajorGcs ?? Number.NaN,
		})),
	);
	const loaded = deviations.filter((d) => d.others >= LOADED_CORES);
	const quiet = deviations.filter((d) => d.others < LOADED_CORES);
	if (loaded.length > 0 && quiet.length > 0)
		lines.push(
			`In ${loaded.length} of ${deviations.length} cycles other processes of the machine used ${LOADED_CORES} cores or more meanwhile; those cycles took ${percent(mean(loaded))} against their series' median on average, the ${quiet.length} others ${percent(mean(quiet))}.`,
		);
	else if (deviations.some((d) => Number.isFinite(d.others)))
		lines.push(
			`Other processes of the machine used ${loaded.length > 0 ? 'at least' : 'less than'} ${LOADED_CORES} cores during ${loaded.length > 0 ? 'every' : 'each'} cycle, so load from them does not tell the cycles apart here.`,
		);
	lines.push(...majorGcLines(deviations));
	const n8nUse = measured.flatMap((one) =>
		one.cycleMs.map((value, index) => ({
			slow: value > median(one.cycleMs),
			cores: one.machine[index]?.n8nCores ?? Number.NaN,
		})),
	);
	const meanCores = (slow: boolean) => {
		const picked = n8nUse.filter((use) => use.slow === slow && Number.isFinite(use.cores));
		return picked.length === 0
			? Number.NaN
			: picked.reduce((sum, use) => sum + use.cores, 0) / picked.length;
	};
	const [slowCores, otherCores] = [meanCores(true), meanCores(false)];
	if (Number.isFinite(slowCores) && Number.isFinite(otherCores))
		lines.push(
			`In the cycles slower than their series' median n8n used ${slowCores.toFixed(2)} cores on average meanwhile, in the others ${otherCores.toFixed(2)}: ${
				slowCores > otherCores * 1.3
					? 'for the same work n8n spent more CPU in the slow ones (its code ran slower: colder, or with a garbage collection), not only waited'
					: 'n8n spent about as much CPU in both, so the slow ones mostly waited (for a core, the emulator or the database)'
			}.`,
		);
	return lines;
}

/** A cycle against its own series' median, with what the machine and n8n did meanwhile. */
interface Deviation {
	excess: number;
	others: number;
	gcs: number;
}

const mean = (cycles: Deviation[]) =>
	cycles.reduce((sum, cycle) => sum + cycle.excess, 0) / cycles.length;

/** How the cycles a major garbage collection of n8n fell into compare with the rest, each against its own series' median. */
function majorGcLines(deviations: Deviation[]): string[] {
	const logged = deviations.filter((cycle) => Number.isFinite(cycle.gcs));
	if (logged.length === 0) return [];
	const hit = logged.filter((cycle) => cycle.gcs > 0);
	const spared = logged.filter((cycle) => cycle.gcs === 0);
	if (hit.length === 0)
		return [
			`No major garbage collection of n8n's heap fell in any of the ${logged.length} cycles.`,
		];
	return [
		`A major garbage collection of n8n's heap (its marking runs in steps on n8n's main thread, then pauses it) fell in ${hit.length} of ${logged.length} cycles; n8n runs one when its heap reaches a limit, so in whichever cycle allocates past it. ${
			spared.length > 0
				? `Those cycles took ${percent(mean(hit))} against their series' median on average, the ${spared.length} others ${percent(mean(spared))}.`
				: `They took ${percent(mean(hit))} against their series' median on average.`
		}`,
	];
}

const percent = (share: number) => `${share >= 0 ? '+' : ''}${Math.round(share * 100)}%`;

export function floorSection(rows: FloorRow[]): string {
	const table = rows.map(
		(row) =>
			`| ${row.size.toLocaleString('en')} | ${(row.wireBytes / 1e6).toFixed(1)} MB | ${msSpread(
				row.samples?.map((sample) => sample.transferMs),
				row.transferMs,
			)} | ${msSpread(
				row.trivial.samples?.map((sample) => sample.cycleMs),
				row.trivial.cycleMs,
			)} | ${ms(row.trivial.cycleMs + row.transferMs)} | ${msSpread(
				row.samples?.map((sample) => sample.fromTickMs),
				row.oursMs,
			)} | **${row.ratio.toFixed(2)}x**${ratioSpread(row)} | ${withStateRatio(row).toFixed(2)}x | ${
				row.receiving
					? `${msSpread(
							row.receiving.samples?.map((sample) => sample.cycleMs),
							row.receiving.cycleMs,
						)} | ${(row.oursMs / row.receiving.cycleMs).toFixed(2)}x`
					: '- | -'
			} |`,
	);
	const trivialParts = (label: string, cycles: TrivialCycles) =>
		`| ${label} | ${ms(cycles.tickToPollMs)} (to the poll) | - | ${ms(cycles.pollToStartMs)} (poll to start) | ${ms(cycles.executionMs)} | ${msSpread(
			cycles.samples?.map((sample) => sample.cycleMs),
			cycles.cycleMs,
		)} |`;
	const parts = rows.flatMap((row) => [
		trivialParts(trivialLabel(row), row.trivial),
		trivialParts(withStateLabel(row), row.withState),
		...(row.receiving ? [trivialParts(receivingLabel(row), row.receiving)] : []),
		`| ${oursLabel(row)} | ${ms(row.breakdown.tickToRequestMs)} | ${msSpread(
			row.samples?.map((sample) => sample.servedMs),
			row.breakdown.servedMs,
		)} | ${msSpread(
			row.samples?.map((sample) => sample.pollToStartMs),
			row.breakdown.pollToStartMs,
		)} | ${ms(row.breakdown.executionMs)} | ${msSpread(
			row.samples?.map((sample) => sample.fromTickMs),
			row.oursMs,
		)} |`,
	]);
	const series = seriesOf(rows);
	const varies = whatVaries(series);
	const oursCycles = rows[0]?.samples?.length ?? 0;
	const trivialCycles = rows[0]?.trivial.cycles ?? 0;
	const stateBytes = rows[0]?.withState.stateBytes ?? 0;
	const variesText =
		series.length > 0
			? `

Cycle by cycle: each cycle's time from its tick, and what the machine's ${cpus().length} cores did
meanwhile (from just before the tick until a second after the answer's last
byte, or after the trivial poll's tick; Linux's counts, in steps of 10 ms): the other
processes of the machine (everything but n8n, its task runners, the emulator
and the benchmark itself), the emulator, and n8n; then how many major garbage
collections of n8n's heap began their pause between the cycle's tick and the
end of its execution (logged from inside n8n's main process by
\`bench/lib/majorGcs/preload.js\`).

${cycleByCycle(series)}

What varies between cycles and between runs, as measured here:

${[
	...varies,
	`The emulator serves each answer while n8n reads it, on the same ${cpus().length} cores: what it used during ours' cycles is in the table.`,
	'How much of a cycle n8n spends in garbage collection, and in which part of its work, is in the profile below ("Where a poll cycle\'s time goes in n8n").',
]
	.map((line) => `- ${line}`)
	.join('\n')}`
			: '';
	return `## n8n's own floor for a poll cycle

What a poll cycle costs in this n8n whatever the trigger does: a trivial
polling trigger built only for the benchmark (plain JS in
\`bench/lib/trivialTrigger/\`, loaded through \`N8N_CUSTOM_EXTENSIONS\`, not
part of the package) returns 10 fixed items on each poll, once a minute like
ours, into the same No Operation node. Here both cycles are counted the same
way: from n8n's cron tick (the whole second a poll is scheduled on) to the
end of the execution the poll starts. A cycle of ours must also receive the
whole answer, so its floor is the trivial cycle plus the *transfer*: the
time to fetch the same answer's bytes over the same loopback, read as they
arrive and not parsed. It is fetched before each cycle of ours, a few
seconds before its tick: the very answer that cycle reads (its new
inquiries already in), served by the emulator in the same minute, so the
floor moves with the emulator's and the machine's speed as ours does (one
fetch before it, untimed, has the emulator keep the body it serves both
from, up to 20,000 inquiries; above that it streams every answer alike).
While a cycle runs the benchmark leaves n8n alone (it asks n8n for the
execution a second after the last byte). Ours: ${oursCycles} cycles at each size. The trivial trigger is measured in
the same minutes as ours at each size, in the same n8n (${trivialCycles} cycles,
polling ${TRIVIAL_AFTER_OURS_S.plain} s after each tick of ours), so that the floor shares what
n8n's state is at the time (its heap after the sections before, its
database, the machine's load) with the cycles it is set against. Ours also keeps a state (its cursor,
${stateBytes.toLocaleString('en')} B, replaced on each poll) that n8n saves and reloads; the last
column sets ours against the same trivial trigger keeping a state of that
size (polling ${TRIVIAL_AFTER_OURS_S.withState} s after each tick of ours). The transfer is fetched by
the benchmark's own process; the last two columns show what receiving the
answer costs inside n8n's: the trivial trigger also receiving the same
answer on each poll through n8n's own HTTP helper as a stream, counting its
bytes and nothing more (polling ${TRIVIAL_AFTER_OURS_S.receiving} s after each tick of ours), and ours
against that cycle. Each figure is the median of its
cycles, with the 10th and 90th percentile in brackets (with 5 cycles, the
fastest and the slowest); the ratio's brackets set each cycle of ours
against the trivial cycle plus that cycle's own transfer.

| inquiries | answer | transfer | trivial cycle | floor | ours | ours / floor | ours / floor with a state | trivial cycle receiving the answer in n8n | ours / that cycle |
| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |
${table.join('\n')}

Where each cycle goes (medians; the 10th and 90th percentile in brackets):

| cycle | cron tick to request | request to last byte | last byte to execution start | execution | whole cycle |
| --- | --- | --- | --- | --- | --- |
${parts.join('\n')}${variesText}${whatBounds(rows)}
`;
}
