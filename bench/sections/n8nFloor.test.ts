import {
	floorSection,
	floorTargetRow,
	msSpread,
	n8nFloorRows,
	whatVaries,
	type FloorRow,
	type TrivialCycles,
} from './n8nFloor';
import { cronTick, nextTickOn, OURS, type CycleRow, type CycleSample } from './pollCycle';
import { median } from '../lib/median';

const machine = (othersCores: number, n8nMajorGcs = 0) => ({
	n8nCores: 0.3,
	emulatorCores: 0.1,
	othersCores,
	n8nMajorGcs,
});

function trivialCycles(cycleTimes: number[], stateBytes = 0): TrivialCycles {
	const parts = { tickToPollMs: 10, pollToStartMs: 20, executionMs: 50 };
	return {
		cycles: cycleTimes.length,
		stateBytes,
		cycleMs: median(cycleTimes),
		...parts,
		samples: cycleTimes.map((cycleMs) => ({ cycleMs, ...parts, ...machine(0.1) })),
	};
}

function row(size: number, oursMs: number, trivialMs: number, transferMs: number): FloorRow {
	const breakdown = {
		tickToRequestMs: 5,
		servedMs: transferMs,
		pollToStartMs: 60,
		executionMs: 10,
		fromTickMs: oursMs,
		transferMs,
	};
	return {
		size,
		wireBytes: size * 2000,
		transferMs,
		trivial: trivialCycles([trivialMs]),
		withState: trivialCycles([trivialMs], 41_000),
		oursMs,
		breakdown,
		ratio: oursMs / (trivialMs + transferMs),
	};
}

describe("n8n's own floor for a poll cycle", () => {
	it('counts a cycle from the whole second n8n scheduled the poll on', () => {
		expect(cronTick(Date.UTC(2026, 0, 1, 0, 0, 7, 30))).toBe(Date.UTC(2026, 0, 1, 0, 0, 7));
		expect(cronTick(Date.UTC(2026, 0, 1, 0, 0, 7, 900))).toBe(Date.UTC(2026, 0, 1, 0, 0, 7));
		// A timer that fires a hair before the second still belongs to it.
		expect(cronTick(Date.UTC(2026, 0, 1, 0, 0, 6, 990))).toBe(Date.UTC(2026, 0, 1, 0, 0, 7));
	});

	it('meets the target only when ours is within 1.2x of the floor at every size', () => {
		const met = floorTargetRow(
			[row(1_000, 110, 80, 20), row(10_000, 250, 80, 150)],
			[1_000, 10_000],
		);
		expect(met).toContain('1.10x at 1,000, 1.09x at 10,000');
		expect(met).toMatch(/\| met \|$/);
		const missed = floorTargetRow(
			[row(1_000, 110, 80, 20), row(10_000, 300, 80, 150)],
			[1_000, 10_000],
		);
		expect(missed).toMatch(/\*\*not met\*\* \|$/);
	});

	it('reports a size where ours did not finish as not measured, and the target as not met', () => {
		const line = floorTargetRow([row(1_000, 110, 80, 20)], [1_000, 10_000]);
		expect(line).toContain('not measured at 10,000');
		expect(line).toMatch(/\*\*not met\*\* \|$/);
	});

	it("finds the next tick on a poll's second, within this minute or the next", () => {
		const at = (second: number, ms = 0, minute = 0) => Date.UTC(2026, 0, 1, 0, minute, second, ms);
		expect(nextTickOn(30, at(10))).toBe(at(30));
		expect(nextTickOn(30, at(30))).toBe(at(30));
		expect(nextTickOn(30, at(30, 1))).toBe(at(30, 0, 1));
		expect(nextTickOn(5, at(50))).toBe(at(5, 0, 1));
	});

	it('gives a median with its 10th and 90th percentile, and one value alone', () => {
		expect(msSpread([130, 110, 120, 1_400, 115], 120)).toBe('120 ms (110 to 1,400)');
		expect(msSpread([42], 42)).toBe('42 ms');
		expect(msSpread(undefined, 42)).toBe('42 ms');
	});

	const sample = (fromTickMs: number, othersCores: number, transferMs = 20): CycleSample => ({
		tickToRequestMs: 20,
		servedMs: 40,
		pollToStartMs: 80,
		executionMs: 10,
		fromTickMs,
		transferMs,
		...machine(othersCores),
	});

	it('says what varies between cycles from what was measured: the spread, the first cycle, load from other processes', () => {
		const lines = whatVaries([
			{
				label: 'a',
				cycleMs: [200, 100, 110, 100, 105],
				machine: [machine(1, 1), machine(0), machine(0.6), machine(0), machine(0)],
			},
			{ label: 'b', cycleMs: [50, 50, 50], machine: [machine(0), machine(0), machine(0)] },
		]);
		expect(lines[0]).toBe(
			'Within a series the 90th percentile is 1.00x the 10th at the narrowest (b) and 2.00x at the widest (a).',
		);
		expect(lines[1]).toBe(
			"The first cycle after activation was the slowest of its series in 2 of 2 series; on average it took +45% against its series' median.",
		);
		// Loaded: +90% and +5%; the others: -5%, -5%, +0%, 0, 0, 0.
		// The cycle a major collection fell in: +90%; the others -5%, +5%, -5%, 0, 0, 0, 0.
		expect(lines[3]).toBe(
			"A major garbage collection of n8n's heap (its marking runs in steps on n8n's main thread, then pauses it) fell in 1 of 8 cycles; n8n runs one when its heap reaches a limit, so in whichever cycle allocates past it. Those cycles took +90% against their series' median on average, the 7 others -1%.",
		);
		expect(lines[4]).toBe(
			"In the cycles slower than their series' median n8n used 0.30 cores on average meanwhile, in the others 0.30: n8n spent about as much CPU in both, so the slow ones mostly waited (for a core, the emulator or the database).",
		);
		expect(lines[2]).toBe(
			"In 2 of 8 cycles other processes of the machine used 0.5 cores or more meanwhile; those cycles took +48% against their series' median on average, the 6 others -2%.",
		);
	});

	it('says whether a major garbage collection of n8n fell in any cycle, and nothing when n8n did not log them', () => {
		const series = (gcs: number) => [
			{ label: 'a', cycleMs: [100, 120], machine: [machine(0, gcs), machine(0, gcs)] },
		];
		expect(whatVaries(series(0))).toContain(
			"No major garbage collection of n8n's heap fell in any of the 2 cycles.",
		);
		expect(whatVaries(series(Number.NaN)).join(' ')).not.toContain('garbage collection');
		expect(whatVaries(series(1)).join(' ')).toContain(
			'fell in 2 of 2 cycles; n8n runs one when its heap reaches a limit, so in whichever cycle allocates past it. They took',
		);
	});

	it('sets each size of ours against the transfers fetched before its own cycles, and leaves out the peer and sizes with no floor', () => {
		const oursAt = (size: number, transfers: number[], fromTick: number[]): CycleRow => {
			const samples = transfers.map((transferMs, index) => sample(fromTick[index], 0, transferMs));
			return {
				size,
				who: OURS,
				cycles: samples.length,
				firstRunEmitted: 0,
				newEmitted: [],
				repeated: [],
				missed: [],
				wireBytes: size * 1_900,
				samples,
				breakdown: { ...samples[0], fromTickMs: median(fromTick), transferMs: median(transfers) },
			};
		};
		const peer: CycleRow = { ...oursAt(1_000, [5], [900]), who: 'peer' };
		const alongside = new Map([
			[1_000, { trivial: trivialCycles([90]), withState: trivialCycles([95], 41_000) }],
			[100_000, { trivial: trivialCycles([100]), withState: trivialCycles([110], 41_000) }],
		]);
		const rows = n8nFloorRows(
			[
				oursAt(1_000, [4, 3, 5], [120, 110, 130]),
				peer,
				oursAt(10_000, [60], [200]), // no trivial cycles alongside: no floor to set it against
				oursAt(100_000, [700, 1_500, 650], [2_000, 2_100, 1_900]),
			],
			alongside,
		);
		expect(rows.map((row) => row.size)).toEqual([1_000, 100_000]);
		expect(rows[0]).toMatchObject({ transferMs: 4, wireBytes: 1_900_000 });
		expect(rows[0].ratio).toBeCloseTo(120 / (90 + 4));
		expect(rows[1].transferMs).toBe(700);
		expect(rows[1].ratio).toBeCloseTo(2_000 / (100 + 700));
	});

	it('reports every figure with its spread and each cycle in order, each size against the trivial cycles measured alongside it', () => {
		const floor = {
			...row(1_000, 110, 80, 20),
			trivial: trivialCycles([70, 80, 95]),
			withState: trivialCycles([85, 90, 100], 41_000),
			receiving: trivialCycles([150, 160, 170]),
			// The slowest cycle of ours met the slowest transfer: each cycle is set against its own.
			samples: [sample(100, 0.1), sample(110, 0.2), { ...sample(150, 0.9, 45), n8nMajorGcs: 1 }],
		};
		const later = {
			...row(10_000, 120, 30, 60),
			trivial: trivialCycles([25, 30, 40]),
			withState: trivialCycles([35, 40, 45], 41_000),
		};
		const receivingLater = floorSection([{ ...later, receiving: trivialCycles([95, 100, 110]) }]);
		expect(receivingLater).toContain(
			"The trivial trigger receiving the same answer inside n8n took 100 ms a cycle: 70 ms more than without it, against a transfer of 60 ms in the benchmark's own process; ours is 1.20x that cycle.",
		);
		const section = floorSection([floor, later]);
		expect(section).toContain(
			'| 1,000 | 2.0 MB | 20 ms (20 to 45) | 80 ms (70 to 95) | 100 ms | 110 ms (100 to 150) | **1.10x** (1.00 to 1.20) | 1.00x |',
		);
		expect(section).toContain(
			'| 10,000 | 20.0 MB | 60 ms | 30 ms (25 to 40) | 90 ms | 120 ms | **1.33x** | 1.20x | - | - |',
		);
		// Ours against the trivial cycle that received the answer inside n8n: 110 / 160.
		expect(section).toContain('| **1.10x** (1.00 to 1.20) | 1.00x | 160 ms (150 to 170) | 0.69x |');
		expect(section).toContain(
			'| trivial trigger receiving the answer in n8n, alongside 1,000 | 10 ms (to the poll) | - | 20 ms (poll to start) | 50 ms | 160 ms (150 to 170) |',
		);
		expect(section).toContain(
			'| trivial trigger receiving the answer in n8n, alongside 1,000 | 150, 160, 170 |',
		);
		expect(section).not.toContain('receiving the answer in n8n, alongside 10,000');
		expect(section).toContain(
			'| App Builder Trigger at 1,000 | 100, 110, 150 | 0.10, 0.20, 0.90 | 0.10, 0.10, 0.10 | 0.30, 0.30, 0.30 | 0, 0, 1 |',
		);
		expect(section).toContain(
			'| trivial trigger, alongside 1,000 | 70, 80, 95 | 0.10, 0.10, 0.10 |',
		);
		expect(section).toContain(
			'| trivial trigger, 41,000 B of state, alongside 10,000 | 35, 40, 45 | 0.10, 0.10, 0.10 |',
		);
		expect(section).toContain('What varies between cycles and between runs, as measured here:');
		// Only 10,000 misses the target, and it is set against the trivial cycle of its own minutes.
		expect(section).toContain(
			'- At 10,000: ours takes 120 ms against a floor of 90 ms. Around the request (tick to request 5 ms, last byte to execution start 60 ms, execution 10 ms) it spends 75 ms, against 30 ms for the whole trivial cycle in the same minutes',
		);
		expect(section).not.toContain('- At 1,000:');
		expect(section).not.toContain('The trivial trigger receiving the same answer inside n8n took');
	});
});
