import { awaitsHandOff, HAND_OFF_WAIT_MS, positionFingerprint, recordHandOff } from '../../../../nodes/AppBuilder/trigger/handOffs';

describe('positions handed to n8n under durable poll cursors', () => {
	const before = positionFingerprint({ v: 1, scope: 'a/b/new', floor: 10, seen: { x: 10 }, undated: [] });
	const handedOver = positionFingerprint({ v: 1, scope: 'a/b/new', floor: 10, seen: { x: 10, y: 20 }, undated: [] });
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
