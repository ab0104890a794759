import {
	compactCursor,
	forgottenCursor,
	FORGET_AWAY_FORM_AFTER_MS,
	FORGET_AWAY_FORM_AFTER_POLLS,
	SHRINK_AWAY_FORM_AFTER_MS,
	SHRINK_AWAY_FORM_AFTER_POLLS,
	MAX_SMALL_CURSORS,
	MAX_WHOLE_CURSORS,
	nextPosition,
	positionProblem,
	SAVED_POSITION_VERSION,
	SMALL_CURSOR_KEYS,
	type TriggerPosition,
} from '../../../../../nodes/AppBuilder/trigger/saved/position';
import {
	DEFAULT_MAX_TRACKED,
	type CursorState,
} from '../../../../../nodes/AppBuilder/trigger/cursor/cursor';
import { type InquiryEvent } from '../../../../../nodes/AppBuilder/inquiries/inquiryEvent';
import {
	PollPlanner,
	MIN_TRACKED_PER_FORM,
} from '../../../../../nodes/AppBuilder/trigger/plan/pollPlan';
import { Watch } from '../../../../../nodes/AppBuilder/trigger/plan/watch';
import { nextRhythm } from '../../../../../nodes/AppBuilder/trigger/quiet/formRhythm';
import { savedPosition } from '../../../../support/savedPosition';

describe("the trigger's saved position over its forms", () => {
	const cursor = (newest: number, keys: string[] = ['k']): CursorState => ({
		floor: { time: newest - 1000, key: '' },
		seen: Object.fromEntries([...keys.map((key) => [key, newest]), ['older', newest - 10]]),
		undated: '',
	});
	const SCOPE = 'app_1/new';
	const position = savedPosition;
	const NONE = { kind: 'none' } as const;
	/** The watch of every form (`saved` decides since when), or of form `a`, at `nowMs`. */
	const ALL = (saved: TriggerPosition | undefined, nowMs = 0) =>
		new Watch(saved, { pageId: undefined, firstPoll: NONE }, nowMs);
	const ONE = (saved: TriggerPosition | undefined, nowMs = 0, pageId = 'a') =>
		new Watch(saved, { pageId, firstPoll: NONE }, nowMs);

	it('keeps the cursors of forms that failed or were not reached, and takes the new ones of forms read', () => {
		const previous = position({ a: cursor(1), b: cursor(2), c: cursor(3) }, { allFormsSince: 0 });
		const next = nextPosition(
			previous,
			SCOPE,
			{ listed: ['a', 'b', 'c'], read: new Map([['a', cursor(10)]]), leftOver: ['c'] },
			ALL(previous),
		);
		expect(next).toEqual(
			position(
				{ a: cursor(10), b: cursor(2), c: cursor(3) },
				{ leftOver: ['c'], allFormsSince: 0 },
			),
		);
	});

	it('starts over for another app or event', () => {
		const previous = { ...position({ a: cursor(1) }), scope: 'other/new' };
		expect(
			nextPosition(
				previous,
				SCOPE,
				{ listed: ['a'], read: new Map(), leftOver: [] },
				ONE(undefined, 5),
			).forms,
		).toEqual({ a: { floor: { time: 5, key: '' }, seen: {}, undated: '' } });
	});

	it('keeps the whole cursor of a form missing from one list answer, counts its absence, and forgets the absence when it is back', () => {
		const watching = position({ a: cursor(5), b: cursor(7, ['x']) }, { allFormsSince: 100 });
		const missing = nextPosition(
			watching,
			SCOPE,
			{ listed: ['a'], read: new Map(), leftOver: [] },
			ALL(watching, 500),
		);
		expect(missing.forms.b).toEqual(cursor(7, ['x']));
		expect(missing.away).toEqual({ b: { since: 500, polls: 1 } });
		const stillMissing = nextPosition(
			missing,
			SCOPE,
			{ listed: [], read: new Map(), leftOver: [] },
			ALL(missing, 600),
		);
		expect(stillMissing.away).toEqual({ a: { since: 600, polls: 1 }, b: { since: 500, polls: 2 } });
		expect(stillMissing.forms).toEqual(watching.forms);
		const back = nextPosition(
			stillMissing,
			SCOPE,
			{ listed: ['a', 'b'], read: new Map([['b', cursor(8)]]), leftOver: [] },
			ALL(stillMissing, 700),
		);
		expect(back.away).toEqual({});
		expect(back.forms).toEqual({ a: cursor(5), b: cursor(8) });
		expect(ALL(back, 800).startOf('b')).toEqual({ cursor: cursor(8), undatedUnknown: false });
	});

	/** The position after a poll at `nowMs` that listed only form a and read nothing. */
	const after = (previous: TriggerPosition, nowMs: number) =>
		nextPosition(
			previous,
			SCOPE,
			{ listed: ['a'], read: new Map(), leftOver: [] },
			ALL(previous, nowMs),
		);

	it('forgets a form only once it has been away for both FORGET_AWAY_FORM_AFTER_MS and FORGET_AWAY_FORM_AFTER_POLLS: back, it starts at its return', () => {
		const away = (since: number, polls: number) =>
			position({ a: cursor(5), b: cursor(7) }, { away: { b: { since, polls } }, allFormsSince: 0 });
		const forgotten = after(away(0, FORGET_AWAY_FORM_AFTER_POLLS - 1), FORGET_AWAY_FORM_AFTER_MS);
		expect(forgotten.forms.b).toEqual({
			floor: { time: FORGET_AWAY_FORM_AFTER_MS, key: '' },
			seen: {},
			undated: '',
		});
		// Back, it starts at its return: nothing it emitted before, no undated lead present.
		expect(ALL(forgotten, FORGET_AWAY_FORM_AFTER_MS + 1).startOf('b')).toEqual({
			cursor: forgotten.forms.b,
			undatedUnknown: true,
		});
		expect(
			after(away(0, FORGET_AWAY_FORM_AFTER_POLLS - 2), FORGET_AWAY_FORM_AFTER_MS * 10).forms.b,
		).toEqual(cursor(7));
		expect(
			after(away(0, FORGET_AWAY_FORM_AFTER_POLLS * 10), FORGET_AWAY_FORM_AFTER_MS - 1).forms.b,
		).toEqual(cursor(7));
	});

	it('a forgotten form keeps a record dated in the future it emitted, and its floor follows the clock', () => {
		const withFuture: CursorState = { ...cursor(5), seen: { old: 5, ahead: 9_000 } };
		expect(forgottenCursor(withFuture, 1_000)).toEqual({
			floor: { time: 1_000, key: '' },
			seen: { ahead: 9_000 },
			undated: '',
		});
		expect(forgottenCursor(forgottenCursor(withFuture, 1_000), 2_000).floor.time).toBe(2_000);
	});

	it('makes the cursor of a form small once it has been away for both SHRINK_AWAY_FORM_AFTER_MS and SHRINK_AWAY_FORM_AFTER_POLLS, its undated inquiries then unknown', () => {
		const many = Array.from({ length: 30 }, (_, index) => `k${index}`);
		const away = (since: number, polls: number) =>
			position(
				{ a: cursor(5), b: cursor(7, many) },
				{ away: { b: { since, polls } }, allFormsSince: 0 },
			);
		const shrunk = after(away(0, SHRINK_AWAY_FORM_AFTER_POLLS - 1), SHRINK_AWAY_FORM_AFTER_MS);
		expect(Object.keys(shrunk.forms.b.seen)).toHaveLength(SMALL_CURSOR_KEYS);
		expect(shrunk.undatedUnknown).toEqual(['b']);
		expect(
			after(away(0, SHRINK_AWAY_FORM_AFTER_POLLS - 2), SHRINK_AWAY_FORM_AFTER_MS * 2).forms.b,
		).toEqual(cursor(7, many));
		expect(
			after(away(0, SHRINK_AWAY_FORM_AFTER_POLLS * 2), SHRINK_AWAY_FORM_AFTER_MS - 1).forms.b,
		).toEqual(cursor(7, many));
	});

	it('a switch to One Form keeps the other forms away and drops when the watch of every form began; back to All Forms, it begins anew and they start then', () => {
		const rhythm = nextRhythm(undefined, { arrivals: 0, times: [] }, 1, {
			timeZone: 'UTC',
			unwatched: [],
		});
		const watching = position(
			{ a: cursor(5), b: cursor(7) },
			{ allFormsSince: 100, away: { b: { since: 50, polls: 3 } }, quiet: { b: rhythm } },
		);
		const oneForm = nextPosition(
			watching,
			SCOPE,
			{ listed: ['a'], read: new Map([['a', cursor(9)]]), leftOver: [] },
			ONE(watching, 900),
		);
		expect(oneForm).toEqual(
			position({ a: cursor(9), b: cursor(7) }, { away: { b: { since: 50, polls: 4 } } }),
		);
		const allAgain = nextPosition(
			oneForm,
			SCOPE,
			{ listed: ['a', 'b'], read: new Map(), leftOver: [] },
			ALL(oneForm, 950),
		);
		expect(allAgain.allFormsSince).toBe(950);
		// b starts then: nothing emitted before 950 again, the key it emitted at 7 is under its floor.
		expect(allAgain.forms).toEqual({
			a: cursor(9),
			b: { floor: { time: 950, key: '' }, seen: {}, undated: '' },
		});
		expect(allAgain.away).toEqual({});
	});

	it(`past ${MAX_WHOLE_CURSORS} forms the longest away keep a small cursor, and past ${MAX_SMALL_CURSORS} more are dropped`, () => {
		const count = MAX_WHOLE_CURSORS + MAX_SMALL_CURSORS + 3;
		const forms: Record<string, CursorState> = {};
		const away: TriggerPosition['away'] = {};
		for (let index = 0; index < count; index++) {
			forms[`f${index}`] = cursor(
				10_000,
				Array.from({ length: 30 }, (_, key) => `k${key}`),
			);
			away[`f${index}`] = { since: index, polls: 1 };
		}
		const next = nextPosition(
			position(forms, { away, allFormsSince: 0 }),
			SCOPE,
			{ listed: [], read: new Map(), leftOver: [] },
			ALL(position(forms), 5),
		);
		const kept = Object.keys(next.forms);
		expect(kept).toHaveLength(MAX_WHOLE_CURSORS + MAX_SMALL_CURSORS);
		// The most recently gone keep their whole cursor.
		expect(Object.keys(next.forms[`f${count - 1}`].seen)).toHaveLength(31);
		expect(Object.keys(next.forms.f3.seen)).toHaveLength(SMALL_CURSOR_KEYS);
		expect(next.undatedUnknown).toContain('f3');
		expect(next.undatedUnknown).not.toContain(`f${count - 1}`);
		expect(kept).not.toContain('f0');
	});

	it('a small cursor keeps the newest keys, a record dated in the future among them, and its floor at most when the form left', () => {
		const future = 10_000_000;
		const big: CursorState = {
			floor: { time: 0, key: '' },
			seen: Object.fromEntries([
				...Array.from({ length: 20 }, (_, index) => [`k${index}`, 1000 + index]),
				['future', future],
			]),
			undated: 'AAAA',
		};
		const small = compactCursor(big, 2000);
		expect(Object.keys(small.seen).sort()).toEqual(
			['future', 'k11', 'k12', 'k13', 'k14', 'k15', 'k16', 'k17', 'k18', 'k19'].sort(),
		);
		expect(small.floor.time).toBeLessThanOrEqual(2000);
		expect(small.undated).toBe('');
	});

	it('names what is wrong with a damaged position', () => {
		const good = {
			v: SAVED_POSITION_VERSION,
			...position({ a: cursor(1) }, { away: { a: { since: 1, polls: 2 } }, allFormsSince: 1 }),
		};
		expect(positionProblem(good)).toBeUndefined();
		expect(positionProblem({ ...good, forms: [] })).toMatch(/forms/);
		expect(
			positionProblem({ ...good, forms: { a: { floor: 'x', seen: {}, undated: '' } } }),
		).toMatch(/form a.*floor/);
		expect(positionProblem({ ...good, allFormsSince: 'x' })).toMatch(/allFormsSince/);
		expect(positionProblem({ ...good, away: { a: { since: 1, polls: -1 } } })).toMatch(/away/);
		expect(positionProblem({ ...good, undatedUnknown: [3] })).toMatch(/undatedUnknown/);
		expect(positionProblem({ ...good, leftOver: [1] })).toMatch(/leftOver/);
	});
});

describe("the saved position's size", () => {
	/** An ID as the API gives them: 24 hexadecimal characters. */
	const id = (form: number, index: number) =>
		`${form.toString(16).padStart(8, '0')}${index.toString(16).padStart(16, '0')}`;

	it.each([1, 20, 50])(
		'%i forms, each with more dated leads than it tracks and a full table of undated ones, stay within the bound per form',
		(forms) => {
			const pageIds = Array.from(
				{ length: forms },
				(_, index) => `formbuilder_1001_${100 + index}`,
			);
			const now = 1_795_000_000_000;
			// Each poll brings 100 more undated leads per form (what a table tells apart between two polls is about 150).
			const events = (form: number, undated: number): InquiryEvent[] => [
				...Array.from({ length: 1200 }, (_, index) => ({
					key: id(form, index),
					time: now - index,
				})),
				...Array.from({ length: undated }, (_, index) => ({
					key: id(form, 100_000 + index),
					time: undefined,
				})),
			];
			const setup = (saved: TriggerPosition | undefined) => ({
				saved,
				scope: 'app/new',
				listed: pageIds,
				watch: new Watch(saved, { pageId: undefined, firstPoll: { kind: 'none' } }, now),
				cursorOptions: {
					mode: 'new',
					firstPoll: { kind: 'none' },
					maxItems: 100_000,
					nowMs: now,
				} as const,
				quiet: { kind: 'off' } as const,
				timeZone: 'UTC',
				nowMs: now,
			});
			// A first poll, then polls that emit every lead as new: each form tracks its share and tables its undated ones.
			let position = new PollPlanner(setup(undefined))
				.plan(pageIds.map((pageId) => ({ pageId, events: [] })))
				.commit(0);
			for (const undated of [100, 200, 300, 400]) {
				const plan = new PollPlanner(setup(position)).plan(
					pageIds.map((pageId, form) => ({ pageId, events: events(form, undated) })),
				);
				expect(plan.unresolvedUndated.every(({ count }) => count === 0)).toBe(true);
				position = plan.commit(plan.emissions.length);
			}
			const share = Math.max(MIN_TRACKED_PER_FORM, Math.floor(DEFAULT_MAX_TRACKED / forms));
			for (const cursor of Object.values(position.forms))
				expect(Object.keys(cursor.seen)).toHaveLength(share);
			// The bound docs/trigger-internals.md states: per form, its share of IDs at 41 bytes, a table of at most 6,404 characters, 200 more.
			const perForm = share * 41 + 6_404 + 200;
			const size = JSON.stringify(position).length;
			expect(size).toBeLessThanOrEqual(forms * perForm + 300);
			// The tables are full: the bound is what they take, not a loose ceiling.
			expect(size).toBeGreaterThan(forms * (share * 41 + 6_000));
		},
	);
});
