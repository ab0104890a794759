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

import { TRIVIAL_TRIGGER_NAME, trivialTriggerWorkflow } from './benchWorkflows';
import type { EmulatorProcess } from './emulatorProcess';
import type { FinishedExecution, N8nForBench } from './n8nForBench';
import {
	cronTick,
	OURS,
	type CycleBreakdown,
	type CycleRow,
	type CycleSettings,
} from './pollCycleInN8n';
import { median } from '../support/median';

/** The target: a cycle of ours within this much of n8n's floor, at every size. */
export const FLOOR_TARGET = 1.2;

export interface TrivialCycles {
	cycles: number;
	/** Static data the trigger replaced on each poll (0: none). */
	stateBytes: number;
	/** Medians: the whole cycle from the cron tick, then its parts. */
	cycleMs: number;
	tickToPollMs: number;
	pollToStartMs: number;
	executionMs: number;
}

export interface FloorRow {
	size: number;
	/** The answer's bytes as they crossed the socket, and the median time to fetch them. */
	wireBytes: number;
	transferMs: number;
	trivialMs: number;
	/** Ours from the cron tick to the end of the execution; its parts as measured with it. */
	oursMs: number;
	breakdown: CycleBreakdown;
	ratio: number;
}

const ms = (value: number) => `${Math.round(value).toLocaleString('en')} ms`;
/** A difference as "N ms more" or "N ms less". */
const moreOrLess = (difference: number) =>
	`${ms(Math.abs(difference))} ${difference >= 0 ? 'more' : 'less'}`;

function pollStartOf(execution: FinishedExecution): number | undefined {
	const items =
		execution.data?.resultData.runData[TRIVIAL_TRIGGER_NAME]?.[0]?.data?.main?.[0] ?? [];
	const startedAt = items[0]?.json.pollStartedAt;
	return typeof startedAt === 'number' ? startedAt : undefined;
}

type CycleParts = Omit<TrivialCycles, 'cycles' | 'stateBytes'>;

/**
 * The trivial trigger's cycles, each from its cron tick. Polls on a second
 * `secondsAhead` from now, so the first tick comes soon; the poll n8n runs
 * when a workflow is activated is not on a tick and is left out.
 */
export async function measureTrivialCycles(
	bench: N8nForBench,
	cycles: number,
	{ stateBytes = 0, secondsAhead = 5 }: { stateBytes?: number; secondsAhead?: number } = {},
): Promise<TrivialCycles> {
	const cronSecond = (Math.floor(Date.now() / 1000) + secondsAhead) % 60;
	const workflowId = await bench.activate(trivialTriggerWorkflow(cronSecond, stateBytes));
	const parts: CycleParts[] = [];
	try {
		for (let count = 1; parts.length < cycles; count++) {
			const execution = await bench.waitForExecution(workflowId, count, 150_000);
			const pollStartedAt = execution && pollStartOf(execution);
			if (!execution || pollStartedAt === undefined)
				throw new Error(`the trivial trigger: no readable execution ${count}`);
			const tick = cronTick(pollStartedAt);
			if ((tick / 1000) % 60 !== cronSecond) continue; // the activation's poll
			const startedAt = Date.parse(execution.startedAt);
			const stoppedAt = Date.parse(execution.stoppedAt);
			parts.push({
				cycleMs: stoppedAt - tick,
				tickToPollMs: pollStartedAt - tick,
				pollToStartMs: startedAt - pollStartedAt,
				executionMs: stoppedAt - startedAt,
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
	};
	console.log(
		`floor  trivial trigger${stateBytes > 0 ? ` with ${stateBytes} B of state` : ''}: cycle ${trivial.cycleMs} ms (tick to poll ${trivial.tickToPollMs} ms, poll to start ${trivial.pollToStartMs} ms, execution ${trivial.executionMs} ms), ${trivial.cycles} cycles`,
	);
	return trivial;
}

export interface AnswerTransfer {
	size: number;
	/** The answer's bytes as they crossed the socket, and the median time to fetch them. */
	wireBytes: number;
	ms: number;
}

/**
 * The answer's transfer at each size: the form as ours reads it in its
 * median cycle (the size, plus the new inquiries added by then), fetched over
 * the same loopback; one untimed fetch first, as the emulator renders new
 * records once. Measured while n8n is idle (before any poll cycle: the
 * peer's largest runs keep n8n busy saving well after they end).
 */
export async function measureTransfers(
	emulator: EmulatorProcess,
	settings: CycleSettings,
): Promise<AnswerTransfer[]> {
	const transfers: AnswerTransfer[] = [];
	for (const size of settings.sizes) {
		await emulator.fillForm(size);
		await emulator.addNew(settings.newPerCycle * Math.ceil(settings.cyclesFor(size, 'ours') / 2));
		await emulator.transfer();
		const times: number[] = [];
		let wireBytes = 0;
		for (let round = 0; round < settings.cyclesFor(size, 'ours'); round++) {
			const transfer = await emulator.transfer();
			times.push(transfer.ms);
			wireBytes = transfer.wireBytes;
		}
		transfers.push({ size, wireBytes, ms: median(times) });
		console.log(
			`floor  ${String(size).padStart(7)} inquiries  transfer ${median(times).toFixed(0).padStart(5)} ms  (${(wireBytes / 1e6).toFixed(1)} MB)`,
		);
	}
	return transfers;
}

/**
 * For each size where ours finished: ours against the trivial cycle plus the
 * transfer. The trivial cycles are measured before ours, on an n8n as fresh
 * as it is for ours' smallest form (the peer's largest runs leave n8n's heap
 * large, which would slow the trivial cycle in ours' favour).
 */
export function n8nFloorRows(
	transfers: AnswerTransfer[],
	cycles: CycleRow[],
	trivial: TrivialCycles,
): FloorRow[] {
	const rows: FloorRow[] = [];
	for (const transfer of transfers) {
		const breakdown = cycles.find(
			(row) => row.size === transfer.size && row.who === OURS,
		)?.breakdown;
		if (!breakdown) continue;
		const row = {
			size: transfer.size,
			wireBytes: transfer.wireBytes,
			transferMs: transfer.ms,
			trivialMs: trivial.cycleMs,
			oursMs: breakdown.fromTickMs,
			breakdown,
			ratio: breakdown.fromTickMs / (trivial.cycleMs + transfer.ms),
		};
		rows.push(row);
		console.log(
			`floor  ${String(row.size).padStart(7)} inquiries  transfer ${row.transferMs.toFixed(0).padStart(5)} ms  trivial ${row.trivialMs} ms  ours from tick ${row.oursMs} ms  ratio ${row.ratio.toFixed(2)}`,
		);
	}
	return rows;
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
 * arrival in n8n against the transfer measured here.
 */
function whatBounds(rows: FloorRow[], trivial: TrivialCycles, withState: TrivialCycles): string {
	const missed = rows.filter((row) => row.ratio > FLOOR_TARGET);
	if (missed.length === 0) return '';
	const lines = missed.map((row) => {
		const b = row.breakdown;
		const aroundRequest = b.tickToRequestMs + b.pollToStartMs + b.executionMs;
		return `- At ${row.size.toLocaleString('en')}: ours takes ${ms(row.oursMs)} against a floor of ${ms(row.trivialMs + row.transferMs)}. Around the request (tick to request ${ms(b.tickToRequestMs)}, last byte to execution start ${ms(b.pollToStartMs)}, execution ${ms(b.executionMs)}) it spends ${ms(aroundRequest)}, against ${ms(trivial.cycleMs)} for the whole trivial cycle: ${moreOrLess(aroundRequest - trivial.cycleMs)}. The answer takes ${ms(b.servedMs)} from the request to its last byte in n8n, against ${ms(row.transferMs)} to fetch it here: ${moreOrLess(b.servedMs - row.transferMs)}.`;
	});
	return `

Where the target is missed, what bounds it (medians, measured above):

${lines.join('\n')}
- Keeping a state: the trivial trigger replacing ${withState.stateBytes.toLocaleString('en')} B of static data on each
  poll, as ours replaces its cursor, takes ${ms(withState.cycleMs)} a cycle against ${ms(trivial.cycleMs)}
  without (${moreOrLess(withState.cycleMs - trivial.cycleMs)}); against that floor plus the transfer, ours is ${rows
		.map(
			(row) => `${withStateRatio(row, withState).toFixed(2)}x at ${row.size.toLocaleString('en')}`,
		)
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
function withStateRatio(row: FloorRow, withState: TrivialCycles): number {
	return row.oursMs / (withState.cycleMs + row.transferMs);
}

export function floorSection(
	rows: FloorRow[],
	trivial: TrivialCycles,
	withState: TrivialCycles,
): string {
	const table = rows.map(
		(row) =>
			`| ${row.size.toLocaleString('en')} | ${(row.wireBytes / 1e6).toFixed(1)} MB | ${ms(row.transferMs)} | ${ms(row.trivialMs)} | ${ms(row.trivialMs + row.transferMs)} | ${ms(row.oursMs)} | **${row.ratio.toFixed(2)}x** | ${withStateRatio(row, withState).toFixed(2)}x |`,
	);
	const trivialParts = (label: string, cycles: TrivialCycles) =>
		`| ${label} | ${ms(cycles.tickToPollMs)} (to the poll) | - | ${ms(cycles.pollToStartMs)} (poll to start) | ${ms(cycles.executionMs)} | ${ms(cycles.cycleMs)} |`;
	const parts = [
		trivialParts('trivial trigger', trivial),
		trivialParts(
			`trivial trigger, ${withState.stateBytes.toLocaleString('en')} B of state`,
			withState,
		),
		...rows.map(
			(row) =>
				`| ${OURS} at ${row.size.toLocaleString('en')} | ${ms(row.breakdown.tickToRequestMs)} | ${ms(row.breakdown.servedMs)} | ${ms(row.breakdown.pollToStartMs)} | ${ms(row.breakdown.executionMs)} | ${ms(row.oursMs)} |`,
		),
	];
	return `## n8n's own floor for a poll cycle

What a poll cycle costs in this n8n whatever the trigger does: a trivial
polling trigger built only for the benchmark (plain JS in
\`test/bench/trivialTrigger/\`, loaded through \`N8N_CUSTOM_EXTENSIONS\`, not
part of the package) returns 10 fixed items on each poll, once a minute like
ours, into the same No Operation node. Here both cycles are counted the same
way: from n8n's cron tick (the whole second a poll is scheduled on) to the
end of the execution the poll starts. A cycle of ours must also receive the
whole answer, so its floor is the trivial cycle plus the *transfer*: the
time to fetch the same answer's bytes over the same loopback, read as they
arrive and not parsed, measured in this run (median) while n8n was idle.
Trivial trigger: ${trivial.cycles} cycles, measured before any form was
polled; ours: the cycles of the section above. Ours also keeps a state (its
cursor, ${withState.stateBytes.toLocaleString('en')} B, replaced on each poll) that n8n saves and reloads; the
last column sets ours against the same trivial trigger keeping a state of
that size (${withState.cycles} cycles, measured alongside the plain one).

| inquiries | answer | transfer | trivial cycle | floor | ours | ours / floor | ours / floor with a state |
| --- | --- | --- | --- | --- | --- | --- | --- |
${table.join('\n')}

Where each cycle goes (medians):

| cycle | cron tick to request | request to last byte | last byte to execution start | execution | whole cycle |
| --- | --- | --- | --- | --- | --- |
${parts.join('\n')}${whatBounds(rows, trivial, withState)}
`;
}
