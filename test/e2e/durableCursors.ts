import type { N8nInstance } from './n8nInstance';
import type { postgresClient } from './killLoop';
import { sleep } from '../support/sleep';

/**
 * n8n's durable poll cursors as the crash suite runs them (n8n 2.41.1): the
 * settings, the poll times, the kill plan, and what the suite reads in n8n's
 * database while a commit is held.
 *
 * Under them n8n runs polls from its durable scheduler (tasks in the
 * scheduled_task table, each claimed under a lease), hands the trigger a
 * copy of its node data read from the poller_state table, and commits the
 * position the poll leaves with the execution, in one transaction
 * (n8n/dist/workflows/triggers/poll-cursor.service.js, commitWithExecution).
 * They work on SQLite as well as PostgreSQL; the suite runs them on the
 * PostgreSQL it starts for queue mode because the held-window case holds a
 * PostgreSQL table lock.
 */

/** The four switches; with any of them off n8n keeps the position in the workflow's static data. */
export const DURABLE_CURSORS = {
	N8N_SCHEDULER_ENABLED: 'true',
	N8N_SCHEDULER_POLL_TRIGGERS_ENABLED: 'true',
	N8N_USE_WORKFLOW_PUBLICATION_SERVICE: 'true',
	N8N_POLLER_DURABLE_CURSORS_ENABLED: 'true',
};

/**
 * The scheduler's own settings, shortened so a killed main polls again within
 * seconds of its start. After a restart n8n writes a task for each poll time
 * it missed less than a minute ago (the misfire grace) at its first
 * materializer pass (every 10 s by default; 2 here) and claims due tasks at
 * each executor pass (every 5 s; 1 here). A task that was running when main
 * died stays claimed until its lease ends (60 s; 20 here) and the reaper
 * (every 30 s; 5 here) hands it out again. n8n wants the poll timeout below
 * the lease (45 s; 15 here), which leaves a poll a budget of 10 s
 * (trigger-execution-context.factory.js: the smaller of the two, less a
 * margin of 5 s).
 */
export const FAST_SCHEDULER = {
	N8N_SCHEDULER_MATERIALIZATION_INTERVAL: '2',
	N8N_SCHEDULER_EXECUTOR_INTERVAL: '1',
	N8N_SCHEDULER_LEASE_DURATION: '20',
	N8N_SCHEDULER_REAPER_INTERVAL: '5',
	N8N_SCHEDULER_POLL_TIMEOUT: '15',
};

/** How long the poll aim holds the trigger's request: inside the 10 s budget above, so the poll would still succeed. */
export const HELD_POLL_MS = 8000;

/**
 * A poll every 15 seconds. n8n refuses a poll time more often than once a
 * minute (n8n-core active-workflow-triggers.js, isSubMinuteCron), but takes
 * several of once a minute each; under the durable scheduler each is a job
 * of its own, so after a restart the missed ones run at once.
 */
export const FOUR_POLLS_A_MINUTE = {
	item: [0, 15, 30, 45].map((second) => ({
		mode: 'custom',
		cronExpression: `${second} * * * * *`,
	})),
};

/**
 * Where a kill is aimed in the durable run:
 * - poll, handoff, execution: as in the default run;
 * - idle: after the execution ended, before the next poll;
 * - held: while n8n's commit of the position and the execution waits on a lock of the execution table;
 * - rename: the trigger renamed through n8n's API (PUT, then publish) while it runs, then a kill at idle.
 */
export const DURABLE_AIMS = ['poll', 'handoff', 'execution', 'idle', 'held', 'rename'] as const;
export type DurableAim = (typeof DURABLE_AIMS)[number];

/** Every aim once, the rest of the kills on the ones that land in n8n's own steps, in a seeded order. */
export function durablePlan(random: { next: () => number }, kills: number): DurableAim[] {
	const extra: DurableAim[] = ['handoff', 'execution', 'idle', 'poll'];
	const plan: DurableAim[] = [
		...DURABLE_AIMS,
		...Array.from(
			{ length: Math.max(0, kills - DURABLE_AIMS.length) },
			(_, i) => extra[i % extra.length],
		),
	];
	for (let i = plan.length - 1; i > 0; i--) {
		const j = Math.floor(random.next() * (i + 1));
		[plan[i], plan[j]] = [plan[j], plan[i]];
	}
	return plan;
}

/** Renames a node of a workflow through n8n's public API and publishes the new version. */
export async function renameNode(
	n8n: N8nInstance,
	workflowId: string,
	from: string,
	to: string,
): Promise<void> {
	const stored = (await n8n.api('GET', `/workflows/${workflowId}`)) as {
		name: string;
		nodes: Array<{ name: string }>;
		connections: Record<string, unknown>;
	};
	const nodes = stored.nodes.map((node) => (node.name === from ? { ...node, name: to } : node));
	const { [from]: outgoing, ...otherConnections } = stored.connections;
	await n8n.api('PUT', `/workflows/${workflowId}`, {
		name: stored.name,
		nodes,
		connections: { ...otherConnections, [to]: outgoing },
		settings: { executionOrder: 'v1' },
	});
	await n8n.activate(workflowId);
}

type Database = ReturnType<typeof postgresClient>;

/** What the database shows while n8n's commit is held, read by a connection of its own. */
export interface HeldCommit {
	/** n8n's insert of the execution waits on the lock. */
	insertWaiting: boolean;
	/** The committed position (poller_state) holds one of the leads. */
	positionCommitted: boolean;
	/** The trigger's copy under the node ID in the workflow's global static data (saved apart, not used then) holds one. */
	globalCopyHasLeads: boolean;
	executionsStored: number;
}

/** Waits (up to `timeoutMs`) until n8n's execution insert waits on a lock, then reads the rest. */
export async function observeHeldCommit(
	db: Database,
	database: string,
	workflowId: string,
	leads: string[],
	timeoutMs: number,
): Promise<HeldCommit> {
	const waiting = () =>
		Number(
			db.query(
				`SELECT count(*) FROM pg_stat_activity WHERE datname = '${database}' AND wait_event_type = 'Lock' AND query ILIKE '%insert into%execution_entity%'`,
			),
		) > 0;
	const deadline = Date.now() + timeoutMs;
	while (!waiting() && Date.now() < deadline) await sleep(50);
	const position = db.query(
		`SELECT "cursor"::text FROM poller_state WHERE "workflowId" = '${workflowId}'`,
	);
	const staticData = db.query(
		`SELECT "staticData"::text FROM workflow_entity WHERE id = '${workflowId}'`,
	);
	return {
		insertWaiting: waiting(),
		positionCommitted: leads.some((lead) => position.includes(lead)),
		globalCopyHasLeads: leads.some((lead) => staticData.includes(lead)),
		executionsStored: Number(
			db.query(`SELECT count(*) FROM execution_entity WHERE "workflowId" = '${workflowId}'`),
		),
	};
}

/** The position n8n committed for the workflow's trigger (poller_state), as text. */
export function committedPosition(db: Database, workflowId: string): string {
	return db.query(`SELECT "cursor"::text FROM poller_state WHERE "workflowId" = '${workflowId}'`);
}
