/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-dangerous-functions -- n8n Cloud's limits are for nodes; this runs on Node itself (process, built-in modules, /proc, getconf) */
/**
 * What a process used of the machine, read from Linux's /proc: CPU time
 * (its own and its descendants', so n8n's task runners count with n8n) and
 * resident memory. The benchmark counts n8n, the emulator and the rest of
 * the machine apart, since they share two cores.
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

/** Clock ticks per second of /proc's CPU times (USER_HZ). */
let ticksPerSecond: number | undefined;
function clockTicks(): number {
	if (ticksPerSecond === undefined) {
		const fromGetconf = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim());
		ticksPerSecond = Number.isFinite(fromGetconf) && fromGetconf > 0 ? fromGetconf : 100;
	}
	return ticksPerSecond;
}

export interface ProcStat {
	pid: number;
	ppid: number;
	/** User plus system CPU time, in clock ticks. */
	cpuTicks: number;
}

/**
 * One line of /proc/<pid>/stat. The command name is in parentheses and may
 * itself hold spaces and parentheses, so the fields are counted from the
 * last closing parenthesis: state, ppid, ... utime is the 14th field, stime
 * the 15th.
 */
export function parseProcStat(line: string): ProcStat | undefined {
	const open = line.indexOf('(');
	const close = line.lastIndexOf(')');
	if (open < 0 || close < open) return undefined;
	const pid = Number(line.slice(0, open).trim());
	const rest = line.slice(close + 2).split(' ');
	// rest[0] is field 3 (state): field n is rest[n - 3].
	const ppid = Number(rest[1]);
	const cpuTicks = Number(rest[11]) + Number(rest[12]);
	if (![pid, ppid, cpuTicks].every(Number.isFinite)) return undefined;
	return { pid, ppid, cpuTicks };
}

/** The resident set from /proc/<pid>/status ("VmRSS:   123456 kB"), in bytes. */
export function parseResidentBytes(status: string): number | undefined {
	const line = status.split('\n').find((text) => text.startsWith('VmRSS:'));
	const kilobytes =
		line === undefined ? Number.NaN : Number(line.slice('VmRSS:'.length).trim().split(/\s+/)[0]);
	return Number.isFinite(kilobytes) ? kilobytes * 1024 : undefined;
}

/** The busy and total clock ticks of the whole machine, from the first line of /proc/stat. */
export function parseMachineTicks(stat: string): { busy: number; total: number } | undefined {
	const first = stat.split('\n')[0] ?? '';
	if (!first.startsWith('cpu ')) return undefined;
	const values = first.slice(4).trim().split(/\s+/).map(Number);
	if (values.length < 4 || !values.every(Number.isFinite)) return undefined;
	const total = values.reduce((sum, value) => sum + value, 0);
	// user nice system idle iowait ...: idle and iowait are the time nobody ran.
	const idle = values[3] + (values[4] ?? 0);
	return { busy: total - idle, total };
}

function allProcesses(): ProcStat[] {
	const stats: ProcStat[] = [];
	for (const entry of readdirSync('/proc')) {
		if (!/^\d+$/.test(entry)) continue;
		try {
			const stat = parseProcStat(readFileSync(`/proc/${entry}/stat`, 'utf8'));
			if (stat) stats.push(stat);
		} catch {
			// The process ended while the list was read.
		}
	}
	return stats;
}

/** The process and all its descendants that are running now. */
export function processTree(stats: readonly ProcStat[], root: number): ProcStat[] {
	const children = new Map<number, ProcStat[]>();
	for (const stat of stats) children.set(stat.ppid, [...(children.get(stat.ppid) ?? []), stat]);
	const tree: ProcStat[] = [];
	const queue = stats.filter((stat) => stat.pid === root);
	while (queue.length > 0) {
		const next = queue.shift() as ProcStat;
		tree.push(next);
		queue.push(...(children.get(next.pid) ?? []));
	}
	return tree;
}

/**
 * CPU milliseconds the processes `roots` and their descendants have used,
 * per root. A descendant that ended between two readings takes its time
 * with it; n8n's task runners live as long as n8n, so that is rare.
 */
export function cpuMsOfTrees(roots: readonly number[]): number[] {
	const stats = allProcesses();
	const msPerTick = 1000 / clockTicks();
	return roots.map(
		(root) => processTree(stats, root).reduce((sum, stat) => sum + stat.cpuTicks, 0) * msPerTick,
	);
}

export function residentBytesOf(pid: number): number | undefined {
	try {
		return parseResidentBytes(readFileSync(`/proc/${pid}/status`, 'utf8'));
	} catch {
		return undefined;
	}
}

/** CPU milliseconds the whole machine has been busy, summed over its cores. */
export function machineBusyMs(): number {
	const ticks = parseMachineTicks(readFileSync('/proc/stat', 'utf8'));
	return ticks ? (ticks.busy * 1000) / clockTicks() : Number.NaN;
}

/** What the machine and some processes had used at one moment. */
export interface UsageSnapshot {
	atMs: number;
	machineBusyMs: number;
	/** Per root given: the CPU of the process and its descendants. */
	treesCpuMs: number[];
	/** This process alone (its children, the emulator and n8n, are roots of their own). */
	selfCpuMs: number;
}

export function usageSnapshot(roots: readonly number[]): UsageSnapshot {
	const self = process.cpuUsage();
	return {
		atMs: Date.now(),
		machineBusyMs: machineBusyMs(),
		treesCpuMs: cpuMsOfTrees(roots),
		selfCpuMs: (self.user + self.system) / 1000,
	};
}

export interface UsageBetween {
	wallMs: number;
	/** Per root, in cores (CPU ms per wall ms). */
	treesCores: number[];
	/** Every other process of the machine together, in cores: what shared the cores with the roots. */
	othersCores: number;
}

/** What was used between two snapshots of the same roots; /proc counts in ticks of 10 ms, so short spans are rough. */
export function usageBetween(before: UsageSnapshot, after: UsageSnapshot): UsageBetween {
	const wallMs = Math.max(1, after.atMs - before.atMs);
	const trees = after.treesCpuMs.map((ms, index) => ms - (before.treesCpuMs[index] ?? 0));
	const self = after.selfCpuMs - before.selfCpuMs;
	const others =
		after.machineBusyMs - before.machineBusyMs - trees.reduce((sum, ms) => sum + ms, 0) - self;
	return {
		wallMs,
		treesCores: trees.map((ms) => ms / wallMs),
		othersCores: Math.max(0, others / wallMs),
	};
}
