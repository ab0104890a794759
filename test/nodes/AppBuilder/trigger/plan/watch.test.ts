import type { CursorState, FirstPoll } from '../../../../../nodes/AppBuilder/trigger/cursor/cursor';
import { formStep, Watch } from '../../../../../nodes/AppBuilder/trigger/plan/watch';
import type { TriggerPosition } from '../../../../../nodes/AppBuilder/trigger/saved/position';
import { savedPosition } from '../../../../support/savedPosition';

describe('the watch rule: how each form starts', () => {
	const cursor = (newest: number): CursorState => ({
		floor: { time: newest - 1000, key: '' },
		seen: { k: newest },
		undated: '',
	});
	const position = savedPosition;
	const NONE: FirstPoll = { kind: 'none' };
	const LATEST: FirstPoll = { kind: 'latest', count: 3 };
	const NOW = 10_000;
	const from = (time: number): CursorState => ({
		floor: { time, key: '' },
		seen: {},
		undated: '',
	});
	const all = (saved: TriggerPosition | undefined, firstPoll: FirstPoll = NONE) =>
		new Watch(saved, { pageId: undefined, firstPoll }, NOW);
	const one = (saved: TriggerPosition | undefined, pageId: string, firstPoll: FirstPoll = NONE) =>
		new Watch(saved, { pageId, firstPoll }, NOW);

	it("the trigger's first poll goes by On First Poll for every form, and records when the watch of every form began", () => {
		const watch = all(undefined, LATEST);
		expect(watch.startOf('a')).toEqual({
			firstPoll: LATEST,
			cursor: from(NOW),
			undatedUnknown: false,
		});
		expect(watch).toMatchObject({ allFormsSince: NOW, changes: true, begun: false });
		// Since: every lead from then on; read later, the form keeps a cursor from then.
		const SINCE: FirstPoll = { kind: 'since', sinceMs: 500 };
		const since = all(undefined, SINCE);
		expect(since.startOf('a')).toEqual({
			firstPoll: SINCE,
			cursor: from(500),
			undatedUnknown: false,
		});
		expect(since.allFormsSince).toBe(500);
		expect(one(undefined, 'a')).toMatchObject({
			allFormsSince: undefined,
			changes: true,
			begun: false,
		});
	});

	it('watching every form: a form with a cursor carries on; one never read starts from when the watch began, its undated leads new', () => {
		const saved = position({ a: cursor(5) }, { allFormsSince: 100, undatedUnknown: ['a'] });
		const watch = all(saved, LATEST);
		expect(watch.startOf('a')).toEqual({ cursor: cursor(5), undatedUnknown: true });
		expect(watch.startOf('added-later')).toEqual({ cursor: from(100), undatedUnknown: false });
		expect(watch).toMatchObject({ allFormsSince: 100, changes: false, begun: true });
	});

	it('All Forms to One Form: the form stays watched (from when the watch began, when never read); the others are not watched', () => {
		const saved = position({ a: cursor(5), b: cursor(7) }, { allFormsSince: 100 });
		const neverRead = one(saved, 'c', LATEST);
		expect(neverRead.startOf('c')).toEqual({ cursor: from(100), undatedUnknown: false });
		expect(neverRead).toMatchObject({ allFormsSince: undefined, changes: true, begun: true });
		expect(neverRead.watches('a')).toBe(false);
		expect(one(saved, 'a').startOf('a')).toEqual({ cursor: cursor(5), undatedUnknown: false });
	});

	it('One Form to another form or to All Forms: a form that comes in starts at that poll, never by On First Poll', () => {
		const saved = position({ a: cursor(5) });
		const other = one(saved, 'b', LATEST);
		expect(other.startOf('b')).toEqual({
			firstPoll: NONE,
			cursor: from(NOW),
			undatedUnknown: false,
		});
		expect(other).toMatchObject({ changes: true, begun: false });
		expect(other.watches('a')).toBe(false);
		expect(one(saved, 'a')).toMatchObject({ changes: false, begun: true });

		const toAll = all(saved, { kind: 'since', sinceMs: 500 });
		expect(toAll.startOf('a')).toEqual({ cursor: cursor(5), undatedUnknown: false });
		expect(toAll.startOf('b')).toEqual({
			firstPoll: NONE,
			cursor: from(NOW),
			undatedUnknown: false,
		});
		expect(toAll).toMatchObject({ allFormsSince: NOW, changes: true, begun: false });
	});

	it('a form back in the watch starts then: read then, a first poll; not read then, its cursor from then on, so nothing it emitted before comes out again', () => {
		// One Form on b, with a left out (away); a emitted a record dated ahead (k at 900,000).
		const ahead: CursorState = {
			floor: { time: 50, key: '' },
			seen: { k: 900_000, old: 60 },
			undated: 'X',
		};
		const saved = position(
			{ a: ahead, b: cursor(5) },
			{ away: { a: { since: 1, polls: 2 } }, undatedUnknown: ['a'] },
		);
		expect(one(saved, 'b')).toMatchObject({ changes: false, begun: true });
		const back = all(saved);
		expect(back).toMatchObject({ changes: true, begun: false, allFormsSince: NOW });
		expect(back.startOf('a')).toEqual({
			firstPoll: NONE,
			cursor: { floor: { time: NOW, key: '' }, seen: { k: 900_000 }, undated: 'X' },
			undatedUnknown: true,
		});
		expect(back.startOf('b')).toEqual({ cursor: cursor(5), undatedUnknown: false });
		expect(one(saved, 'a')).toMatchObject({ changes: true, begun: false });
		const events = [
			{ key: 'k', time: 900_000 },
			{ key: 'new', time: NOW + 5 },
		];
		const options = { mode: 'new', firstPoll: NONE, maxItems: 10, nowMs: NOW + 10 } as const;
		expect(
			formStep({ ...back.startOf('a'), firstPoll: undefined }, events, options).toEmit,
		).toEqual([{ key: 'new', time: NOW + 5 }]);
	});

	it('a cursor whose undated leads are unknown takes those present as handled; a form never read emits them', () => {
		const events = [
			{ key: 'u', time: undefined },
			{ key: 'before', time: 99 },
			{ key: 'after', time: 101 },
		];
		const options = { mode: 'new', firstPoll: NONE, maxItems: 10, nowMs: 1000 } as const;
		const saved = position({}, { allFormsSince: 100 });
		expect(formStep(all(saved).startOf('new'), events, options).toEmit).toEqual([
			{ key: 'after', time: 101 },
			{ key: 'u', time: undefined },
		]);
		expect(formStep({ cursor: from(100), undatedUnknown: true }, events, options).toEmit).toEqual([
			{ key: 'after', time: 101 },
		]);
		// Since read at the trigger's first poll: the undated leads present have no time to be after it.
		const since = all(undefined, { kind: 'since', sinceMs: 100 }).startOf('a');
		expect(formStep(since, events, options).toEmit).toEqual([{ key: 'after', time: 101 }]);
	});
});
