import { floorTargetRow, type FloorRow } from './n8nFloorCycle';
import { cronTick } from './pollCycleInN8n';

function row(size: number, oursMs: number, trivialMs: number, transferMs: number): FloorRow {
	const breakdown = {
		tickToRequestMs: 5,
		servedMs: transferMs,
		pollToStartMs: 60,
		executionMs: 10,
		fromTickMs: oursMs,
	};
	return {
		size,
		wireBytes: size * 2000,
		transferMs,
		trivialMs,
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
});
