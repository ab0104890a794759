import {
	summarizeProfile,
	summarizeWindows,
	type CpuProfile,
	type ProfilePart,
} from './cpuProfile';

const frame = (id: number, functionName: string, url: string, children: number[] = []) => ({
	id,
	callFrame: { functionName, url },
	children,
});

/**
 * root ─ (idle) 1
 *      ─ (garbage collector) 2
 *      ─ poll [trigger] 3 ─ scan [scanner] 4 ─ Buffer.from [node:buffer] 5
 *                         ─ write [node:net] 6
 *      ─ (program) 7
 */
const PROFILE: CpuProfile = {
	nodes: [
		frame(0, '(root)', '', [1, 2, 3, 7]),
		frame(1, '(idle)', ''),
		frame(2, '(garbage collector)', ''),
		frame(3, 'pollOnce', 'file:///x/nodes/AppBuilder/trigger/triggerPoll.ts', [4, 6]),
		frame(4, 'push', 'file:///x/nodes/shared/jsonStream/jsonStreamScanner.ts', [5]),
		frame(5, 'from', 'node:buffer'),
		frame(6, 'writev', 'node:net'),
		frame(7, '(program)', ''),
	],
	startTime: 0,
	endTime: 100_000,
	// Each sample lasts until the next one: the deltas (µs) before samples 1..n give the durations of samples 0..n-1.
	samples: [1, 5, 4, 6, 2, 3, 7, 1],
	timeDeltas: [0, 10_000, 2_000, 3_000, 4_000, 5_000, 6_000, 7_000],
};

const PARTS: ProfilePart[] = [
	{ name: 'scan', matches: (url) => url.includes('/jsonStream/') },
	{ name: 'http', matches: (url) => url.startsWith('node:net') },
	{ name: 'trigger', matches: (url) => url.includes('/trigger/') },
];

describe('where a CPU profile spent its time', () => {
	it('charges each sample to the innermost frame of a named part, so Node code run for a part counts for it', () => {
		const summary = summarizeProfile(PROFILE, PARTS);
		const ms = Object.fromEntries(summary.parts.map((part) => [part.name, part.ms]));
		// Buffer.from (2 ms) under the scan, and the scan itself (3 ms).
		expect(ms.scan).toBe(5);
		expect(ms.http).toBe(4);
		expect(ms.trigger).toBe(6);
		expect(ms['garbage collection']).toBe(5);
		expect(ms.other).toBe(7);
	});

	it('keeps idle time apart from busy time and gives each part its share of the busy time', () => {
		const summary = summarizeProfile(PROFILE, PARTS);
		// The first idle sample lasts 10 ms; the last sample has no successor and counts for nothing.
		expect(summary.idleMs).toBe(10);
		expect(summary.busyMs).toBe(27);
		expect(summary.parts.map((part) => part.name)).toEqual([
			'scan',
			'http',
			'trigger',
			'garbage collection',
			'other',
		]);
		expect(summary.parts.reduce((sum, part) => sum + part.share, 0)).toBeCloseTo(1);
	});

	it('lets the first part that matches a frame have it', () => {
		const greedy: ProfilePart[] = [
			{ name: 'anything in nodes', matches: (url) => url.includes('/nodes/') },
			...PARTS,
		];
		const names = summarizeProfile(PROFILE, greedy).parts.map((part) => part.name);
		expect(names).toEqual(['anything in nodes', 'http', 'garbage collection', 'other']);
	});

	it('splits a profile into windows of its clock: a sample counts where it was taken, for as long as until the next', () => {
		// Samples are taken at 0, 10, 12, 15, 19, 24, 30 and 37 ms.
		const [first, second, third, none] = summarizeWindows(PROFILE, PARTS, [
			{ fromUs: 0, toUs: 15_000 },
			{ fromUs: 15_000, toUs: 30_000 },
			{ fromUs: 30_000, toUs: 40_000 },
			{ fromUs: 50_000, toUs: 60_000 },
		]);
		const msOf = (summary: typeof first) =>
			Object.fromEntries(summary.parts.map((part) => [part.name, part.ms]));
		expect(first.idleMs).toBe(10);
		expect(msOf(first)).toEqual({ scan: 5 });
		expect(msOf(second)).toEqual({ http: 4, trigger: 6, 'garbage collection': 5 });
		expect(msOf(third)).toEqual({ other: 7 });
		expect(none).toEqual({ busyMs: 0, idleMs: 0, parts: [] });
	});

	it('reads the windows of a profile that did not start at zero', () => {
		const later = { ...PROFILE, startTime: 1_000_000 };
		const [window] = summarizeWindows(later, PARTS, [{ fromUs: 1_015_000, toUs: 1_019_000 }]);
		expect(window.parts).toEqual([{ name: 'http', ms: 4, share: 1 }]);
	});
});
