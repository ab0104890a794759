import {
	afterFailedPoll,
	awaitsHandOff,
	claimPoll,
	MEMORY_KEPT_MS,
	HAND_OFF_WAIT_MS,
	MAX_TRIGGERS,
	positionFingerprint,
	recordFailedPoll,
	recordHandOff,
	recordSucceededPoll,
	rememberedTriggers,
} from '../../../../nodes/AppBuilder/trigger/triggerMemory';

describe('one poll at a time per trigger', () => {
	it('refuses a second claim of the same trigger while the first is held, not another trigger', () => {
		const release = claimPoll('wf-1:node-1', 0, 1000);
		expect(release).toBeDefined();
		expect(claimPoll('wf-1:node-1', 10, 1010)).toBeUndefined();
		const other = claimPoll('wf-1:node-2', 10, 1010);
		expect(other).toBeDefined();
		release!();
		other!();
		const again = claimPoll('wf-1:node-1', 20, 1020);
		expect(again).toBeDefined();
		again!();
	});

	it('lets a poll take over a claim that lapsed, and the late poll cannot release the new claim', () => {
		const late = claimPoll('wf-2:node-1', 0, 1000);
		const takeover = claimPoll('wf-2:node-1', 1000, 2000);
		expect(takeover).toBeDefined();
		late!();
		expect(claimPoll('wf-2:node-1', 1500, 2500)).toBeUndefined();
		takeover!();
		expect(claimPoll('wf-2:node-1', 1600, 2600)).toBeDefined();
	});
});

describe('positions handed to n8n under durable poll cursors', () => {
	const before = positionFingerprint({
		v: 1,
		scope: 'a/b/new',
		floor: 10,
		seen: { x: 10 },
		undated: [],
	});
	const handedOver = positionFingerprint({
		v: 1,
		scope: 'a/b/new',
		floor: 10,
		seen: { x: 10, y: 20 },
		undated: [],
	});
	const reset = positionFingerprint(undefined);

	it('fingerprints a position whatever order the database gives its keys back in', () => {
		const written = { v: 1, scope: 's', floor: 5, seen: { k1: 7, k22: 9 }, undated: ['u'] };
		const fromJsonb = { seen: { k22: 9, k1: 7 }, v: 1, floor: 5, scope: 's', undated: ['u'] };
		expect(positionFingerprint(fromJsonb)).toBe(positionFingerprint(written));
		expect(positionFingerprint({ ...written, floor: 6 })).not.toBe(positionFingerprint(written));
		expect(positionFingerprint(undefined)).toBe(positionFingerprint(null));
	});

	it('defers a poll given the position the last hand-over started from, until n8n stored the new one', () => {
		recordHandOff('wf-1:node-1', before, handedOver, 1000);
		expect(awaitsHandOff('wf-1:node-1', before, 1500)).toBe(true);
		expect(awaitsHandOff('wf-1:node-1', before, 1600)).toBe(true);
		expect(awaitsHandOff('wf-1:node-2', before, 1500)).toBe(false);
		// The stored position arrives: that poll goes ahead, and so do the next ones, whatever they are given.
		expect(awaitsHandOff('wf-1:node-1', handedOver, 2000)).toBe(false);
		expect(awaitsHandOff('wf-1:node-1', before, 2500)).toBe(false);
	});

	it('lets a poll given any other position go ahead: one n8n reset is not a late copy', () => {
		recordHandOff('wf-4:node-1', before, handedOver, 1000);
		expect(awaitsHandOff('wf-4:node-1', reset, 1500)).toBe(false);
		expect(awaitsHandOff('wf-4:node-1', before, 1600)).toBe(false);
	});

	it('stops deferring after the wait: the hand-over was not stored', () => {
		recordHandOff('wf-2:node-1', before, handedOver, 1000);
		expect(awaitsHandOff('wf-2:node-1', before, 1000 + HAND_OFF_WAIT_MS - 1)).toBe(true);
		expect(awaitsHandOff('wf-2:node-1', before, 1000 + HAND_OFF_WAIT_MS)).toBe(false);
		expect(awaitsHandOff('wf-2:node-1', before, 1000 + HAND_OFF_WAIT_MS + 1)).toBe(false);
	});

	it('waits for nothing after a poll that left the position as it was, and a later hand-over replaces an earlier one', () => {
		recordHandOff('wf-3:node-1', before, handedOver, 1000);
		recordHandOff('wf-3:node-1', handedOver, handedOver, 2000);
		expect(awaitsHandOff('wf-3:node-1', before, 2100)).toBe(false);
		recordHandOff('wf-3:node-1', before, handedOver, 3000);
		recordHandOff('wf-3:node-1', handedOver, before, 4000);
		expect(awaitsHandOff('wf-3:node-1', handedOver, 4100)).toBe(true);
		expect(awaitsHandOff('wf-3:node-1', before, 4200)).toBe(false);
	});
});

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

	it('a clock set back during an outage does not put off its report', () => {
		// Set back an hour after the second poll: the outage has lasted 15 minutes by the fourth.
		expect(reportsAt([100, 110, 50, 55])).toEqual([55]);
		expect(reportsAt([100, 100, 40], { afterPolls: 3, afterMs: 0 })).toEqual([40]);
	});

	it('counts per trigger, and a success starts the count again', () => {
		const policy = { afterPolls: 2, afterMs: 0 };
		expect(recordFailedPoll('wf:a', 'reads', 0, policy).report).toBe(false);
		expect(recordFailedPoll('wf:b', 'reads', 0, policy).report).toBe(false);
		expect(recordFailedPoll('wf:a', 'reads', 1, policy).report).toBe(true);
		expect(recordFailedPoll('wf:a', 'reads', 2, policy).report).toBe(false);
		expect(recordSucceededPoll('wf:a', 'reads', 6)).toEqual({
			since: 0,
			polls: 3,
			reported: true,
			lastAt: 2,
		});
		expect(recordSucceededPoll('wf:a', 'reads', 6)).toBeUndefined();
		expect(recordFailedPoll('wf:a', 'reads', 3, policy).report).toBe(false);
		expect(recordFailedPoll('wf:a', 'reads', 4, policy).report).toBe(true);
		expect(recordFailedPoll('wf:b', 'reads', 5, policy).report).toBe(true);
	});
});

describe('what the process remembers stays bounded', () => {
	const policy = { afterPolls: 1000, afterMs: 0 };

	it('forgets a trigger MEMORY_KEPT_MS after its last poll, failure streak included (a deleted workflow)', () => {
		const start = 10 * MEMORY_KEPT_MS;
		recordFailedPoll('gone:node', 'reads', start, policy);
		recordFailedPoll('gone:node', 'undated', start, policy);
		recordHandOff('gone:node', 'a', 'b', start);
		recordFailedPoll('alive:node', 'reads', start, policy);
		recordFailedPoll('alive:node', 'reads', start + MEMORY_KEPT_MS - 1, policy);
		// Another trigger's poll, past the time: the deleted workflow's trigger is gone, the live one not.
		claimPoll('other:node', start + MEMORY_KEPT_MS, start + MEMORY_KEPT_MS + 1)?.();
		expect(recordSucceededPoll('gone:node', 'reads', start + MEMORY_KEPT_MS)).toBeUndefined();
		expect(recordSucceededPoll('alive:node', 'reads', start + MEMORY_KEPT_MS)).toMatchObject({
			polls: 2,
		});
	});

	it('holds at most MAX_TRIGGERS triggers however many come and go, the least recently polled going first', () => {
		const now = 20 * MEMORY_KEPT_MS;
		for (let index = 0; index < MAX_TRIGGERS + 5_000; index++) {
			const key = `many:${index}`;
			claimPoll(key, now + index, now + index + 1000)?.();
			recordFailedPoll(key, 'reads', now + index, policy);
			recordHandOff(key, 'a', 'b', now + index);
			expect(rememberedTriggers()).toBeLessThanOrEqual(MAX_TRIGGERS);
		}
		expect(rememberedTriggers()).toBe(MAX_TRIGGERS);
		const last = now + MAX_TRIGGERS + 5_000;
		expect(recordSucceededPoll(`many:${MAX_TRIGGERS + 4_999}`, 'reads', last)).toMatchObject({
			polls: 1,
		});
		expect(recordSucceededPoll('many:0', 'reads', last)).toBeUndefined();
	});

	it("keeps a failing trigger's reads and undated streaks apart", () => {
		const bounds = { afterPolls: 2, afterMs: 0 };
		expect(recordFailedPoll('apart:node', 'reads', 0, bounds).report).toBe(false);
		expect(recordFailedPoll('apart:node', 'undated', 1, bounds).report).toBe(false);
		expect(recordFailedPoll('apart:node', 'undated', 2, bounds).report).toBe(true);
		expect(recordSucceededPoll('apart:node', 'undated', 3)).toMatchObject({ polls: 2 });
		expect(recordFailedPoll('apart:node', 'reads', 4, bounds).report).toBe(true);
	});
});
