/* eslint-disable @n8n/community-nodes/no-restricted-imports -- n8n Cloud's limits are for nodes; this runs on Node itself (timers, process, built-in modules) */
/**
 * The crash suite's figures in the benchmark report. The suite
 * (test/e2e/crashRecovery.e2e.test.ts) writes them to docs/crash-suite.json
 * when run with CRASH_FIGURES=docs/crash-suite.json; the report shows the
 * last recorded run, with its date and seed, so `npm run bench` does not have
 * to kill n8n forty times to write its report.
 */
import { existsSync, readFileSync } from 'node:fs';

export interface CrashRun {
	title: string;
	figures: {
		seed?: number;
		kills?: Array<{ aim: string; landed: string }>;
		leadsAdded?: number;
		leadsDelivered?: number;
		lostInN8nWindow?: string[];
		/** Leads of a queue-mode execution n8n stored as an error with no data after its worker died (reliability.md). */
		lostWithStalledJob?: string[];
		missing?: unknown[];
		duplicates?: unknown[];
		executions?: Record<string, number>;
		retriedCrashed?: Array<{ status: string }>;
		seconds?: number;
		leadDelivered?: boolean;
	};
}

export interface CrashRecord {
	recordedAt: string;
	/** The n8n the suite ran in (records before it was kept name none). */
	n8nVersion?: string;
	runs: CrashRun[];
}

/** Where the kills landed, counted by kind: "during the poll", "after the answer (execution running)", ... */
export function landings(kills: Array<{ landed: string }>): string {
	const counts = new Map<string, number>();
	for (const kill of kills) {
		const kind = kill.landed
			.replace(/^\d+ ms /, '')
			.replace(/^worker, \d+ ms into its execution$/, 'worker, during its execution');
		counts.set(kind, (counts.get(kind) ?? 0) + 1);
	}
	return [...counts].map(([kind, count]) => `${count} ${kind}`).join('; ');
}

/** Why leads were lost, as the suite told them apart: n8n's window, or a worker's stalled job. */
function lossCauses(f: CrashRun['figures'], lost: number): string {
	const stalled = f.lostWithStalledJob?.length ?? 0;
	const window = f.lostInN8nWindow?.length ?? lost - stalled;
	return [
		window > 0 ? `${window} in the saved cursor, in no execution: n8n's window` : '',
		stalled > 0
			? `${stalled} in an execution n8n stored as an error without its data after the worker died`
			: '',
	]
		.filter(Boolean)
		.join('; ');
}

function statusText(executions: Record<string, number> | undefined): string {
	return executions
		? Object.entries(executions)
				.map(([status, count]) => `${count} ${status}`)
				.join(', ')
		: '-';
}

export function crashSection(file: string): string {
	if (!existsSync(file)) return '';
	const record = JSON.parse(readFileSync(file, 'utf8')) as CrashRecord;
	const rows = record.runs.map(({ title, figures: f }) => {
		const kills = f.kills ? `${f.kills.length}` : '1';
		const landed = f.kills
			? landings(f.kills)
			: 'after the cursor was saved, the execution insert held by a table lock';
		const added = f.leadsAdded ?? 1;
		const delivered = f.leadsDelivered ?? (f.leadDelivered ? 1 : 0);
		const lost = added - delivered;
		const lostWhy = lost === 0 ? '0' : `${lost} (${lossCauses(f, lost)})`;
		const retried = f.retriedCrashed
			? f.retriedCrashed.map((r) => r.status).join(', ') || '-'
			: '-';
		return `| ${title} | ${f.seed ?? '-'} | ${kills} | ${landed} | ${added} | ${delivered} | ${lostWhy} | ${f.duplicates?.length ?? 0} | ${statusText(f.executions)} | ${retried} | ${f.seconds === undefined ? '-' : `${f.seconds} s`} |`;
	});
	return `## Killed mid-poll

From \`test/e2e/crashRecovery.e2e.test.ts\` (part of \`npm test\`), recorded on
${record.recordedAt.slice(0, 10)}: a real n8n${record.n8nVersion ? ` ${record.n8nVersion}` : ''} killed with SIGKILL at seeded moments while
leads arrive, then every lead checked against the executions n8n stored.
*Lost* counts leads in no execution; *duplicates* leads in more than one.
Crashed executions keep their leads and are retried through n8n's API, as a
user would from the executions list. Why a lead can be lost between the
poll and the execution, and how to close that window:
[Reliability](reliability.md#what-a-kill-does-to-leads).

| run | seed | kills | where they landed | leads added | in an execution | lost | duplicates | executions | retries of crashed ones | time |
| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |
${rows.join('\n')}
`;
}
