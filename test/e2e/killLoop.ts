/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-dangerous-functions -- n8n Cloud's limits are for nodes; this runs on Node itself (timers, process, built-in modules, child processes) */
import { execFileSync, spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

import { newInquiryWorkflow } from './workflows';
import { sleep } from '../support/sleep';
import type { Emulator } from '../support/useEmulator';

/**
 * Tools for the crash suite: a seeded random generator (a failing run is
 * replayed with its seed), SIGKILL of a process and everything it started
 * (as a container's death would), a look at the emulator's poll log, and
 * the inquiries an n8n execution carries whether it finished or not.
 */

export const INQUIRIES_PATH = '/V4/webservices/FormBuilderApi.php';

/**
 * How long the crash suite waits for n8n to do what takes it seconds on a
 * quiet machine (poll after a start, store and settle its executions, reach
 * a table lock, go idle): a bound on a hang. Beside heavy work a start of
 * n8n alone took over 5 minutes.
 */
export const CRASH_WAIT_BOUND_MS = 15 * 60_000;

/** mulberry32: small, fast, and the same sequence for the same seed on every machine. */
export function seededRandom(seed: number): {
	next: () => number;
	between: (min: number, max: number) => number;
	pick: <T>(items: readonly T[]) => T;
} {
	let state = seed >>> 0;
	const next = () => {
		state = (state + 0x6d2b79f5) >>> 0;
		let t = state;
		t = Math.imul(t ^ (t >>> 15), t | 1);
		t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
	};
	return {
		next,
		between: (min, max) => Math.floor(min + next() * (max - min + 1)),
		pick: (items) => items[Math.floor(next() * items.length)],
	};
}

/** The seed of this run: CRASH_SEED replays a run, otherwise a fresh one. */
export function crashSeed(): number {
	const given = Number(process.env.CRASH_SEED);
	return Number.isInteger(given) && given > 0 ? given : Math.floor(Math.random() * 2 ** 31) + 1;
}

/** Process ids started by `pid`, children first-level and below (read from /proc). */
function descendantsOf(pid: number): number[] {
	const parentOf = new Map<number, number>();
	for (const entry of readdirSync('/proc')) {
		if (!/^\d+$/.test(entry)) continue;
		try {
			// Field 4 of /proc/<pid>/stat is the parent; the name (field 2) may hold spaces, so read after its ')'.
			const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
			const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
			parentOf.set(Number(entry), Number(fields[1]));
		} catch {
			// the process ended while we looked
		}
	}
	const found: number[] = [];
	const walk = (parent: number) => {
		for (const [child, ppid] of parentOf) {
			if (ppid === parent) {
				found.push(child);
				walk(child);
			}
		}
	};
	walk(pid);
	return found;
}

/** SIGKILL a process and everything it started (n8n's task runner too), then wait for it to be gone. */
export async function killHard(child: {
	pid?: number;
	exitCode: number | null;
	signalCode: NodeJS.Signals | null;
	once: (event: 'exit', listener: () => void) => unknown;
}): Promise<void> {
	// A process that died of a signal keeps exitCode null: without the signal check this would wait for an exit already past.
	if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
	const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
	const family = [child.pid, ...descendantsOf(child.pid)];
	for (const pid of family) {
		try {
			process.kill(pid, 'SIGKILL');
		} catch {
			// already gone
		}
	}
	await exited;
}

export interface PollRecord {
	receivedAt: number;
	finishedAt?: number;
	status?: number;
}

/** The trigger's requests for the form's inquiries, in the order they arrived. */
export function pollsSeen(emu: Emulator): PollRecord[] {
	return emu.control.requests().filter((request) => request.path === INQUIRIES_PATH);
}

/** Waits until a poll that arrived after `since` is received (or also answered); undefined at the deadline. */
export async function waitForPoll(
	emu: Emulator,
	since: number,
	stage: 'received' | 'answered',
	timeoutMs: number,
): Promise<PollRecord | undefined> {
	const deadline = Date.now() + timeoutMs;
	while (Date.now() < deadline) {
		const poll = pollsSeen(emu).find(
			(p) => p.receivedAt >= since && (stage === 'received' || p.finishedAt !== undefined),
		);
		if (poll) return poll;
		await sleep(5);
	}
	return undefined;
}

/**
 * Waits until the last poll since `since` was answered `quietMs` ago and no
 * other poll is under way (a later poll starts the wait again); false at the
 * deadline.
 */
export async function waitForIdle(
	emu: Emulator,
	since: number,
	quietMs: number,
	timeoutMs: number,
): Promise<boolean> {
	const deadline = Date.now() + timeoutMs;
	while (Date.now() < deadline) {
		const polls = pollsSeen(emu).filter((p) => p.receivedAt >= since);
		const last = polls[polls.length - 1];
		if (last?.finishedAt !== undefined && Date.now() - last.finishedAt >= quietMs) return true;
		await sleep(5);
	}
	return false;
}

interface ExecutionItems {
	json: { inquiryId?: string };
}

export interface StoredExecution {
	id: string;
	status: string;
	data?: {
		resultData?: {
			runData?: Record<
				string,
				Array<{ source?: unknown[] | null; data?: { main?: ExecutionItems[][] } }>
			>;
		};
		executionData?: {
			nodeExecutionStack?: Array<{
				node: { name: string };
				source?: unknown;
				data: { main: ExecutionItems[][] };
			}>;
		};
	};
}

/** A node's run (or start) fed by no other node: the trigger's, whatever its name is now. */
function fedByNoNode(source: unknown): boolean {
	return (
		source === undefined ||
		source === null ||
		(Array.isArray(source) && (source.length === 0 || source[0] === null))
	);
}

/**
 * The inquiry ids an execution carries: from the trigger's run data once the
 * engine has taken it, else from the execution's start stack (what n8n stored
 * before it began, all a crashed execution may hold). The trigger is found
 * as the node no other node feeds, so a renamed trigger is found too.
 */
export function inquiryIdsOf(execution: StoredExecution): string[] {
	const ran = Object.values(execution.data?.resultData?.runData ?? {})
		.filter((runs) => fedByNoNode(runs[0]?.source))
		.flatMap((runs) => runs[0]?.data?.main?.[0] ?? []);
	const queued = (execution.data?.executionData?.nodeExecutionStack ?? [])
		.filter((entry) => fedByNoNode(entry.source))
		.flatMap((entry) => entry.data.main[0] ?? []);
	const ids = new Set<string>();
	for (const item of [...ran, ...queued]) {
		if (typeof item.json.inquiryId === 'string') ids.add(item.json.inquiryId);
	}
	return [...ids];
}

/** The names the trigger ran under in an execution (its name at the time). */
export function triggerNamesOf(execution: StoredExecution): string[] {
	return Object.entries(execution.data?.resultData?.runData ?? {})
		.filter(([, runs]) => fedByNoNode(runs[0]?.source))
		.map(([name]) => name);
}

/**
 * newInquiryWorkflow with a Wait node between the trigger and the end, so an
 * execution lasts `waitSeconds` and a kill can land while it runs. A wait
 * under 65 seconds stays in the process (n8n only parks longer ones).
 */
export function slowInquiryWorkflow(
	credential: { id: string; name: string },
	form: { appId: string; pageId: string },
	waitSeconds: number,
) {
	const workflow = newInquiryWorkflow(credential, form);
	const trigger = workflow.nodes[0] as { parameters: Record<string, unknown> };
	// The first poll emits the latest inquiry: that execution saves the cursor, so the state exists before the first kill.
	trigger.parameters.options = { firstPoll: 'latest', firstPollCount: 1 };
	return {
		...workflow,
		name: 'E2E crash: new inquiry, then a wait',
		nodes: [
			...workflow.nodes,
			{
				id: 'wait',
				name: 'Busy',
				type: 'n8n-nodes-base.wait',
				typeVersion: 1.1,
				position: [125, 0],
				parameters: { resume: 'timeInterval', amount: waitSeconds, unit: 'seconds' },
			},
		],
		connections: {
			'New Inquiry': { main: [[{ node: 'Busy', type: 'main', index: 0 }]] },
			Busy: { main: [[{ node: 'Received', type: 'main', index: 0 }]] },
		},
	};
}

/** Every id delivered, how many times, and which executions carry it. */
export function deliveries(
	executions: StoredExecution[],
): Map<string, Array<{ execution: string; status: string }>> {
	const byId = new Map<string, Array<{ execution: string; status: string }>>();
	for (const execution of executions) {
		for (const id of inquiryIdsOf(execution)) {
			const list = byId.get(id) ?? [];
			list.push({ execution: execution.id, status: execution.status });
			byId.set(id, list);
		}
	}
	return byId;
}

/** psql against the queue mode's PostgreSQL: one-off queries, and a session that holds a table lock. */
export function postgresClient(port: string, database = 'postgres') {
	const root = '/usr/lib/postgresql';
	const version = readdirSync(root).sort((a, b) => Number(b) - Number(a))[0];
	const psql = `${root}/${version}/bin/psql`;
	const args = [
		'-h',
		'127.0.0.1',
		'-p',
		port,
		'-U',
		'postgres',
		'-d',
		database,
		'-v',
		'ON_ERROR_STOP=1',
	];
	return {
		query(sql: string): string {
			return execFileSync(psql, [...args, '-At', '-c', sql], { encoding: 'utf8' }).trim();
		},
		/** Takes `lock` on `table` in an open transaction; the returned function rolls it back, releasing it. */
		async lockTable(table: string, lock: string): Promise<() => Promise<void>> {
			const session = spawn(psql, args, { stdio: ['pipe', 'pipe', 'pipe'] });
			let output = '';
			session.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
			session.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
			session.stdin.write(`BEGIN;\nLOCK TABLE ${table} IN ${lock} MODE;\n\\echo locked\n`);
			const deadline = Date.now() + CRASH_WAIT_BOUND_MS;
			while (!output.includes('locked')) {
				if (Date.now() > deadline || session.exitCode !== null)
					throw new Error(
						`could not lock ${table} within ${CRASH_WAIT_BOUND_MS / 60_000} minutes: ${output}`,
					);
				await sleep(20);
			}
			return async () => {
				const exited = new Promise<void>((resolve) => session.once('exit', () => resolve()));
				session.stdin.end('ROLLBACK;\n');
				await exited;
			};
		},
	};
}
