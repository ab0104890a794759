import {
	bracketIsNarrow,
	confirmSteppingDown,
	findLargestK,
	firstKToConfirm,
	probeAround,
	probeUpward,
} from './kSearch';

/** A machine that carries `capacity` triggers: every K up to it passes. */
const capacity = (limit: number) => {
	const asked: number[] = [];
	return { asked, probe: async (k: number) => (asked.push(k), k <= limit) };
};

describe('finding the largest K by doubling, then bisecting', () => {
	it('doubles until a failure, then bisects to within the resolution', async () => {
		const machine = capacity(300);
		const result = await findLargestK({ start: 25, max: 10_000, resolution: 0.1 }, machine.probe);
		expect(machine.asked.slice(0, 5)).toEqual([25, 50, 100, 200, 400]);
		expect(result.passed).toBeLessThanOrEqual(300);
		expect(result.failed).toBeGreaterThan(300);
		expect(bracketIsNarrow(result.passed, result.failed as number, 0.1)).toBe(true);
		expect((result.failed as number) - result.passed).toBeLessThanOrEqual(30);
		expect(result.probes.map((p) => p.k)).toEqual(machine.asked);
	});

	it('skips the doublings a first measure says would pass, but never jumps by less than a doubling', async () => {
		const machine = capacity(450);
		const result = await findLargestK(
			{ start: 25, max: 10_000, resolution: 0.2, nextAfterFirstPass: () => 300 },
			machine.probe,
		);
		expect(machine.asked.slice(0, 3)).toEqual([25, 300, 600]);
		expect(result.passed).toBeGreaterThanOrEqual(450 / 1.2);
		expect(result.failed).toBeGreaterThan(450);
		const timid = capacity(450);
		await findLargestK(
			{ start: 25, max: 10_000, resolution: 0.2, nextAfterFirstPass: () => 30 },
			timid.probe,
		);
		expect(timid.asked.slice(0, 2)).toEqual([25, 50]);
	});

	it('stops a doubling where a pass says the machine would run out, but always steps up by the resolution', async () => {
		const machine = capacity(450);
		// Each pass projects the most the machine carries from what it measured: 1.4 times the pass here.
		const result = await findLargestK(
			{ start: 100, max: 10_000, resolution: 0.2, mostAfterPass: (k) => k * 1.4 },
			machine.probe,
		);
		expect(machine.asked.slice(0, 4)).toEqual([100, 140, 196, 274]);
		expect(result.failed).toBeGreaterThan(450);
		expect(bracketIsNarrow(result.passed, result.failed as number, 0.2)).toBe(true);
		const stingy = capacity(450);
		await findLargestK(
			{ start: 100, max: 10_000, resolution: 0.2, mostAfterPass: () => 0 },
			stingy.probe,
		);
		expect(stingy.asked.slice(0, 3)).toEqual([100, 121, 146]);
	});

	it('bisects below the start when the start already fails, down to 0 when nothing passes', async () => {
		const some = capacity(7);
		const result = await findLargestK({ start: 25, max: 100, resolution: 0.1 }, some.probe);
		expect(result).toMatchObject({ passed: 7, failed: 8 });
		const none = await findLargestK({ start: 4, max: 100, resolution: 0.1 }, capacity(0).probe);
		expect(none).toMatchObject({ passed: 0, failed: 1 });
	});

	it('stops at the ceiling with no failure when every K up to it passes', async () => {
		const machine = capacity(1_000_000);
		const result = await findLargestK({ start: 25, max: 150, resolution: 0.1 }, machine.probe);
		expect(machine.asked).toEqual([25, 50, 100, 150]);
		expect(result).toMatchObject({ passed: 150, failed: undefined });
	});
});

describe("probing around another configuration's K", () => {
	it('stops at the first factor that passes: the peer at a fifth of ours, then a tenth', async () => {
		const weak = capacity(30);
		expect(
			await probeAround({ passed: 400, failed: 460 }, [0.2, 0.1], weak.probe, 4),
		).toMatchObject({ passed: 0, failed: 40 });
		expect(weak.asked).toEqual([80, 40]);
		const strong = capacity(100);
		const result = await probeAround({ passed: 400, failed: 460 }, [0.1, 0.2], strong.probe, 4);
		expect(strong.asked).toEqual([80]);
		expect(result).toMatchObject({ passed: 80, failed: undefined });
	});

	it("tries the base's first failure after a pass at the base's own K, within the probes allowed", async () => {
		const better = capacity(500);
		expect(
			await probeAround({ passed: 400, failed: 460 }, [1, 0.8], better.probe, 2),
		).toMatchObject({ passed: 460, failed: undefined });
		expect(better.asked).toEqual([400, 460]);
		const worse = capacity(350);
		expect(await probeAround({ passed: 400, failed: 460 }, [1, 0.8], worse.probe, 2)).toMatchObject(
			{ passed: 320, failed: 400 },
		);
		const capped = capacity(350);
		expect(
			await probeAround({ passed: 400, failed: 460 }, [1, 0.8], capped.probe, 1),
		).toMatchObject({ passed: 0, failed: 400 });
		expect(capped.asked).toEqual([400]);
	});

	it('confirms first where the costliest heavy pass projects the load limit, or a lighter pass above it', () => {
		const probes = [
			{ k: 50, passed: true, load: 0.3 },
			{ k: 188, passed: true, load: 0.8 },
			{ k: 376, passed: true, load: 1.3 },
			{ k: 752, passed: false, load: 1.9 },
			{ k: 564, passed: true, load: 1.7 },
		];
		// 564 at 1.7 cores reaches 1.35 at 447; the failure at 752 projects nothing.
		expect(firstKToConfirm(probes, 564, 1.35)).toBe(447);
		expect(firstKToConfirm(probes, 564, undefined)).toBe(564);
		// The lightest per trigger is not the one taken: 50 at 0.3 would say 16, 564 at 1.7 says 44.
		expect(firstKToConfirm(probes, 564, 0.1)).toBe(16);
		// After a failed confirmation the bracket's pass is lower: nothing above it is taken.
		expect(firstKToConfirm(probes, 188, 1.35)).toBe(188);
		// A light pass above every projection is taken.
		expect(
			firstKToConfirm([...probes.slice(0, 3), { k: 400, passed: true, load: 2.0 }], 400, 1.35),
		).toBe(376);
	});

	it('confirms a projection where every pass but the first loaded n8n past the limit (a search that reached its ceiling)', () => {
		// 10,000-inquiry forms: 10 light, then 187 and 200 both heavy; confirming 10 would report a twentieth of what passed.
		const probes = [
			{ k: 10, passed: true, load: 0.12 },
			{ k: 187, passed: true, load: 1.71 },
			{ k: 200, passed: true, load: 1.51 },
		];
		expect(firstKToConfirm(probes, 200, 1.35)).toBe(147);
		// A refused window (no load measured) projects nothing.
		expect(
			firstKToConfirm(
				[
					{ k: 10, passed: true, load: 0.12 },
					{ k: 50, passed: true, load: Number.POSITIVE_INFINITY },
				],
				50,
				1.35,
			),
		).toBe(10);
	});

	it('tries the peer smallest first and stops at its first failure, which decides the target', async () => {
		// A fifth of the target (10) and a fifth of ours (31): a peer that fails at 10 is not run at 31.
		const weak = capacity(4);
		expect(await probeUpward([31, 10], weak.probe, 2)).toMatchObject({ passed: 0, failed: 10 });
		expect(weak.asked).toEqual([10]);
		const fair = capacity(20);
		expect(await probeUpward([10, 31], fair.probe, 2)).toMatchObject({ passed: 10, failed: 31 });
		expect(fair.asked).toEqual([10, 31]);
		const strong = capacity(100);
		expect(await probeUpward([10, 31, 31.5], strong.probe, 3)).toMatchObject({
			passed: 31,
			failed: undefined,
		});
		expect(strong.asked).toEqual([10, 31]);
		const capped = capacity(100);
		expect(await probeUpward([10, 31], capped.probe, 1)).toMatchObject({
			passed: 10,
			failed: undefined,
		});
		expect(await probeUpward([0], capacity(0).probe, 1)).toMatchObject({ passed: 0, failed: 1 });
	});

	it('confirms a clear step down after a failed confirmation, not the next K below it', async () => {
		// Probes passed up to 543; confirmations failed at 399 on a slow editor answer: 339 is tried next, not 388.
		const longWindow = capacity(350);
		expect(await confirmSteppingDown(399, 0.85, 3, longWindow.probe)).toBe(339);
		expect(longWindow.asked).toEqual([399, 339]);
		const never = capacity(0);
		expect(await confirmSteppingDown(399, 0.85, 3, never.probe)).toBeUndefined();
		expect(never.asked).toEqual([399, 339, 288]);
		const tiny = capacity(0);
		expect(await confirmSteppingDown(1, 0.85, 3, tiny.probe)).toBeUndefined();
		expect(tiny.asked).toEqual([1]);
	});

	it('never probes below 1', async () => {
		const none = capacity(0);
		expect(await probeAround({ passed: 3 }, [0.2], none.probe, 3)).toMatchObject({
			passed: 0,
			failed: 1,
		});
	});
});
