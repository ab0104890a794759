import type { CpuProfile } from '../lib/cpuProfile';
import {
	CURSOR,
	cycleOf,
	cycleProfileSection,
	N8N_CORE,
	N8N_SAVING,
	NATIVE,
	READING,
	SOCKETS,
	seriesTable,
	type ProfiledSeries,
} from './cycleProfile';

const OURS = 'file:///tmp/n8n-e2e-x/.n8n/nodes/node_modules/n8n-nodes-appbuilder/dist/nodes';
const N8N = 'file:///home/u/.cache/n8n/node_modules';

const frame = (id: number, functionName: string, url: string, children: number[] = []) => ({
	id,
	callFrame: { functionName, url },
	children,
});

/**
 * A cycle in n8n: a sample every millisecond from 0 to 100 ms (the tick at
 * 10, the request at 20, its last byte at 50, the execution from 70 to 80).
 */
function cycleProfile(): CpuProfile {
	const nodes = [
		frame(0, '(root)', '', [1, 2, 3, 4, 6, 8, 9]),
		frame(1, '(idle)', ''),
		frame(2, 'poll', `${OURS}/AppBuilder/trigger/pollWatchedForms.js`),
		frame(3, 'push', `${OURS}/shared/jsonStream/jsonStreamScanner.js`, [5]),
		frame(4, 'stepCursor', `${OURS}/AppBuilder/trigger/cursor/cursor.js`),
		frame(5, 'readableAddChunk', 'node:internal/streams/readable'),
		frame(6, 'runWorkflow', `${N8N}/n8n-core/dist/execution-engine/workflow-execute.js`, [7]),
		frame(7, 'save', `${N8N}/@n8n/typeorm/repository/Repository.js`),
		frame(8, '(garbage collector)', ''),
		frame(9, '(program)', ''),
	];
	const samples: number[] = [];
	for (let ms = 0; ms < 100; ms++) {
		if (ms < 10) samples.push(1);
		else if (ms < 20) samples.push(ms % 2 === 0 ? 2 : 9);
		else if (ms < 50) samples.push(ms % 3 === 0 ? 5 : 3);
		else if (ms < 70) samples.push(ms < 60 ? 4 : 8);
		else if (ms < 80) samples.push(ms % 2 === 0 ? 6 : 7);
		else samples.push(1);
	}
	return {
		nodes,
		startTime: 5_000_000,
		endTime: 5_100_000,
		samples,
		timeDeltas: samples.map((_, index) => (index === 0 ? 0 : 1_000)),
	};
}

describe("where a poll cycle's time goes in n8n", () => {
	// The wall clock at 1,000,000 ms is the profile's 5,000,000 µs.
	const toClock = (wallMs: number) => (wallMs - 1_000_000) * 1000 + 5_000_000;
	const cycle = cycleOf(
		cycleProfile(),
		[1_000_010, 1_000_020, 1_000_050, 1_000_070, 1_000_080],
		toClock,
	);

	it("cuts a cycle's profile at the moments it passed, and charges each stretch's samples to their parts", () => {
		const ms = (stretch: keyof typeof cycle.profile, part: string) =>
			cycle.profile[stretch].parts.find((one) => one.name === part)?.ms ?? 0;
		expect(cycle.wallMs).toEqual({
			'cron tick to request': 10,
			'request to last byte': 30,
			'last byte to execution start': 20,
			execution: 10,
			'after the execution': 20,
		});
		expect(cycle.profile['cron tick to request'].busyMs).toBe(10);
		expect(ms('cron tick to request', NATIVE)).toBe(5);
		// Node's stream code called by the scan counts for Node's sockets and streams, the innermost named frame.
		expect(ms('request to last byte', READING)).toBe(20);
		expect(ms('request to last byte', SOCKETS)).toBe(10);
		expect(ms('last byte to execution start', CURSOR)).toBe(10);
		expect(ms('last byte to execution start', 'garbage collection')).toBe(10);
		expect(ms('execution', N8N_CORE)).toBe(5);
		expect(ms('execution', N8N_SAVING)).toBe(5);
		// The last sample has no successor: the stretch after the execution is 19 ms of idle.
		expect(cycle.profile['after the execution']).toEqual({ busyMs: 0, idleMs: 19, parts: [] });
	});

	it('tables the mean of the cycles, only the parts that took time, and the trivial trigger without an answer', () => {
		const ours: ProfiledSeries = { label: 'ours at 1,000', size: 1_000, cycles: [cycle, cycle] };
		const table = seriesTable(ours);
		expect(table).toContain(
			'| ours at 1,000 (ms per cycle) | cron tick to request | request to last byte |',
		);
		expect(table).toContain(`| ${READING} | 0.0 | 20 | 0.0 | 0.0 | 0.0 |`);
		expect(table).toContain('| **busy** | **10** | **30** | **20** | **10** | **0.0** |');
		expect(table).not.toContain('flattening');
		const trivial = seriesTable({ label: 'trivial trigger', cycles: [cycle] });
		expect(trivial).toContain(
			'| cron tick to the poll | the poll to execution start | execution |',
		);
		expect(trivial).not.toContain('request to last byte');
		const section = cycleProfileSection([{ label: 'trivial trigger', cycles: [cycle] }, ours], {
			sizes: [1_000],
			cycles: 2,
			newPerCycle: 10,
			samplingIntervalUs: 200,
		});
		expect(section).toMatch(/^## Where a poll cycle's time goes in n8n\n/);
		expect(section).toContain(
			`While the answer arrives, at 1,000: ${READING} 20 ms; ${SOCKETS} 10 ms`,
		);
	});
});
