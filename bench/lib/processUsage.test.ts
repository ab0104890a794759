/* eslint-disable @n8n/community-nodes/no-restricted-globals -- n8n Cloud's limits are for nodes; this test reads its own process */
import {
	cpuMsOfTrees,
	parseMachineTicks,
	parseProcStat,
	parseResidentBytes,
	processTree,
	residentBytesOf,
	usageBetween,
	usageSnapshot,
} from './processUsage';
import { metricSum, parseMetrics } from './prometheusText';

describe('what a process used, from /proc', () => {
	it('reads CPU ticks and the parent from a stat line, even when the command name holds spaces and parentheses', () => {
		const line =
			'4242 (node (n8n) main) S 4200 4242 4200 0 -1 4194560 1 0 0 0 1500 250 7 3 20 0 11 0 12345 1000 200 18446744073709551615';
		expect(parseProcStat(line)).toEqual({ pid: 4242, ppid: 4200, cpuTicks: 1750 });
		expect(parseProcStat('garbage')).toBeUndefined();
	});

	it('reads the resident set in bytes, and the busy and total ticks of the machine', () => {
		expect(
			parseResidentBytes('Name:\tnode\nVmPeak:\t  900 kB\nVmRSS:\t  123456 kB\nThreads: 11\n'),
		).toBe(123456 * 1024);
		expect(parseResidentBytes('Name:\tzombie\n')).toBeUndefined();
		expect(parseMachineTicks('cpu  100 5 50 800 45 0 0 0 0 0\ncpu0 1 2 3 4\n')).toEqual({
			busy: 155,
			total: 1000,
		});
	});

	it('follows a process to all its descendants, and leaves other trees out', () => {
		const stats = [
			{ pid: 1, ppid: 0, cpuTicks: 1 },
			{ pid: 10, ppid: 1, cpuTicks: 100 },
			{ pid: 11, ppid: 10, cpuTicks: 20 },
			{ pid: 12, ppid: 11, cpuTicks: 3 },
			{ pid: 20, ppid: 1, cpuTicks: 500 },
		];
		expect(processTree(stats, 10).map((stat) => stat.pid)).toEqual([10, 11, 12]);
		expect(processTree(stats, 99)).toEqual([]);
	});

	it("reads this very process: its CPU time grows as Node's own count does, and its memory is there", () => {
		// Node's count brackets the two readings, so it is the larger; both count every thread of the process.
		const start = process.cpuUsage();
		const [before] = cpuMsOfTrees([process.pid]);
		let spin = 0;
		while ((process.cpuUsage(start).user + process.cpuUsage(start).system) / 1000 < 250) spin++;
		const [after] = cpuMsOfTrees([process.pid]);
		const used = process.cpuUsage(start);
		expect(spin).toBeGreaterThan(0);
		expect(after - before).toBeGreaterThanOrEqual(180);
		// /proc counts in clock ticks of 10 ms.
		expect(after - before).toBeLessThanOrEqual((used.user + used.system) / 1000 + 20);
		expect(residentBytesOf(process.pid)).toBeGreaterThan(10 * 2 ** 20);
	});
});

describe("n8n's metrics, as Prometheus text", () => {
	const text = `# HELP n8n_poll_trigger_duration_seconds Duration
# TYPE n8n_poll_trigger_duration_seconds histogram
n8n_poll_trigger_duration_seconds_bucket{le="0.5",node_type="n8n-nodes-appbuilder.appBuilderTrigger",status="success"} 7
n8n_poll_trigger_duration_seconds_bucket{le="+Inf",node_type="n8n-nodes-appbuilder.appBuilderTrigger",status="success"} 9
n8n_poll_trigger_duration_seconds_sum{node_type="n8n-nodes-appbuilder.appBuilderTrigger",status="success"} 3.5
n8n_poll_trigger_duration_seconds_count{node_type="n8n-nodes-appbuilder.appBuilderTrigger",status="success"} 9
n8n_poll_trigger_duration_seconds_count{node_type="n8n-nodes-appbuilder.appBuilderTrigger",status="error"} 2
n8n_poll_trigger_overlapping_ticks_total{node_type="odd \\"quoted\\" {type}"} 4
process_resident_memory_bytes 123456789
nodejs_eventloop_lag_p99_seconds NaN
`;

	it('reads names, labels (quotes and braces inside values included) and values', () => {
		const samples = parseMetrics(text);
		expect(samples).toHaveLength(8);
		expect(samples[1]).toEqual({
			name: 'n8n_poll_trigger_duration_seconds_bucket',
			labels: {
				le: '+Inf',
				node_type: 'n8n-nodes-appbuilder.appBuilderTrigger',
				status: 'success',
			},
			value: 9,
		});
		expect(samples[5].labels.node_type).toBe('odd "quoted" {type}');
		expect(samples[6]).toEqual({
			name: 'process_resident_memory_bytes',
			labels: {},
			value: 123456789,
		});
		expect(Number.isNaN(samples[7].value)).toBe(true);
	});

	it('sums the samples of a metric whose labels match', () => {
		const samples = parseMetrics(text);
		expect(metricSum(samples, 'n8n_poll_trigger_duration_seconds_count')).toBe(11);
		expect(
			metricSum(samples, 'n8n_poll_trigger_duration_seconds_count', { status: 'success' }),
		).toBe(9);
		expect(metricSum(samples, 'n8n_poll_trigger_overlapping_ticks_total')).toBe(4);
		expect(metricSum(samples, 'no_such_metric')).toBe(0);
	});

	it('splits what the machine used between the roots, this process and everything else, in cores', () => {
		const before = { atMs: 1_000, machineBusyMs: 10_000, treesCpuMs: [500, 200], selfCpuMs: 100 };
		const after = { atMs: 3_000, machineBusyMs: 13_000, treesCpuMs: [1_500, 600], selfCpuMs: 300 };
		// 3,000 ms busy in 2,000 ms: 1,000 + 400 by the roots, 200 by this process, 1,400 by the rest.
		expect(usageBetween(before, after)).toEqual({
			wallMs: 2_000,
			treesCores: [0.5, 0.2],
			othersCores: 0.7,
		});
		const now = usageSnapshot([process.pid]);
		expect(now.treesCpuMs).toHaveLength(1);
		expect(now.machineBusyMs).toBeGreaterThan(0);
	});
});
