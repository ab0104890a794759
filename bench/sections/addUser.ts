/* eslint-disable no-console -- it prints its progress and figures */
/**
 * Figure 5: Add User over many input items in a real n8n, the emulator
 * answering every call after a fixed latency, against the ideal
 * (items × latency ÷ concurrency) and against n8n's HTTP Request node doing
 * the same calls; then the same with the emulator rate-limiting.
 */
import {
	addUserWorkflow,
	httpRequestAddUserWorkflow,
	type BenchWorkflow,
	type HttpRequestSettings,
} from '../lib/benchWorkflows';
import type { EmulatorProcess } from '../lib/emulatorProcess';
import type { N8nForBench } from '../lib/n8nForBench';

export interface AddUserRow {
	label: string;
	rateLimitPerSecond: number | null;
	items: number;
	/** The node's own execution time as n8n recorded it. */
	nodeMs: number;
	/** items × latency ÷ concurrency; undefined when the node has no fixed concurrency. */
	idealMs?: number;
	/** App users the emulator holds afterwards: each item should make exactly one. */
	created: number;
	/** Items the node ended with an error (On Error: Continue) or, if the node stopped, every item. */
	failedItems: number;
	/** addUser calls the emulator received: more than the items means some were sent again. */
	calls: number;
	executionStatus: string;
}

/**
 * The least time the node could take: items × latency ÷ concurrency, and
 * under a rate limit no less than items ÷ rate. Undefined for a node with
 * no fixed concurrency and no rate limit.
 */
export function idealMsOf(row: AddUserRow): number | undefined {
	const byRate = row.rateLimitPerSecond ? (row.items / row.rateLimitPerSecond) * 1000 : undefined;
	if (row.idealMs === undefined) return byRate;
	return byRate === undefined ? row.idealMs : Math.max(row.idealMs, byRate);
}

/** The run whose label starts with `labelStart`, without the rate limit. */
export function unlimitedRun(rows: AddUserRow[], labelStart: string): AddUserRow | undefined {
	return rows.find((row) => row.label.startsWith(labelStart) && row.rateLimitPerSecond === null);
}

export interface AddUserSettings {
	items: number;
	latencyMs: number;
	rateLimitPerSecond: number;
}

interface Contender {
	label: string;
	concurrency?: number;
	workflow: (path: string) => BenchWorkflow;
}

function people(items: number, run: string) {
	return Array.from({ length: items }, (_, i) => ({
		email: `bench-${run}-${i}@example.com`,
		name: `Bench Person ${i}`,
		password: `Pa55word-${i}`,
		phone: String(4_155_000_000 + i),
	}));
}

export async function measureAddUser(
	emulator: EmulatorProcess,
	bench: N8nForBench,
	settings: AddUserSettings,
): Promise<AddUserRow[]> {
	const { credential } = bench;
	const http = (httpSettings: HttpRequestSettings) => (path: string) =>
		httpRequestAddUserWorkflow(credential, emulator.webUrl, path, httpSettings);
	const unlimited: Contender[] = [
		{
			label: 'App Builder, Concurrency 5 (default)',
			concurrency: 5,
			workflow: (path) => addUserWorkflow(credential, path, 5),
		},
		{
			label: 'App Builder, Concurrency 20',
			concurrency: 20,
			workflow: (path) => addUserWorkflow(credential, path, 20),
		},
		{ label: 'HTTP Request, defaults (every item at once)', workflow: http({}) },
	];
	const limited: Contender[] = [
		{
			label: 'App Builder, Concurrency 5 (default)',
			concurrency: 5,
			workflow: (path) => addUserWorkflow(credential, path, 5),
		},
		{ label: 'HTTP Request, defaults, On Error: Continue', workflow: http({}) },
		{
			label: `HTTP Request, Batching ${settings.rateLimitPerSecond} items per second`,
			workflow: http({ batching: { items: settings.rateLimitPerSecond, intervalMs: 1000 } }),
		},
		{
			label: 'HTTP Request, Retry On Fail (5 tries, 5 s apart)',
			workflow: http({ retryOnFail: true }),
		},
	];

	const rows: AddUserRow[] = [];
	let run = 0;
	for (const [rateLimitPerSecond, contenders] of [
		[null, unlimited],
		[settings.rateLimitPerSecond, limited],
	] as const) {
		for (const contender of contenders) {
			run++;
			await emulator.control('POST', '/reset', { seed: 'test' });
			await emulator.control('POST', '/configure', {
				latencyMs: settings.latencyMs,
				rateLimitPerSecond,
			});
			const path = `bench-add-${run}`;
			const workflowId = await bench.activate(contender.workflow(path));
			await bench.callWebhook(path, { people: people(settings.items, String(run)) });
			const execution = await bench.waitForExecution(workflowId, 1, 15 * 60_000);
			await bench.deactivate(workflowId);
			if (!execution?.data) throw new Error(`${contender.label}: no execution finished`);
			const nodeRun = execution.data.resultData.runData['Add User']?.[0];
			const output = nodeRun?.data?.main?.[0] ?? [];
			const users = (await emulator.control('GET', '/users')) as unknown[];
			const requests = (await emulator.control('GET', '/requests')) as Array<{ path: string }>;
			const row: AddUserRow = {
				label: contender.label,
				rateLimitPerSecond,
				items: settings.items,
				nodeMs: nodeRun?.executionTime ?? NaN,
				idealMs: contender.concurrency
					? (settings.items * settings.latencyMs) / contender.concurrency
					: undefined,
				created: users.length,
				failedItems:
					execution.status === 'success'
						? output.filter((item) => 'error' in item.json).length
						: settings.items,
				executionStatus: execution.status,
				calls: requests.filter((request) => request.path.endsWith('/addUser.php')).length,
			};
			rows.push(row);
			const idealMs = idealMsOf(row);
			console.log(
				`add    ${row.label.padEnd(58)} ${rateLimitPerSecond ? `${rateLimitPerSecond}/s` : 'no limit'}  ${row.nodeMs.toFixed(0).padStart(6)} ms` +
					`${idealMs && contender.concurrency ? `  ${(row.nodeMs / idealMs).toFixed(2)}x ideal` : ''}  created ${row.created}/${row.items}  calls ${row.calls}  failed ${row.failedItems}  (${row.executionStatus})`,
			);
		}
	}
	await emulator.control('POST', '/configure', { latencyMs: 0, rateLimitPerSecond: null });
	return rows;
}
