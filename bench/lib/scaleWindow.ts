/**
 * Whether K triggers kept their minute over one window of real polling, from
 * what the emulator logged (each poll's request) and what n8n recorded (each
 * execution), and n8n's own counters. Pure: the measuring is in
 * triggersPerMain.ts.
 *
 * Each trigger polls once a minute on a second of its own (a cron
 * expression, as n8n gives every minute-poll a random second), so every poll
 * has a known tick. A poll's *lateness* runs from its tick to its request
 * reaching the emulator; its *cycle* from its tick to the end of the
 * execution it started (or to the end of its answer, when it found nothing
 * new).
 */
export interface ScaleTrigger {
	workflowId: string;
	/** The form it polls: how its requests are told apart in the emulator's log. */
	pageId: string;
	/** The second of each minute it is scheduled on. */
	cronSecond: number;
}

export interface PollRequest {
	pageId: string;
	receivedAt: number;
	finishedAt?: number;
}

export interface RecordedExecution {
	workflowId: string;
	status: string;
	startedAt: number;
	stoppedAt?: number;
}

/**
 * How executions belong to polls: ours starts its execution after the poll
 * (its request) ends; the peer's Schedule Trigger starts the execution, and
 * its HTTP Request node sends the request inside it.
 */
export type ExecutionOrder = 'after-request' | 'around-request';

export interface WindowCounters {
	/** n8n_poll_trigger_overlapping_ticks_total over the window. */
	overlappingTicks: number;
	/** n8n_poll_trigger_errors_total over the window. */
	pollErrors: number;
}

export interface WindowJudgement {
	/** Ticks in the window (one per trigger per minute) and the polls that answered them. */
	ticks: number;
	polls: number;
	missedTicks: number;
	/** Lateness and cycle of the polls, in ms: median, 95th percentile, largest. */
	lateness: Spread;
	cycle: Spread;
	/** Polls that ended more than one interval after their tick. */
	overInterval: number;
	failedExecutions: number;
	/** The editor API call's answer times during the window. */
	apiMs: Spread;
	apiOverLimit: number;
	overlappingTicks: number;
	pollErrors: number;
	passed: boolean;
	/** What failed, in words, when it did not pass. */
	reasons: string[];
}

export interface Spread {
	median: number;
	p95: number;
	max: number;
}

export const INTERVAL_MS = 60_000;
/** The editor API must answer within this. */
export const API_LIMIT_MS = 1000;
/** A timer may fire a hair before its second: a request this early still belongs to the tick after it. */
const EARLY_MS = 50;

/** The tick a request of a trigger on `cronSecond` answers: the last one at or before it. */
export function tickOf(receivedAt: number, cronSecond: number): number {
	const offset = cronSecond * 1000;
	return Math.floor((receivedAt + EARLY_MS - offset) / INTERVAL_MS) * INTERVAL_MS + offset;
}

/** The ticks of a trigger in [start, end). */
export function ticksIn(start: number, end: number, cronSecond: number): number[] {
	const ticks: number[] = [];
	for (let tick = tickOf(start - EARLY_MS, cronSecond); tick < end; tick += INTERVAL_MS)
		if (tick >= start) ticks.push(tick);
	return ticks;
}

export function spreadOf(values: readonly number[]): Spread {
	if (values.length === 0) return { median: Number.NaN, p95: Number.NaN, max: Number.NaN };
	const sorted = [...values].sort((a, b) => a - b);
	const at = (p: number) =>
		sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1))];
	return { median: at(0.5), p95: at(0.95), max: sorted[sorted.length - 1] };
}

export function judgeWindow(options: {
	triggers: readonly ScaleTrigger[];
	window: { start: number; end: number };
	requests: readonly PollRequest[];
	executions: readonly RecordedExecution[];
	order: ExecutionOrder;
	counters: WindowCounters;
	apiMs: readonly number[];
}): WindowJudgement {
	const { triggers, window, order, counters } = options;
	const requestsByForm = groupBy(options.requests, (request) => request.pageId);
	const executionsByWorkflow = groupBy(options.executions, (execution) => execution.workflowId);
	const lateness: number[] = [];
	const cycles: number[] = [];
	let ticks = 0;
	let polls = 0;
	let failedExecutions = 0;

	for (const trigger of triggers) {
		const requests = [...(requestsByForm.get(trigger.pageId) ?? [])].sort(
			(a, b) => a.receivedAt - b.receivedAt,
		);
		const executions = [...(executionsByWorkflow.get(trigger.workflowId) ?? [])].sort(
			(a, b) => a.startedAt - b.startedAt,
		);
		const windowTicks = new Set(ticksIn(window.start, window.end, trigger.cronSecond));
		ticks += windowTicks.size;
		const answered = new Set<number>();
		requests.forEach((request, index) => {
			const tick = tickOf(request.receivedAt, trigger.cronSecond);
			// The first request for a tick answers it; another for the same tick would be a second poll.
			if (!windowTicks.has(tick) || answered.has(tick)) return;
			answered.add(tick);
			polls++;
			const next = requests[index + 1]?.receivedAt ?? Number.POSITIVE_INFINITY;
			const execution = executions.find((candidate) =>
				order === 'after-request'
					? candidate.startedAt >= request.receivedAt && candidate.startedAt < next
					: candidate.startedAt <= request.receivedAt &&
						(candidate.stoppedAt ?? Number.POSITIVE_INFINITY) >= request.receivedAt,
			);
			if (execution && execution.status !== 'success') failedExecutions++;
			const finish = execution?.stoppedAt ?? request.finishedAt ?? Number.POSITIVE_INFINITY;
			lateness.push(request.receivedAt - tick);
			cycles.push(finish - tick);
		});
	}

	const cycle = spreadOf(cycles);
	const apiMs = spreadOf(options.apiMs);
	const judgement: WindowJudgement = {
		ticks,
		polls,
		missedTicks: ticks - polls,
		lateness: spreadOf(lateness),
		cycle,
		overInterval: cycles.filter((ms) => ms > INTERVAL_MS).length,
		failedExecutions,
		apiMs,
		apiOverLimit: options.apiMs.filter((ms) => ms > API_LIMIT_MS).length,
		overlappingTicks: counters.overlappingTicks,
		pollErrors: counters.pollErrors,
		passed: false,
		reasons: [],
	};
	const reasons = judgement.reasons;
	const of = (count: number, one: string, many: string) => `${count} ${count === 1 ? one : many}`;
	if (judgement.missedTicks > 0)
		reasons.push(
			`${judgement.missedTicks} of ${ticks} ${ticks === 1 ? 'tick' : 'ticks'} had no poll`,
		);
	if (judgement.overInterval > 0)
		reasons.push(
			`${of(judgement.overInterval, 'poll', 'polls')} ended more than a minute after ${judgement.overInterval === 1 ? 'its' : 'their'} tick (${Number.isFinite(cycle.max) ? `longest ${Math.round(cycle.max / 1000)} s` : 'one had not ended'})`,
		);
	if (counters.overlappingTicks > 0)
		reasons.push(
			`${of(counters.overlappingTicks, 'tick', 'ticks')} overlapped the poll before ${counters.overlappingTicks === 1 ? 'it' : 'them'}`,
		);
	if (counters.pollErrors > 0) reasons.push(`${of(counters.pollErrors, 'poll', 'polls')} failed`);
	if (failedExecutions > 0)
		reasons.push(`${of(failedExecutions, 'execution', 'executions')} did not succeed`);
	if (options.apiMs.length === 0) reasons.push('the editor API was not measured');
	else if (judgement.apiOverLimit > 0) {
		const answered = options.apiMs.filter(Number.isFinite);
		const longest =
			answered.length > 0
				? `longest answered ${Math.round(Math.max(...answered))} ms`
				: 'none answered';
		reasons.push(
			`the editor API took more than ${API_LIMIT_MS} ms or failed ${judgement.apiOverLimit === 1 ? 'once' : `${judgement.apiOverLimit} times`} (${longest})`,
		);
	}
	judgement.passed = reasons.length === 0;
	return judgement;
}

/** Per trigger, how many times each lead it should have had arrived: leads are told apart by a sequence number. */
export interface LeadCheck {
	/** Leads every trigger had to deliver (added a whole interval and more before the window's end). */
	due: number;
	/** Of those, (trigger, lead) pairs with no delivery. */
	missing: number;
	/** (trigger, lead) pairs delivered more than once, any lead. */
	repeated: number;
	passed: boolean;
}

export function checkLeads(options: {
	workflowIds: readonly string[];
	/** Sequence numbers of the leads added in the window, each with when it was added. */
	added: ReadonlyArray<{ sequence: number; at: number }>;
	/** Every (workflow, lead sequence) an execution delivered. */
	delivered: ReadonlyArray<{ workflowId: string; sequence: number }>;
	/** Leads added before this had a whole interval to arrive. */
	dueBefore: number;
}): LeadCheck {
	const due = options.added
		.filter((lead) => lead.at <= options.dueBefore)
		.map((lead) => lead.sequence);
	const counts = new Map<string, number>();
	for (const { workflowId, sequence } of options.delivered)
		counts.set(`${workflowId}#${sequence}`, (counts.get(`${workflowId}#${sequence}`) ?? 0) + 1);
	let missing = 0;
	for (const workflowId of options.workflowIds)
		for (const sequence of due) if (!counts.has(`${workflowId}#${sequence}`)) missing++;
	const repeated = [...counts.values()].filter((count) => count > 1).length;
	return { due: due.length, missing, repeated, passed: missing === 0 && repeated === 0 };
}

function groupBy<T>(items: readonly T[], key: (item: T) => string): Map<string, T[]> {
	const groups = new Map<string, T[]>();
	for (const item of items) {
		const name = key(item);
		const group = groups.get(name);
		if (group) group.push(item);
		else groups.set(name, [item]);
	}
	return groups;
}
