/* eslint-disable no-console -- it prints its progress and figures */
/**
 * "Add User over 1,000 items": Add User over many input items in a real n8n,
 * the emulator answering every call after a fixed latency, against the ideal
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

export const ADD_USER: Record<'full' | 'smoke', AddUserSettings> = {
	full: { items: 1_000, latencyMs: 50, rateLimitPerSecond: 20 },
	smoke: { items: 30, latencyMs: 50, rateLimitPerSecond: 20 },
};

/** Add User's target: its node time within this much of the ideal. */
const ADD_USER_TARGET = 1.25;

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
	// What the package promises, checked on every run: every user added once.
	for (const row of rows.filter((r) => r.label.startsWith('App Builder'))) {
		if (row.created !== row.items || row.failedItems > 0)
			throw new Error(`Add User in n8n: ${JSON.stringify(row)}`);
	}
	return rows;
}

const ms = (value: number | undefined) =>
	value === undefined ? '-' : `${Math.round(value).toLocaleString('en')} ms`;

/** The targets table's three rows. */
export function addUserTargetRows(addUser: AddUserRow[], settings: AddUserSettings): string[] {
	const verdict = (met: boolean) => (met ? 'met' : '**not met**');
	const ours = unlimitedRun(addUser, 'App Builder, Concurrency 5');
	const oursLimited = addUser.find(
		(row) => row.label.startsWith('App Builder') && row.rateLimitPerSecond !== null,
	);
	const addRatio = ours?.idealMs ? ours.nodeMs / ours.idealMs : undefined;
	const ours20 = unlimitedRun(addUser, 'App Builder, Concurrency 20');
	const addRatio20 = ours20?.idealMs ? ours20.nodeMs / ours20.idealMs : undefined;
	// n8n's own node with no concurrency limit at all: what 1,000 calls cost n8n on this machine whatever the node does.
	const httpAllAtOnce = unlimitedRun(addUser, 'HTTP Request, defaults (every');
	const allAtOnceNote = httpAllAtOnce
		? `; n8n's HTTP Request node, every item at once, takes ${ms(httpAllAtOnce.nodeMs)}`
		: '';
	const boundNote = (ratio: number | undefined) =>
		ratio !== undefined && ratio > ADD_USER_TARGET
			? ' (what bounds it: [Add User](#add-user-over-1000-items))'
			: '';
	const httpLosses = addUser
		.filter((row) => row.label.startsWith('HTTP Request') && row.rateLimitPerSecond !== null)
		.map(
			(row) =>
				`${row.label.replace('HTTP Request, ', '')}: ${(row.items - row.created).toLocaleString('en')} not created`,
		)
		.join('; ');
	return [
		`| Add User, ${settings.items.toLocaleString('en')} items at ${settings.latencyMs} ms, Concurrency 5 | within ${ADD_USER_TARGET}x of the ideal | ${addRatio === undefined ? 'not measured' : `${addRatio.toFixed(2)}x`}${boundNote(addRatio)} | ${verdict(addRatio !== undefined && addRatio <= ADD_USER_TARGET)} |`,
		`| Add User, ${settings.items.toLocaleString('en')} items at ${settings.latencyMs} ms, Concurrency 20 | within ${ADD_USER_TARGET}x of the ideal | ${addRatio20 === undefined ? 'not measured' : `${addRatio20.toFixed(2)}x`}${allAtOnceNote}${boundNote(addRatio20)} | ${verdict(addRatio20 !== undefined && addRatio20 <= ADD_USER_TARGET)} |`,
		`| Add User under a rate limit | no item lost | ${oursLimited ? `${(oursLimited.items - oursLimited.created).toLocaleString('en')} lost (the HTTP Request node: ${httpLosses})` : 'not measured'} | ${verdict(oursLimited !== undefined && oursLimited.created === oursLimited.items)} |`,
	];
}

export function addUserSection(rows: AddUserRow[], settings: AddUserSettings): string {
	const lines = rows.map((row) => {
		const ideal = idealMsOf(row);
		const ratio =
			ideal !== undefined && row.label.startsWith('App Builder')
				? `**${(row.nodeMs / ideal).toFixed(2)}x**`
				: '-';
		return `| ${row.label} | ${row.rateLimitPerSecond ? `${row.rateLimitPerSecond}/s` : 'none'} | ${ms(row.nodeMs)} | ${ms(ideal)} | ${ratio} | ${row.created} of ${row.items} | ${row.calls} | ${row.failedItems} | ${row.executionStatus} |`;
	});
	return `## Add User over ${settings.items.toLocaleString('en')} items

A webhook receives ${settings.items.toLocaleString('en')} people; Split Out; then App Builder → Add User,
or n8n's HTTP Request node making the same addUser calls with the same
credential. The emulator answers each call after ${settings.latencyMs} ms, then also
rate-limits to ${settings.rateLimitPerSecond} calls per second (429 with Retry-After). *Node time*
is the node's execution time as n8n recorded it. The *ideal* is items ×
latency ÷ concurrency, and at the rate limit no less than items ÷ rate.
*Created* counts the app users the emulator holds afterwards; *calls* the
addUser calls it received.

| node | rate limit | node time | ideal | node / ideal | created | calls | items failed | execution |
| --- | --- | --- | --- | --- | --- | --- | --- | --- |
${lines.join('\n')}
${concurrencyBound(rows, settings)}`;
}

/**
 * What bounds Add User: n8n's work per call. With no limit at all, n8n's own
 * HTTP Request node shows what each call costs n8n's single thread; at
 * Concurrency 20 ours is busy rather than waiting, so its time per item is
 * that work as it does it. A call holds its slot for the latency plus that
 * work, which gives the least time at a lower Concurrency.
 */
function concurrencyBound(rows: AddUserRow[], settings: AddUserSettings): string {
	const allAtOnce = unlimitedRun(rows, 'HTTP Request, defaults (every');
	const ours20 = unlimitedRun(rows, 'App Builder, Concurrency 20');
	const ours5 = unlimitedRun(rows, 'App Builder, Concurrency 5');
	if (!allAtOnce || !ours20) return '';
	const perCall = ours20.nodeMs / ours20.items;
	const atFive = ours5 && (ours5.items * (settings.latencyMs + perCall)) / 5;
	const fiveLine =
		ours5 && atFive
			? ` Allowing that work per call, a call holds one of 5 slots for ${settings.latencyMs} ms +
${perCall.toFixed(1)} ms, so the least time at Concurrency 5 is ${ms(atFive)}: ours takes ${ms(ours5.nodeMs)},
**${(ours5.nodeMs / atFive).toFixed(2)}x** that.`
			: '';
	return `
What bounds it is n8n's work per call, on n8n's one JavaScript thread. n8n's
own HTTP Request node, sending every item at once with no limit, needs
${ms(allAtOnce.nodeMs)} for the same ${allAtOnce.items.toLocaleString('en')} calls: ${(allAtOnce.nodeMs / allAtOnce.items).toFixed(1)} ms per call, where the ideal at
Concurrency 20 allows ${(settings.latencyMs / 20).toFixed(1)} ms. At Concurrency 20 ours is busy, not waiting:
${perCall.toFixed(1)} ms per item, ${(ours20.nodeMs / allAtOnce.nodeMs).toFixed(2)}x the time n8n's own node takes.${fiveLine}
A CPU profile of the node in n8n-core's engine (\`bench/addUserInEngine.ts\`,
compiled with tsc, then \`node <out>/bench/addUserInEngine.js 1000 50 20\`)
puts about 62% of the busy time in n8n's HTTP helper (it builds new agents,
so a new TCP connection, for every request: \`setAxiosAgents\` in
\`@n8n/backend-network\`), 17% in n8n evaluating the item's expressions, 11%
in garbage collection and 6% in this package's transport (streamed reading,
deadline, redaction). The one option n8n's helpers take for the connection,
\`agentOptions\` of \`httpRequest\`, only shapes that new agent (\`keepAlive\`
included: \`buildNodeAgents\` makes a fresh \`http.Agent\` with them on every
call), so nothing a node may pass keeps a connection from one call to the
next; the target stays, and what bounds it is n8n's, as measured above.
`;
}
