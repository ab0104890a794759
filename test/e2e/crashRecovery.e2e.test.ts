/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports, no-console -- n8n Cloud's limits are for nodes; this runs on Node itself (timers, process, built-in modules); it prints its progress and figures */
import { writeFileSync } from 'node:fs';

import { credentialDataFor, startEmulator, FIXTURE } from '../emulator';
import { recordedTest, type CrashRecord } from './crashRecord';
import {
	CRASH_WAIT_BOUND_MS,
	crashSeed,
	deliveries,
	inquiryIdsOf,
	killHard,
	pollsSeen,
	postgresClient,
	seededRandom,
	slowInquiryWorkflow,
	triggerNamesOf,
	waitForIdle,
	waitForPoll,
	type StoredExecution,
} from './killLoop';
import { sleep } from '../support/sleep';
import {
	committedPosition,
	DURABLE_CURSORS,
	durablePlan,
	FAST_SCHEDULER,
	FOUR_POLLS_A_MINUTE,
	HELD_POLL_MS,
	observeHeldCommit,
	renameNode,
	type DurableAim,
	type HeldCommit,
} from './durableCursors';
import { N8nInstance } from './n8nInstance';
import { N8N_VERSIONS } from './n8nVersions';
import { startQueueServices } from './queueServices';
import type { Emulator } from '../support/useEmulator';
import { packedTarball } from './useRealN8n';

type Random = ReturnType<typeof seededRandom>;
type Worker = Awaited<ReturnType<N8nInstance['startWorker']>>;

const form = { appId: FIXTURE.appId, pageId: FIXTURE.formPageId };
/** How long each execution runs (Wait node), so kills can land inside it. */
const WAIT_SECONDS = 4;
const KILLS = Number(process.env.CRASH_KILLS ?? 20);
const WORKER_KILLS = Number(process.env.CRASH_WORKER_KILLS ?? 4);
/** Fewer than the default run's: each aim of the durable plan once, and two more (see durablePlan). */
const DURABLE_KILLS = Number(process.env.CRASH_DURABLE_KILLS ?? 8);
const SEED = crashSeed();
/**
 * n8n activates a workflow (and runs its first poll) under a publication
 * lease; a kill inside it leaves the lease held, and the next start waits it
 * out (2 minutes by default) before it activates and polls again.
 */
const SHORT_PUBLICATION_LEASE = { N8N_WORKFLOW_PUBLICATION_OUTBOX_LEASE_SECONDS: '10' };
/**
 * Even with a short lease, a start after some kills went minutes without a
 * poll; with the publication service off, n8n activates its workflows at
 * start-up the way 1.x does, so every start polls at once and 20 kills fit in
 * CI. Where n8n saves the cursor relative to the execution does not depend on
 * this setting (trigger-execution-context.factory.js, __emit).
 */
const ACTIVATE_AT_START = { N8N_USE_WORKFLOW_PUBLICATION_SERVICE: 'false' };
/** Bull's lock and stalled-job check in queue mode, shortened from a minute and 30 s. */
const FAST_STALL = {
	QUEUE_WORKER_LOCK_DURATION: '5000',
	QUEUE_WORKER_LOCK_RENEW_TIME: '1000',
	QUEUE_WORKER_STALLED_INTERVAL: '5000',
};

/** How a kill within 50 ms of the poll's answer is told: n8n saving the position and storing the execution. */
const HANDOFF_WINDOW = '(cursor save / execution insert)';
/** How many more kills the durable run aims at the hand-over when none of its planned ones landed there. */
const HANDOFF_AIMS_MORE = 4;

/**
 * Where a kill is aimed:
 * - poll: the emulator holds the trigger's request; the kill lands while n8n waits for the answer;
 * - handoff: 0-40 ms after the answer, while n8n saves the cursor and stores the execution;
 * - execution: while the execution the poll started runs (its Wait node);
 * - random: any moment from the spawn on, start-up included.
 */
const AIMS = ['poll', 'handoff', 'execution', 'random'] as const;
type Aim = (typeof AIMS)[number];

interface Kill {
	cycle: number;
	aim: Aim | DurableAim;
	/** What was happening when the signal went out, as the emulator saw it. */
	landed: string;
	msAfterSpawn: number;
	/** How many leads had been added when the kill went out. */
	leadsSoFar?: number;
}

/** The kill that just went out, `spawnedAt` being when n8n was started. */
function killOf(
	cycle: number,
	aim: Kill['aim'],
	landed: string,
	spawnedAt: number,
	leadsSoFar: number,
): Kill {
	return { cycle, aim, landed, msAfterSpawn: Date.now() - spawnedAt, leadsSoFar };
}

/** Leads the emulator holds, by id, in the order they were added. */
function addLeads(emu: Emulator, added: string[], count: number): void {
	for (let i = 0; i < count; i++) added.push(emu.control.addInquiry({ ...form })._id);
}

/**
 * The aims in a seeded order: one kill in ten on a held poll (a start after
 * such a kill may not poll for minutes, see docs/reliability.md), the rest shared.
 */
function killPlan(random: Random, kills: number): Aim[] {
	const polls = Math.max(1, Math.round(kills / 10));
	const others = AIMS.filter((aim) => aim !== 'poll');
	const plan: Aim[] = [
		...Array<Aim>(polls).fill('poll'),
		...Array.from({ length: kills - polls }, (_, i) => others[i % others.length]),
	];
	for (let i = plan.length - 1; i > 0; i--) {
		const j = Math.floor(random.next() * (i + 1));
		[plan[i], plan[j]] = [plan[j], plan[i]];
	}
	return plan;
}

function landingOf(emu: Emulator, since: number): string {
	const polls = pollsSeen(emu).filter((p) => p.receivedAt >= since);
	const last = polls[polls.length - 1];
	if (last === undefined) return 'start-up, before the first poll';
	if (last.finishedAt === undefined) return 'during the poll (answer not sent)';
	const after = Date.now() - last.finishedAt;
	if (after <= 50) return `${after} ms after the poll's answer ${HANDOFF_WINDOW}`;
	if (after <= WAIT_SECONDS * 1000)
		return `${after} ms after the poll's answer (execution running)`;
	return `${after} ms after the poll's answer (idle)`;
}

/**
 * Every execution of the workflow with its data. The public API's list
 * leaves some out (running ones, and in queue mode one whose job stalled),
 * so the editor's list names them all and the rest are read one by one.
 */
async function allExecutions(
	n8n: N8nInstance,
	workflowId: string,
): Promise<{ executions: StoredExecution[]; open: number }> {
	const listed = (await n8n.executions(workflowId)) as StoredExecution[];
	const filter = encodeURIComponent(JSON.stringify({ workflowId }));
	const all = { results: [] as Array<{ id: string; status: string }> };
	// The editor's list pages by at most 100 (n8n 2.41 refuses more), newest first: each page asks for ids below the last one seen.
	for (let lastId: string | undefined; ; ) {
		const page = (await n8n.rest(
			'GET',
			`/rest/executions?filter=${filter}&limit=100${lastId === undefined ? '' : `&lastId=${lastId}`}`,
		)) as {
			results: Array<{ id: string; status: string }>;
		};
		all.results.push(...page.results);
		if (page.results.length < 100) break;
		lastId = String(Math.min(...page.results.map((e) => Number(e.id))));
	}
	const known = new Set(listed.map((e) => String(e.id)));
	for (const summary of all.results) {
		if (!known.has(String(summary.id)))
			listed.push(
				(await n8n.api('GET', `/executions/${summary.id}?includeData=true`)) as StoredExecution,
			);
	}
	const open = all.results.filter((e) =>
		['new', 'running', 'waiting', 'unknown'].includes(e.status),
	).length;
	return { executions: listed.sort((a, b) => Number(a.id) - Number(b.id)), open };
}

/** Waits until no execution of the workflow is still new, running or waiting. */
async function settled(
	n8n: N8nInstance,
	workflowId: string,
	timeoutMs: number,
): Promise<StoredExecution[]> {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		const { executions, open } = await allExecutions(n8n, workflowId);
		if (open === 0 || Date.now() > deadline) return executions;
		await sleep(1000);
	}
}

/** A last start: its first poll picks up whatever is left, and the executions it starts finish. */
async function lastStartSettled(
	n8n: N8nInstance,
	emu: Emulator,
	workflowId: string,
): Promise<StoredExecution[]> {
	const lastStart = Date.now();
	await n8n.boot();
	expect(await waitForPoll(emu, lastStart, 'answered', CRASH_WAIT_BOUND_MS)).toBeDefined();
	await sleep(1000);
	await n8n.logIn();
	return await settled(n8n, workflowId, CRASH_WAIT_BOUND_MS);
}
/** Each execution with its status and the leads it carries, by the order they were added. */
function perExecution(executions: StoredExecution[], added: string[]) {
	return executions.map(
		(e) =>
			`${e.id} ${e.status}: ${inquiryIdsOf(e)
				.map((lead) => added.indexOf(lead))
				.join(',')}`,
	);
}

/** Each lead delivered more than once, with the executions and their status. */
function duplicatesOf(executions: StoredExecution[]) {
	return [...deliveries(executions)]
		.filter(([, list]) => list.length > 1)
		.map(([id, list]) => ({ id, deliveries: list }));
}

function statusCounts(executions: StoredExecution[]): Record<string, number> {
	const counts: Record<string, number> = {};
	for (const execution of executions)
		counts[execution.status] = (counts[execution.status] ?? 0) + 1;
	return counts;
}

/** n8n started without waiting; `failFast` ends a wait at once when the start fails on its own. */
function bootInBackground(n8n: N8nInstance, cycle: number) {
	const boot: { error?: string; done: Promise<void> } = { done: Promise.resolve() };
	boot.done = n8n.boot().then(
		() => undefined,
		(error: Error) => {
			boot.error = error.message;
		},
	);
	const failFast = async <T>(wait: Promise<T>): Promise<T> =>
		await Promise.race([
			wait,
			boot.done.then(async () =>
				boot.error === undefined
					? await wait
					: Promise.reject(
							new Error(`cycle ${cycle}: n8n did not start: ${boot.error.slice(-3000)}`),
						),
			),
		]);
	return { boot, failFast };
}

/**
 * n8n killed with SIGKILL over and over, at seeded random moments aimed at
 * the poll, the hand-over from poll to execution and the execution itself,
 * while leads keep arriving. Afterwards every lead is in an execution n8n
 * stored (successful, or crashed and retryable). Replay a run with
 * CRASH_SEED=<the printed seed>.
 */
describe(`the trigger when n8n is killed mid-poll (seed ${SEED})`, () => {
	let emu: Emulator;
	let tarball: string;

	beforeAll(() => {
		console.log(`crash suite seed: ${SEED} (replay with CRASH_SEED=${SEED})`);
		tarball = packedTarball();
	});

	beforeEach(async () => {
		emu = await startEmulator();
	});

	afterEach(async () => {
		await emu?.close();
	});

	it(
		'single instance: every lead added across the kills is in a stored execution, none succeeds twice',
		...recordedTest('single', SEED, SEED, async (record) => {
			const started = Date.now();
			const random = seededRandom(SEED);
			const n8n = await N8nInstance.start({
				packageTarball: tarball,
				env: {
					...SHORT_PUBLICATION_LEASE,
					...ACTIVATE_AT_START,
					N8N_LOG_LEVEL: process.env.CRASH_N8N_LOG_LEVEL ?? 'info',
				},
			});
			const added: string[] = [];
			const kills: Kill[] = [];
			watchRun(record, emu, kills, () => n8n.logs());
			try {
				addLeads(emu, added, 1);
				const workflowId = await publishSlowWorkflow(n8n, emu, WAIT_SECONDS);
				// The first poll emits the latest lead; once that execution is stored the cursor is too.
				const first = await settledWithSuccess(n8n, workflowId);
				expect(first).toBe(true);
				// From here on each cycle starts n8n and kills it.
				await killHard(n8n.process!);

				for (const [cycle, aim] of killPlan(random, KILLS).entries()) {
					const spawnedAt = Date.now();
					// Leads that arrive while n8n is down; the aims that need an execution get at least one.
					addLeads(emu, added, random.between(aim === 'execution' || aim === 'handoff' ? 1 : 0, 3));
					if (aim === 'poll')
						emu.control.injectFault({
							endpoint: 'formBuilderInquiries',
							kind: 'latency',
							ms: 30_000,
							times: 1,
						});
					const leadWhileUp = random.next() < 0.5 ? random.between(0, 10_000) : undefined;
					const lateLead =
						leadWhileUp === undefined
							? undefined
							: setTimeout(() => addLeads(emu, added, 1), leadWhileUp);
					// A boot cut short by the kill is expected; one that fails on its own fails the cycle.
					const { boot, failFast } = bootInBackground(n8n, cycle);

					if (aim === 'random') {
						await sleep(random.between(500, 25_000));
					} else {
						const poll = await failFast(
							waitForPoll(
								emu,
								spawnedAt,
								aim === 'poll' ? 'received' : 'answered',
								CRASH_WAIT_BOUND_MS,
							),
						);
						if (poll === undefined)
							throw new Error(
								`cycle ${cycle}: n8n did not poll within ${CRASH_WAIT_BOUND_MS / 60_000} minutes of its start`,
							);
						if (aim === 'poll') await sleep(random.between(0, 1000));
						if (aim === 'handoff') await sleep(random.between(0, 40));
						if (aim === 'execution') await sleep(random.between(300, WAIT_SECONDS * 1000 - 300));
					}
					const landed = landingOf(emu, spawnedAt);
					await killHard(n8n.process!);
					kills.push(killOf(cycle, aim, landed, spawnedAt, added.length));
					record.keep(`cycle-${cycle}`, n8n.logs());
					progress(`kill ${cycle + 1}/${KILLS} (${aim}): ${landed}`);
					await boot.done;
					if (
						boot.error !== undefined &&
						!boot.error.includes('exited early (SIGKILL)') &&
						kills[kills.length - 1].landed.startsWith('start-up')
					) {
						record.keep(`cycle-${cycle}-boot`, boot.error);
					}
					if (lateLead !== undefined) clearTimeout(lateLead);
					emu.control.clearFaults();
				}

				const executions = await lastStartSettled(n8n, emu, workflowId);
				record.keep('final', n8n.logs());
				const retried = await retryCrashed(n8n, workflowId, executions);

				const delivered = deliveries(executions);
				const missing = added.filter((lead) => !delivered.has(lead));
				const duplicates = duplicatesOf(executions);
				// A lead in the saved cursor but in no execution was lost in n8n's window (docs/reliability.md).
				const lostInN8nWindow = await inSavedCursor(n8n, workflowId, missing);
				report(record, 'single instance (SQLite)', {
					lostInN8nWindow,
					perExecution: perExecution(executions, added),
					seed: SEED,
					kills,
					leadsAdded: added.length,
					leadsDelivered: added.length - missing.length,
					missing: missing.map((lead) => ({ lead, addedAs: added.indexOf(lead) })),
					executions: statusCounts(executions),
					duplicates,
					retriedCrashed: retried,
					seconds: Math.round((Date.now() - started) / 1000),
				});

				expect(kills.length).toBeGreaterThanOrEqual(KILLS);
				// Nothing is lost any other way, and that window is only open at the hand-over from poll to execution.
				expect(missing.filter((lead) => !lostInN8nWindow.includes(lead))).toEqual([]);
				if (lostInN8nWindow.length > 0)
					expect(kills.some((k) => k.aim === 'handoff' || k.aim === 'random')).toBe(true);
				// A lead may be in a crashed execution and again in a later one; it never runs to the end twice.
				for (const { deliveries: list } of duplicates) {
					expect(list.filter((d) => d.status === 'success').length).toBeLessThanOrEqual(1);
				}
				expect(kills.some((k) => k.landed.startsWith('during the poll'))).toBe(true);
				expect(executions.some((e) => e.status === 'crashed')).toBe(true);
				expect(retried.every((r) => r.status === 'success')).toBe(true);
			} finally {
				await n8n.destroy();
			}
		}),
	);

	describe('on PostgreSQL: queue mode (main + worker, Redis), and durable poll cursors', () => {
		let services: Awaited<ReturnType<typeof startQueueServices>>;

		beforeAll(async () => {
			services = await startQueueServices();
		});

		afterAll(async () => {
			await services?.stop();
		});

		it(
			'queue mode: a worker killed while it runs the execution loses no lead',
			...recordedTest('queue-worker', SEED + 1, SEED, async (record) => {
				const started = Date.now();
				const random = seededRandom(SEED + 1);
				// Short Bull locks so a dead worker's job is found stalled within seconds, not a minute.
				const n8n = await N8nInstance.start({
					packageTarball: tarball,
					env: { ...services.env, ...FAST_STALL },
				});
				const added: string[] = [];
				const kills: Kill[] = [];
				watchRun(record, emu, kills, () => n8n.logs());
				let worker: Worker | undefined;
				record.watch('worker', () => worker?.logs() ?? '');
				try {
					worker = await n8n.startWorker();
					addLeads(emu, added, 1);
					const workflowId = await publishSlowWorkflow(n8n, emu, WAIT_SECONDS);
					expect(await settledWithSuccess(n8n, workflowId)).toBe(true);

					for (let cycle = 0; cycle < WORKER_KILLS; cycle++) {
						addLeads(emu, added, random.between(1, 3));
						// A restart of main makes it poll at once: that poll's execution goes to the worker.
						const logged = worker.logs().length;
						await killHard(n8n.process!);
						await n8n.boot();
						const deadline = Date.now() + CRASH_WAIT_BOUND_MS;
						while (!/Worker started execution/.test(worker.logs().slice(logged))) {
							if (Date.now() > deadline)
								throw new Error(
									`cycle ${cycle}: the worker started no execution within ${CRASH_WAIT_BOUND_MS / 60_000} minutes`,
								);
							await sleep(10);
						}
						const into = random.between(200, WAIT_SECONDS * 1000 - 300);
						await sleep(into);
						await killHard(worker.process);
						kills.push({
							cycle,
							aim: 'execution',
							landed: `worker, ${into} ms into its execution`,
							msAfterSpawn: into,
						});
						progress(`worker kill ${cycle + 1}/${WORKER_KILLS}: ${into} ms into its execution`);
						worker = await n8n.startWorker();
					}

					await n8n.logIn();
					const executions = await settled(n8n, workflowId, CRASH_WAIT_BOUND_MS);
					const retried = await retryCrashed(n8n, workflowId, executions);
					const delivered = deliveries(executions);
					const missing = added.filter((lead) => !delivered.has(lead));
					const duplicates = duplicatesOf(executions);
					// Seen once in CI: a worker killed early in an execution left it stored as "error" with no items in its
					// data, so its leads (already in the saved cursor) were in no execution. That is n8n's handling of the
					// stalled job, not the trigger: the trigger emitted them, and the cursor says so.
					const lostWithStalledJob = await inSavedCursor(n8n, workflowId, missing);
					const emptiedExecutions = executions
						.filter((e) => e.status === 'error' && inquiryIdsOf(e).length === 0)
						.map((e) => e.id);
					record.keep('queue-main', n8n.logs());
					record.keep('queue-worker', worker.logs());
					report(record, 'queue mode, worker killed', {
						lostWithStalledJob,
						emptiedExecutions,
						perExecution: perExecution(executions, added),
						seed: SEED,
						kills,
						leadsAdded: added.length,
						leadsDelivered: added.length - missing.length,
						missing,
						executions: statusCounts(executions),
						duplicates,
						retriedCrashed: retried,
						seconds: Math.round((Date.now() - started) / 1000),
					});

					// No lead is lost any other way; one lost with a stalled job goes with an execution n8n stored emptied.
					expect(missing.filter((lead) => !lostWithStalledJob.includes(lead))).toEqual([]);
					if (lostWithStalledJob.length > 0) expect(emptiedExecutions.length).toBeGreaterThan(0);
					for (const { deliveries: list } of duplicates) {
						expect(list.filter((d) => d.status === 'success').length).toBeLessThanOrEqual(1);
					}
					// Retries are reported, not held to success: a retry of the execution whose job stalled last ended in an error once.
					expect(retried.length).toBeGreaterThan(0);
				} finally {
					await worker?.stop();
					await n8n.destroy();
				}
			}),
		);

		it(
			"queue mode, n8n without durable poll cursors: main killed after it saved the cursor, before it stored the execution, loses that poll's leads",
			...recordedTest('queue-window', SEED, SEED, async (record) => {
				const db = postgresClient(services.env.DB_POSTGRESDB_PORT);
				// A database and queue of its own: the one before used another encryption key.
				db.query('CREATE DATABASE crash_window');
				const env = {
					...services.env,
					...FAST_STALL,
					DB_POSTGRESDB_DATABASE: 'crash_window',
					QUEUE_BULL_PREFIX: 'crashwindow',
				};
				const windowDb = postgresClient(services.env.DB_POSTGRESDB_PORT, 'crash_window');
				const n8n = await N8nInstance.start({ packageTarball: tarball, env });
				watchRun(record, emu, [], () => n8n.logs());
				let worker: Worker | undefined;
				record.watch('worker', () => worker?.logs() ?? '');
				try {
					worker = await n8n.startWorker();
					emu.control.addInquiry({ ...form });
					const workflowId = await publishSlowWorkflow(n8n, emu, 0);
					expect(await settledWithSuccess(n8n, workflowId)).toBe(true);

					const lead = emu.control.addInquiry({ ...form })._id;
					// The answer is held until the lock below is in place, so n8n has the lead only then.
					emu.control.injectFault({ endpoint: 'formBuilderInquiries', kind: 'held' });
					const restartedAt = Date.now();
					await killHard(n8n.process!);
					const booting = n8n.boot().catch(() => undefined);
					expect(
						await waitForPoll(emu, restartedAt, 'received', CRASH_WAIT_BOUND_MS),
					).toBeDefined();
					// No execution can be inserted while this lock is held; reads go on.
					const release = await windowDb.lockTable('execution_entity', 'SHARE ROW EXCLUSIVE');
					emu.control.releaseHeld();
					const staticData = () =>
						windowDb.query(
							`SELECT "staticData"::text FROM workflow_entity WHERE id = '${workflowId}'`,
						);
					const deadline = Date.now() + CRASH_WAIT_BOUND_MS;
					while (!staticData().includes(lead) && Date.now() < deadline) await sleep(50);
					const cursorSaved = staticData().includes(lead);
					const executionsBefore = windowDb.query(
						`SELECT count(*) FROM execution_entity WHERE "workflowId" = '${workflowId}'`,
					);
					await killHard(n8n.process!);
					await booting;
					await release();

					const restartedAgain = Date.now();
					await n8n.boot();
					expect(
						await waitForPoll(emu, restartedAgain, 'answered', CRASH_WAIT_BOUND_MS),
					).toBeDefined();
					await sleep(2000);
					await n8n.logIn();
					const executions = await settled(n8n, workflowId, CRASH_WAIT_BOUND_MS);
					const delivered = deliveries(executions);
					report(record, 'queue mode, main killed between cursor save and execution insert', {
						lead,
						cursorSavedBeforeKill: cursorSaved,
						executionsStoredAtKill: Number(executionsBefore),
						executions: statusCounts(executions),
						leadDelivered: delivered.has(lead),
					});
					// The cursor, with the lead in it, was in the database while no execution held the lead.
					expect(cursorSaved).toBe(true);
					expect(Number(executionsBefore)).toBe(1);
					expect(delivered.has(lead)).toBe(false);
				} finally {
					await worker?.stop();
					await n8n.destroy();
				}
			}),
		);

		it(
			'durable poll cursors: main killed during the poll, after the answer, during the execution, at idle, with the commit held, and across a rename: no lead lost or repeated',
			...recordedTest('durable', SEED + 2, SEED, async (record) => {
				const started = Date.now();
				const random = seededRandom(SEED + 2);
				const database = 'crash_durable';
				postgresClient(services.env.DB_POSTGRESDB_PORT).query(`CREATE DATABASE ${database}`);
				const db = postgresClient(services.env.DB_POSTGRESDB_PORT, database);
				// One main in regular mode: it polls and runs the executions.
				const env = {
					...services.env,
					EXECUTIONS_MODE: 'regular',
					DB_POSTGRESDB_DATABASE: database,
					...DURABLE_CURSORS,
					...FAST_SCHEDULER,
					...SHORT_PUBLICATION_LEASE,
					N8N_LOG_LEVEL: process.env.CRASH_N8N_LOG_LEVEL ?? 'info',
				};
				const n8n = await N8nInstance.start({ packageTarball: tarball, env });
				const added: string[] = [];
				const kills: Kill[] = [];
				const logs: string[] = [];
				watchRun(record, emu, kills, () => n8n.logs());
				let held: (HeldCommit & { leads: string[] }) | undefined;
				let rename: { from: string; to: string; leadsAround: string[] } | undefined;
				try {
					addLeads(emu, added, 1);
					const workflowId = await publishSlowWorkflow(n8n, emu, WAIT_SECONDS, (workflow) => {
						(workflow.nodes[0] as { parameters: Record<string, unknown> }).parameters.pollTimes =
							FOUR_POLLS_A_MINUTE;
					});
					expect(await settledWithSuccess(n8n, workflowId)).toBe(true);
					// The position is in n8n's poller state, not in the workflow.
					expect(committedPosition(db, workflowId)).toContain(added[0]);
					await killHard(n8n.process!);

					const killCycle = async (cycle: number, aim: DurableAim): Promise<void> => {
						const spawnedAt = Date.now();
						const before = added.length;
						addLeads(emu, added, random.between(aim === 'poll' || aim === 'idle' ? 0 : 1, 3));
						const cycleLeads = added.slice(before);
						if (aim === 'poll')
							emu.control.injectFault({
								endpoint: 'formBuilderInquiries',
								kind: 'latency',
								ms: HELD_POLL_MS,
								times: 1,
							});
						// Held: the answer waits until the lock below is in place, so n8n has the leads only then.
						if (aim === 'held')
							emu.control.injectFault({ endpoint: 'formBuilderInquiries', kind: 'held' });
						// A boot cut short by the kill is expected; one that fails on its own fails the cycle.
						const { boot, failFast } = bootInBackground(n8n, cycle);
						const poll = await failFast(
							waitForPoll(
								emu,
								spawnedAt,
								aim === 'poll' || aim === 'held' ? 'received' : 'answered',
								CRASH_WAIT_BOUND_MS,
							),
						);
						if (poll === undefined)
							throw new Error(
								`cycle ${cycle}: n8n did not poll within ${CRASH_WAIT_BOUND_MS / 60_000} minutes of its start`,
							);

						let release: (() => Promise<void>) | undefined;
						if (aim === 'poll') await sleep(random.between(0, 1000));
						if (aim === 'handoff') await sleep(random.between(0, 40));
						if (aim === 'execution') await sleep(random.between(300, WAIT_SECONDS * 1000 - 300));
						// Idle: the execution has ended (it lasts WAIT_SECONDS) and the next poll has not begun.
						const idleFor = WAIT_SECONDS * 1000 + random.between(500, 2500);
						if (
							aim === 'idle' &&
							!(await waitForIdle(emu, spawnedAt, idleFor, CRASH_WAIT_BOUND_MS))
						)
							throw new Error(`cycle ${cycle}: n8n was never idle`);
						if (aim === 'held') {
							release = await db.lockTable('execution_entity', 'SHARE ROW EXCLUSIVE');
							emu.control.releaseHeld();
							held = {
								leads: cycleLeads,
								...(await observeHeldCommit(
									db,
									database,
									workflowId,
									cycleLeads,
									CRASH_WAIT_BOUND_MS,
								)),
							};
						}
						if (aim === 'rename') {
							await boot.done;
							const to = 'New Contact Us Lead';
							const leadsAround = [emu.control.addInquiry({ ...form })._id];
							await renameNode(n8n, workflowId, 'New Inquiry', to);
							const renamedAt = Date.now();
							leadsAround.push(emu.control.addInquiry({ ...form })._id);
							added.push(...leadsAround);
							rename = { from: 'New Inquiry', to, leadsAround };
							if (
								(await waitForPoll(emu, renamedAt, 'answered', CRASH_WAIT_BOUND_MS)) === undefined
							)
								throw new Error('n8n did not poll after the rename');
							if (!(await waitForIdle(emu, renamedAt, idleFor, CRASH_WAIT_BOUND_MS)))
								throw new Error(`cycle ${cycle}: n8n was never idle after the rename`);
						}
						const landed =
							aim === 'held'
								? 'with the commit held (the execution insert waiting on a table lock)'
								: landingOf(emu, spawnedAt);
						await killHard(n8n.process!);
						await release?.();
						kills.push(killOf(cycle, aim, landed, spawnedAt, added.length));
						logs.push(n8n.logs());
						record.keep(`durable-cycle-${cycle}`, n8n.logs());
						progress(`durable kill ${cycle + 1}/${DURABLE_KILLS} (${aim}): ${landed}`);
						await boot.done;
						emu.control.clearFaults();
					};
					const plan = durablePlan(random, DURABLE_KILLS);
					for (const [cycle, aim] of plan.entries()) await killCycle(cycle, aim);
					// A kill aimed at the hand-over lands within 50 ms of the answer only if this process wakes in
					// time: on a busy machine both such kills of a run landed later (55 and 77 ms were seen), and
					// the window went untried. It is aimed at again, up to HANDOFF_AIMS_MORE times, until a kill lands in it.
					for (
						let again = 0;
						again < HANDOFF_AIMS_MORE &&
						!kills.some((kill) => kill.landed.includes(HANDOFF_WINDOW));
						again++
					)
						await killCycle(plan.length + again, 'handoff');

					const executions = await lastStartSettled(n8n, emu, workflowId);
					logs.push(n8n.logs());
					record.keep('durable-final', n8n.logs());
					const retried = await retryCrashed(n8n, workflowId, executions);

					const delivered = deliveries(executions);
					const missing = added.filter((lead) => !delivered.has(lead));
					const duplicates = duplicatesOf(executions);
					const allLogs = logs.join('\n');
					const renamedRuns = executions
						.filter((e) => triggerNamesOf(e).includes(rename?.to ?? ''))
						.map((e) => e.id);
					report(record, 'durable poll cursors (PostgreSQL)', {
						perExecution: perExecution(executions, added),
						seed: SEED,
						kills,
						leadsAdded: added.length,
						leadsDelivered: added.length - missing.length,
						missing: missing.map((lead) => ({
							lead,
							addedAs: added.indexOf(lead),
							inCommittedPosition: committedPosition(db, workflowId).includes(lead),
						})),
						executions: statusCounts(executions),
						duplicates,
						heldCommit: held && {
							...held,
							deliveries: held.leads.map((lead) => delivered.get(lead)?.length ?? 0),
						},
						rename: rename && {
							...rename,
							deliveries: rename.leadsAround.map((lead) => delivered.get(lead)?.length ?? 0),
							executionsUnderNewName: renamedRuns,
						},
						pollsLeftToHandOver: allLogs.split('n8n has not yet stored the position').length - 1,
						pollsLeftToRunningPoll:
							allLogs.split('the previous poll of this trigger is still running').length - 1,
						retriedCrashed: retried,
						seconds: Math.round((Date.now() - started) / 1000),
					});

					expect(kills.length).toBeGreaterThanOrEqual(DURABLE_KILLS);
					expect(missing).toEqual([]);
					expect(duplicates).toEqual([]);
					// Where the kills landed, as the emulator saw it.
					for (const where of [
						'during the poll',
						'(cursor save / execution insert)',
						'(execution running)',
						'(idle)',
					]) {
						expect(kills.some((k) => k.landed.includes(where))).toBe(true);
					}
					// The held commit: the kill came while n8n's insert waited, with neither the position nor the execution stored; its leads came once later.
					expect(held).toMatchObject({ insertWaiting: true, positionCommitted: false });
					for (const lead of held!.leads) expect(delivered.get(lead)).toHaveLength(1);
					// The rename: the leads on either side of it came once, and the trigger ran under its new name.
					for (const lead of rename!.leadsAround) expect(delivered.get(lead)).toHaveLength(1);
					expect(renamedRuns.length).toBeGreaterThan(0);
					// n8n refuses a read of static data outside a poll under durable cursors; the trigger never does one.
					expect(allLogs).not.toContain('read its static data outside of a poll');
					expect(retried.every((r) => r.status === 'success')).toBe(true);
				} finally {
					await n8n.destroy();
				}
			}),
		);
	});
});

/** The leads among `leads` that the trigger's saved cursor holds: emitted by the trigger, whatever n8n did next. */
async function inSavedCursor(
	n8n: N8nInstance,
	workflowId: string,
	leads: string[],
): Promise<string[]> {
	const stored = (await n8n.api('GET', `/workflows/${workflowId}`)) as { staticData?: unknown };
	const cursorText = JSON.stringify(stored.staticData ?? {});
	return leads.filter((lead) => cursorText.includes(lead));
}

/** Waits for the first execution of the workflow to succeed. */
/** The App Builder credential and the slow inquiry workflow (changed by `adjust`) in this n8n, published: the workflow's ID. */
async function publishSlowWorkflow(
	n8n: N8nInstance,
	emu: Emulator,
	waitSeconds: number,
	adjust: (workflow: ReturnType<typeof slowInquiryWorkflow>) => void = () => undefined,
): Promise<string> {
	const name = 'App Builder (emulator)';
	const id = await n8n.createCredential(name, 'appBuilderApi', credentialDataFor(emu));
	const workflow = slowInquiryWorkflow({ id, name }, form, waitSeconds);
	adjust(workflow);
	const workflowId = await n8n.createWorkflow(workflow);
	await n8n.activate(workflowId);
	return workflowId;
}

async function settledWithSuccess(n8n: N8nInstance, workflowId: string): Promise<boolean> {
	const deadline = Date.now() + CRASH_WAIT_BOUND_MS;
	while (Date.now() < deadline) {
		const executions = (await n8n.executions(workflowId)) as StoredExecution[];
		if (executions.some((e) => e.status === 'success')) return true;
		await sleep(500);
	}
	return false;
}

/**
 * Retries each crashed execution that no later execution re-delivered,
 * the way a user would from the executions list, and returns how each ended.
 */
async function retryCrashed(
	n8n: N8nInstance,
	workflowId: string,
	executions: StoredExecution[],
): Promise<Array<{ crashed: string; status: string }>> {
	const crashed = executions.filter((e) => e.status === 'crashed');
	const results: Array<{ crashed: string; status: string }> = [];
	for (const execution of crashed) {
		const retry = (await n8n.api('POST', `/executions/${execution.id}/retry`, {})) as {
			id?: string | number;
		};
		const retryId = String(retry.id ?? '');
		const deadline = Date.now() + CRASH_WAIT_BOUND_MS;
		let status = 'unknown';
		while (Date.now() < deadline) {
			const found = ((await n8n.executions(workflowId)) as StoredExecution[]).find(
				(e) => e.id === retryId,
			);
			status = found?.status ?? 'not found';
			if (!['new', 'running', 'waiting', 'unknown', 'not found'].includes(status)) break;
			await sleep(1000);
		}
		results.push({ crashed: execution.id, status });
	}
	return results;
}

/** What a failing test keeps besides its kills' logs: the n8n running then, the kills so far and the polls the emulator saw. */
function watchRun(record: CrashRecord, emu: Emulator, kills: Kill[], n8nOutput: () => string) {
	record.watch('n8n', n8nOutput);
	record.watch('kills', () => JSON.stringify(kills, null, 2));
	record.watch('polls', () => JSON.stringify(pollsSeen(emu), null, 2));
}

/** One line per kill on stderr, as it happens, so a long run shows where it is. */
function progress(line: string): void {
	process.stderr.write(`crash suite: ${line}\n`);
}

const recorded: Array<{ title: string; figures: Record<string, unknown> }> = [];

/**
 * Prints a run's figures and keeps them with the test's record; with CRASH_FIGURES=<file> (docs/crash-suite.json for
 * the benchmark report) they are also written there, one run after another.
 */
function report(record: CrashRecord, title: string, figures: Record<string, unknown>): void {
	console.log(`crash suite, ${title}:\n${JSON.stringify(figures, null, 2)}`);
	record.keep('figures', JSON.stringify(figures, null, 2));
	recorded.push({ title, figures });
	const file = process.env.CRASH_FIGURES;
	if (file)
		writeFileSync(
			file,
			`${JSON.stringify({ recordedAt: new Date().toISOString(), n8nVersion: N8N_VERSIONS.newest, runs: recorded }, null, 2)}\n`,
		);
}
