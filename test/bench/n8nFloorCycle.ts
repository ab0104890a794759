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
import { cronTick, OURS, type CycleBreakdown, type CycleRow, type CycleSettings } from './pollCycleInN8n';

/** The target: a cycle of ours within this much of n8n's floor, at every size. */
export const FLOOR_TARGET = 1.2;

export interface TrivialCycles {
	cycles: number;
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

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const ms = (value: number) => `${Math.round(value).toLocaleString('en')} ms`;
/** A difference as "N ms more" or "N ms less". */
const moreOrLess = (difference: number) => `${ms(Math.abs(difference))} ${difference >= 0 ? 'more' : 'less'}`;

function pollStartOf(execution: FinishedExecution): number | undefined {
	const items = execution.data?.resultData.runData[TRIVIAL_TRIGGER_NAME]?.[0]?.data?.main?.[0] ?? [];
	const startedAt = items[0]?.json.pollStartedAt;
	return typeof startedAt === 'number' ? startedAt : undefined;
}

/**
 * The trivial trigger's cycles, each from its cron tick. Polls on a second a
 * few seconds ahead, so the first tick comes soon; the poll n8n runs when a
 * workflow is activated is not on a tick and is left out.
 */
export async function measureTrivialCycles(bench: N8nForBench, cycles: number): Promise<TrivialCycles> {
	const cronSecond = (Math.floor(Date.now() / 1000) + 5) % 60;
	const workflowId = await bench.activate(trivialTriggerWorkflow(cronSecond));
	const parts: Array<Omit<TrivialCycles, 'cycles'>> = [];
	try {
		for (let count = 1; parts.length < cycles; count++) {
			const execution = await bench.waitForExecution(workflowId, count, 150_000);
			const pollStartedAt = execution && pollStartOf(execution);
			if (!execution || pollStartedAt === undefined) throw new Error(`the trivial trigger: no readable execution ${count}`);
			const tick = cronTick(pollStartedAt);
			if ((tick / 1000) % 60 !== cronSecond) continue; // the activation's poll
			const startedAt = Date.parse(execution.startedAt);
			const stoppedAt = Date.parse(execution.stoppedAt);
			parts.push({ cycleMs: stoppedAt - tick, tickToPollMs: pollStartedAt - tick, pollToStartMs: startedAt - pollStartedAt, executionMs: stoppedAt - startedAt });
		}
	} finally {
		await bench.deactivate(workflowId);
	}
	const medianOf = (key: keyof Omit<TrivialCycles, 'cycles'>) => median(parts.map((part) => part[key]));
	const trivial = {
		cycles: parts.length,
		cycleMs: medianOf('cycleMs'),
		tickToPollMs: medianOf('tickToPollMs'),
		pollToStartMs: medianOf('pollToStartMs'),
		executionMs: medianOf('executionMs'),
	};
	console.log(
		`floor  trivial trigger: cycle ${trivial.cycleMs} ms (tick to poll ${trivial.tickToPollMs} ms, poll to start ${trivial.pollToStartMs} ms, execution ${trivial.executionMs} ms), ${trivial.cycles} cycles`,
	);
	return trivial;
}

/**
 * The answer's transfer at one size: the form as ours read it in its median
 * cycle (the size, plus the new inquiries added by then), fetched over the
 * same loopback; one untimed fetch first, as the emulator renders new records once.
 */
async function measureTransfer(emulator: EmulatorProcess, size: number, settings: CycleSettings): Promise<{ ms: number; wireBytes: number }> {
	await emulator.fillForm(size);
	await emulator.addNew(settings.newPerCycle * Math.ceil(settings.cyclesFor(size) / 2));
	await emulator.transfer();
	const times: number[] = [];
	let wireBytes = 0;
	for (let round = 0; round < settings.cyclesFor(size); round++) {
		const transfer = await emulator.transfer();
		times.push(transfer.ms);
		wireBytes = transfer.wireBytes;
	}
	return { ms: median(times), wireBytes };
}

/**
 * For each size where ours finished: ours against the trivial cycle plus the
 * transfer, measured now. The trivial cycles are measured before ours, on
 * an n8n as fresh as it is for ours' smallest form (the peer's largest runs
 * leave n8n's heap large, which would slow the trivial cycle in ours' favour).
 */
export async function n8nFloorRows(emulator: EmulatorProcess, settings: CycleSettings, cycles: CycleRow[], trivial: TrivialCycles): Promise<FloorRow[]> {
	const rows: FloorRow[] = [];
	for (const size of settings.sizes) {
		const breakdown = cycles.find((row) => row.size === size && row.who === OURS)?.breakdown;
		if (!breakdown) continue;
		const transfer = await measureTransfer(emulator, size, settings);
		const row = {
			size,
			wireBytes: transfer.wireBytes,
			transferMs: transfer.ms,
			trivialMs: trivial.cycleMs,
			oursMs: breakdown.fromTickMs,
			breakdown,
			ratio: breakdown.fromTickMs / (trivial.cycleMs + transfer.ms),
		};
		rows.push(row);
		console.log(
			`floor  ${String(size).padStart(7)} inquiries  transfer ${row.transferMs.toFixed(0).padStart(5)} ms  trivial ${row.trivialMs} ms  ours from tick ${row.oursMs} ms  ratio ${row.ratio.toFixed(2)}`,
		);
	}
	return rows;
}

/** The targets table's row. */
export function floorTargetRow(rows: FloorRow[], sizes: number[]): string {
	const measured = sizes.map((size) => rows.find((row) => row.size === size));
	const met = measured.every((row) => row !== undefined && row.ratio <= FLOOR_TARGET);
	const figures = measured.map((row, index) => `${row ? `${row.ratio.toFixed(2)}x` : 'not measured'} at ${sizes[index].toLocaleString('en')}`).join(', ');
	return `| Poll cycle in n8n against n8n's own floor (a trivial polling trigger's cycle + the answer's transfer) | at most ${FLOOR_TARGET}x at each size | ${figures} | ${met ? 'met' : '**not met**'} |`;
}

/**
 * Where a cycle of ours goes beyond the floor, from the parts measured: the
 * fixed cost around the request against the trivial cycle, and the answer's
 * arrival in n8n against the transfer measured here.
 */
function whatBounds(rows: FloorRow[], trivial: TrivialCycles): string {
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

The time between the request and the last byte is the emulator serving the
answer while the trigger reads it as it arrives; when it exceeds the plain
transfer, the reading in n8n's process (its HTTP stack and the trigger's
scanner, on a machine whose ${cpus().length} cores are shared) keeps up more slowly
than a bare socket read. The time after the last byte is the trigger
planning its cursor, flattening what it emits, and n8n saving the state and
starting the execution.`;
}

export function floorSection(rows: FloorRow[], trivial: TrivialCycles): string {
	const table = rows.map(
		(row) =>
			`| ${row.size.toLocaleString('en')} | ${(row.wireBytes / 1e6).toFixed(1)} MB | ${ms(row.transferMs)} | ${ms(row.trivialMs)} | ${ms(row.trivialMs + row.transferMs)} | ${ms(row.oursMs)} | **${row.ratio.toFixed(2)}x** |`,
	);
	const parts = [
		`| trivial trigger | ${ms(trivial.tickToPollMs)} (to the poll) | - | ${ms(trivial.pollToStartMs)} (poll to start) | ${ms(trivial.executionMs)} | ${ms(trivial.cycleMs)} |`,
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
arrive and not parsed, measured in this run (median). Trivial trigger:
${trivial.cycles} cycles, measured before any form was polled; ours: the
cycles of the section above.

| inquiries | answer | transfer | trivial cycle | floor | ours | ours / floor |
| --- | --- | --- | --- | --- | --- | --- |
${table.join('\n')}

Where each cycle goes (medians):

| cycle | cron tick to request | request to last byte | last byte to execution start | execution | whole cycle |
| --- | --- | --- | --- | --- | --- |
${parts.join('\n')}${whatBounds(rows, trivial)}
`;
}
