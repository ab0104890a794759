import type { CursorState } from '../../../../../nodes/AppBuilder/trigger/cursor/cursor';
import { formStarts, planForm } from '../../../../../nodes/AppBuilder/trigger/plan/formCursor';
import type { TriggerPosition } from '../../../../../nodes/AppBuilder/trigger/saved/position';

describe('how a form starts', () => {
	const cursor = (newest: number, keys: string[] = ['k']): CursorState => ({
		floor: { time: newest - 1000, key: '' },
		seen: Object.fromEntries([...keys.map((key) => [key, newest]), ['older', newest - 10]]),
		undated: '',
	});
	const position = (
		forms: Record<string, CursorState>,
		extra: Partial<TriggerPosition> = {},
	): TriggerPosition => ({
		scope: 'app_1/new',
		forms,
		away: {},
		undatedUnknown: [],
		leftOver: [],
		quiet: {},
		...extra,
	});
	const NONE = { kind: 'none' } as const;

	it('how a form starts: its cursor; else since the watch of every form began; else Since; else as On First Poll says', () => {
		const watching = position({ a: cursor(5) }, { allFormsSince: 100, undatedUnknown: ['a'] });
		const all = { allForms: true, firstPoll: { kind: 'since', sinceMs: 50 } } as const;
		expect(formStarts(watching, all)('a')).toEqual({
			kind: 'cursor',
			cursor: cursor(5),
			undatedUnknown: true,
		});
		expect(formStarts(watching, all)('new')).toEqual({
			kind: 'cursor',
			cursor: { floor: { time: 100, key: '' }, seen: {}, undated: '' },
			undatedUnknown: true,
		});
		// The watch of every form not begun yet (the first poll, or One Form): Since, then the cursor's first poll.
		expect(formStarts(position({}), all)('new')).toEqual({
			kind: 'cursor',
			cursor: { floor: { time: 50, key: '' }, seen: {}, undated: '' },
			undatedUnknown: true,
		});
		expect(formStarts(watching, { allForms: false, firstPoll: NONE })('new')).toEqual({
			kind: 'first-poll',
		});
		expect(formStarts(undefined, { allForms: true, firstPoll: NONE })('new')).toEqual({
			kind: 'first-poll',
		});
	});

	it('takes the undated inquiries present as handled when its cursor does not know them, and emits the dated ones after its floor', () => {
		const start = formStarts(position({}, { allFormsSince: 100 }), {
			allForms: true,
			firstPoll: NONE,
		})('new');
		const plan = planForm(
			start,
			[
				{ key: 'u', time: undefined },
				{ key: 'before', time: 99 },
				{ key: 'after', time: 101 },
			],
			{
				mode: 'new',
				firstPoll: NONE,
				maxItems: 10,
				nowMs: 1000,
			},
		);
		expect(plan.toEmit).toEqual([{ key: 'after', time: 101 }]);
	});
});
