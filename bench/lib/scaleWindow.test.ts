import {
	checkLeads,
	judgeWindow,
	tickOf,
	ticksIn,
	type PollRequest,
	type RecordedExecution,
	type ScaleTrigger,
} from './scaleWindow';

const T0 = Date.UTC(2026, 0, 1, 12, 0, 0);
const at = (minute: number, second: number, ms = 0) => T0 + minute * 60_000 + second * 1000 + ms;

const triggers: ScaleTrigger[] = [
	{ workflowId: 'w1', pageId: 'f1', cronSecond: 5 },
	{ workflowId: 'w2', pageId: 'f2', cronSecond: 40 },
];
const window = { start: at(0, 0), end: at(2, 0) };
const counters = { overlappingTicks: 0, pollErrors: 0 };
const calm = [20, 35, 50];

/** Two triggers polling on time for two minutes, each poll starting an execution of 300 ms. */
function onTime(): { requests: PollRequest[]; executions: RecordedExecution[] } {
	const requests: PollRequest[] = [];
	const executions: RecordedExecution[] = [];
	for (const trigger of triggers) {
		for (const minute of [0, 1]) {
			const tick = at(minute, trigger.cronSecond);
			requests.push({ pageId: trigger.pageId, receivedAt: tick + 20, finishedAt: tick + 80 });
			executions.push({
				workflowId: trigger.workflowId,
				status: 'success',
				startedAt: tick + 120,
				stoppedAt: tick + 300,
			});
		}
	}
	return { requests, executions };
}

describe('whether K triggers kept their minute', () => {
	it('finds the tick a request answers, a timer firing a hair early included', () => {
		expect(tickOf(at(3, 5, 400), 5)).toBe(at(3, 5));
		expect(tickOf(at(3, 4, 990), 5)).toBe(at(3, 5));
		expect(tickOf(at(3, 4, 500), 5)).toBe(at(2, 5));
		expect(ticksIn(at(0, 0), at(2, 0), 5)).toEqual([at(0, 5), at(1, 5)]);
		expect(ticksIn(at(0, 10), at(2, 10), 5)).toEqual([at(1, 5), at(2, 5)]);
	});

	it('passes polls on time, and measures their lateness and cycle from the tick', () => {
		const { requests, executions } = onTime();
		const judged = judgeWindow({
			triggers,
			window,
			requests,
			executions,
			order: 'after-request',
			counters,
			apiMs: calm,
		});
		expect(judged).toMatchObject({
			ticks: 4,
			polls: 4,
			missedTicks: 0,
			overInterval: 0,
			passed: true,
			reasons: [],
		});
		expect(judged.lateness).toEqual({ median: 20, p95: 20, max: 20 });
		expect(judged.cycle).toEqual({ median: 300, p95: 300, max: 300 });
	});

	it('fails a tick with no poll, a poll that ends after the next tick, overlaps, errors and a slow editor API, saying which', () => {
		const { requests, executions } = onTime();
		const dropped = requests.filter(
			(request) => !(request.pageId === 'f2' && request.receivedAt > at(1, 0)),
		);
		executions[0].stoppedAt = at(1, 30);
		executions[1].status = 'error';
		const judged = judgeWindow({
			triggers,
			window,
			requests: dropped,
			executions,
			order: 'after-request',
			counters: { overlappingTicks: 2, pollErrors: 1 },
			apiMs: [...calm, 1500],
		});
		expect(judged.passed).toBe(false);
		expect(judged).toMatchObject({
			missedTicks: 1,
			overInterval: 1,
			failedExecutions: 1,
			apiOverLimit: 1,
		});
		expect(judged.reasons).toEqual([
			'1 of 4 ticks had no poll',
			'1 poll ended more than a minute after its tick (longest 85 s)',
			'2 ticks overlapped the poll before them',
			'1 poll failed',
			'1 execution did not succeed',
			'the editor API took more than 1000 ms or failed once (longest answered 1500 ms)',
		]);
	});

	it('counts a poll over a minute late as a missed tick, not as on time for the next', () => {
		const { requests, executions } = onTime();
		const late = requests.map((request) =>
			request.pageId === 'f1' && request.receivedAt < at(1, 0)
				? { ...request, receivedAt: at(1, 6), finishedAt: at(1, 7) }
				: request,
		);
		const judged = judgeWindow({
			triggers,
			window,
			requests: late,
			executions,
			order: 'after-request',
			counters,
			apiMs: calm,
		});
		expect(judged.missedTicks).toBe(1);
		expect(judged.passed).toBe(false);
	});

	it("matches the peer's executions around its request, and never fails a window whose editor API was not measured silently", () => {
		const requests: PollRequest[] = [
			{ pageId: 'f1', receivedAt: at(0, 5, 400), finishedAt: at(0, 6) },
		];
		const executions: RecordedExecution[] = [
			{ workflowId: 'w1', status: 'success', startedAt: at(0, 5, 100), stoppedAt: at(0, 9) },
		];
		const one = [triggers[0]];
		const judged = judgeWindow({
			triggers: one,
			window: { start: at(0, 0), end: at(1, 0) },
			requests,
			executions,
			order: 'around-request',
			counters,
			apiMs: calm,
		});
		expect(judged.cycle.max).toBe(4000);
		expect(judged.passed).toBe(true);
		const unmeasured = judgeWindow({
			triggers: one,
			window: { start: at(0, 0), end: at(1, 0) },
			requests,
			executions,
			order: 'around-request',
			counters,
			apiMs: [],
		});
		expect(unmeasured.reasons).toEqual(['the editor API was not measured']);
	});

	it('says a poll had not ended rather than giving its length as infinite', () => {
		const requests: PollRequest[] = [{ pageId: 'f1', receivedAt: at(0, 5, 400) }];
		const executions: RecordedExecution[] = [
			{ workflowId: 'w1', status: 'success', startedAt: at(0, 5, 100) },
		];
		const judged = judgeWindow({
			triggers: [triggers[0]],
			window: { start: at(0, 0), end: at(1, 0) },
			requests,
			executions,
			order: 'around-request',
			counters,
			apiMs: calm,
		});
		expect(judged.passed).toBe(false);
		expect(judged.reasons).toEqual([
			'1 poll ended more than a minute after its tick (one had not ended)',
		]);
	});
});

describe('every lead once, for every trigger', () => {
	const added = [
		{ sequence: 10, at: at(0, 0) },
		{ sequence: 11, at: at(0, 0) },
		{ sequence: 12, at: at(1, 30) },
	];

	it('passes when each lead due arrived once at every trigger; a lead added too late to be due may be missing', () => {
		const delivered = ['w1', 'w2'].flatMap((workflowId) =>
			[10, 11].map((sequence) => ({ workflowId, sequence })),
		);
		expect(
			checkLeads({ workflowIds: ['w1', 'w2'], added, delivered, dueBefore: at(1, 0) }),
		).toEqual({ due: 2, missing: 0, repeated: 0, passed: true });
	});

	it('fails a lead missing at one trigger and a lead delivered twice, even one not yet due', () => {
		const delivered = [
			{ workflowId: 'w1', sequence: 10 },
			{ workflowId: 'w1', sequence: 11 },
			{ workflowId: 'w2', sequence: 10 },
			{ workflowId: 'w2', sequence: 12 },
			{ workflowId: 'w2', sequence: 12 },
		];
		expect(
			checkLeads({ workflowIds: ['w1', 'w2'], added, delivered, dueBefore: at(1, 0) }),
		).toEqual({ due: 2, missing: 1, repeated: 1, passed: false });
	});
});
