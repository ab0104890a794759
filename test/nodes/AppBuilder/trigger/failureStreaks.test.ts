import { afterFailedPoll, recordFailedPoll, recordSucceededPoll } from '../../../../nodes/AppBuilder/trigger/failureStreaks';

describe('when a failing trigger reports its failure', () => {
	const MINUTE = 60_000;
	const reporting = { afterPolls: 3, afterMs: 15 * MINUTE };

	/** Failed polls at the given minutes; which of them report. */
	const reportsAt = (minutes: number[], policy = reporting) => {
		let streak;
		const reported: number[] = [];
		for (const minute of minutes) {
			const next = afterFailedPoll(streak, minute * MINUTE, policy);
			if (next.report) reported.push(minute);
			streak = next.streak;
		}
		return reported;
	};

	it('reports once the failures are both many enough and long enough, and only once', () => {
		expect(reportsAt([0, 1, 2, 3, 14, 15, 16, 60, 24 * 60])).toEqual([15]);
		// Hourly polls: the third failed poll is two hours in.
		expect(reportsAt([0, 60, 120, 180])).toEqual([120]);
	});

	it('stays quiet for a blip, however long it lasts, while it is fewer polls than the bound', () => {
		expect(reportsAt([0, 600])).toEqual([]);
	});

	it('with no time bound, reports at the given count of failed polls', () => {
		expect(reportsAt([0, 0, 0, 0], { afterPolls: 2, afterMs: 0 })).toEqual([0]);
	});

	it('counts per trigger, and a success starts the count again', () => {
		const policy = { afterPolls: 2, afterMs: 0 };
		expect(recordFailedPoll('wf:a', 0, policy).report).toBe(false);
		expect(recordFailedPoll('wf:b', 0, policy).report).toBe(false);
		expect(recordFailedPoll('wf:a', 1, policy).report).toBe(true);
		expect(recordFailedPoll('wf:a', 2, policy).report).toBe(false);
		expect(recordSucceededPoll('wf:a')).toEqual({ since: 0, polls: 3, reported: true });
		expect(recordSucceededPoll('wf:a')).toBeUndefined();
		expect(recordFailedPoll('wf:a', 3, policy).report).toBe(false);
		expect(recordFailedPoll('wf:a', 4, policy).report).toBe(true);
		expect(recordFailedPoll('wf:b', 5, policy).report).toBe(true);
	});
});
