import { planUndated } from '../../../../../nodes/AppBuilder/trigger/cursor/undated';
import {
	hashText,
	keyHash,
	tableOf,
} from '../../../../../nodes/AppBuilder/trigger/cursor/keySetTable';

const table = (keys: string[], size = 60) => tableOf(keys.map(keyHash), size);
const keys = (prefix: string, count: number) =>
	Array.from({ length: count }, (_, i) => `${prefix}${i}`);

describe('planUndated', () => {
	it('reads what appeared and what disappeared, and commits onto the table of what is present and handled', () => {
		const handled = keys('old', 1000);
		const present = [...handled.slice(10), 'new-b', 'new-a'];
		const plan = planUndated(table(handled), present, () => false);
		expect(plan.toEmit).toEqual(['new-a', 'new-b']);
		expect([...plan.disappeared].sort()).toEqual(
			handled
				.slice(0, 10)
				.map((key) => hashText(keyHash(key)))
				.sort(),
		);
		expect(plan.unresolved).toBe(0);
		// Once the emitted ones are added, the table is that of the present set.
		plan.table.toggle(keyHash('new-a'), 1);
		plan.table.toggle(keyHash('new-b'), 1);
		expect(plan.table.encode()).toBe(table(present).encode());
	});

	it('adopts without emitting a key that was emitted while it had a time', () => {
		const plan = planUndated(
			table(['u']),
			['u', 'was-dated', 'fresh'],
			(key) => key === 'was-dated',
		);
		expect(plan.toEmit).toEqual(['fresh']);
		expect(plan.table.encode()).toBe(table(['u', 'was-dated']).encode());
	});

	it('leaves what it cannot tell apart, and says about how much that is', () => {
		// 5 parts of 2 cells cannot tell 40 new keys apart.
		const plan = planUndated(table([], 2), keys('new', 40), () => false);
		expect(plan.unresolved).toBeGreaterThanOrEqual(20);
		expect(plan.toEmit.length).toBeLessThan(40);
		for (const key of plan.toEmit) expect(key).toMatch(/^new\d+$/);
	});

	it('never reads a key as appeared unless it is present, nor as disappeared while it is present', () => {
		// A stored table holding "a" twice (damaged, or a release with a bug): the difference is "a" taken out once.
		const doubled = table(['a', 'a']);
		const plan = planUndated(doubled, ['a'], () => false);
		expect(plan.toEmit).toEqual([]);
		expect(plan.disappeared.size).toBe(0);
		expect(plan.unresolved).toBeGreaterThan(0);
		// A stored table with a key taken out once too often reads as that key having appeared; no present key is it: left alone.
		const missing = table([]);
		missing.toggle(keyHash('ghost'), -1);
		const ghost = planUndated(missing, [], () => false);
		expect(ghost.toEmit).toEqual([]);
		expect(ghost.unresolved).toBeGreaterThan(0);
	});
});
