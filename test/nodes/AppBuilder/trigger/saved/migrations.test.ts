import {
	commitPoll,
	stepCursor,
	type CursorOptions,
	type CursorState,
} from '../../../../../nodes/AppBuilder/trigger/cursor/cursor';
import {
	SAVED_POSITION_VERSION,
	type TriggerPosition,
} from '../../../../../nodes/AppBuilder/trigger/saved/position';
import {
	POSITION_MIGRATIONS,
	migratePosition,
	readSavedPosition,
	type PositionMigration,
} from '../../../../../nodes/AppBuilder/trigger/saved/migrations';
import { nextRhythm } from '../../../../../nodes/AppBuilder/trigger/quiet/formRhythm';
import { deepFreeze } from '../../../../support/deepFreeze';

const SCOPE = 'app/form/new';
const T0 = Date.parse('2026-06-01T00:00:00Z');
/** A form's rhythm as the current release stores it. */
const RHYTHM = fromJsonOf(
	nextRhythm(undefined, { arrivals: 0, times: [T0 - 3_600_000] }, T0, {
		timeZone: 'UTC',
		unwatched: [],
	}),
);

function fromJsonOf<T>(value: T): T {
	return JSON.parse(JSON.stringify(value)) as T;
}

/** A v1 state as the trigger stores it: every field of CursorState, as JSON gives it back. */
const V1 = Object.freeze({
	v: 1,
	scope: SCOPE,
	floor: T0 - 1000,
	seen: { a: T0, b: T0 + 5 },
	undated: ['u1'],
});
const fromJson = (value: unknown): unknown => JSON.parse(JSON.stringify(value));

describe('migratePosition', () => {
	it('returns a state of the current format as it is, applying nothing', () => {
		const never: PositionMigration = () => {
			throw new Error('no step runs for the current format');
		};
		const outcome = migratePosition(fromJson(V1), { 0: never, 1: never }, 1);
		expect(outcome).toEqual({ kind: 'migrated', state: V1, from: 1 });
	});

	it('applies each step from the stored format up to the target, in order, without changing the input', () => {
		const calls: string[] = [];
		const steps: Record<number, PositionMigration> = {
			1: (state) => {
				calls.push(`1:v${String(state.v)}`);
				return { ...state, seen: 'from v1' };
			},
			2: (state) => {
				calls.push(`2:v${String(state.v)}`);
				return { ...state, added: `in v3, after ${String(state.seen)}` };
			},
			3: (state) => {
				calls.push(`3:v${String(state.v)}`);
				return { ...state };
			},
		};
		const stored = deepFreeze(fromJson(V1));
		const outcome = migratePosition(stored, steps, 3);
		// Step 3 leads past the target and is not applied; each step sees the version it starts from.
		expect(calls).toEqual(['1:v1', '2:v2']);
		expect(outcome).toEqual({
			kind: 'migrated',
			from: 1,
			state: { ...V1, v: 3, seen: 'from v1', added: 'in v3, after from v1' },
		});
		expect(stored).toEqual(V1);

		calls.length = 0;
		expect(migratePosition({ ...V1, v: 2 }, steps, 3)).toMatchObject({
			kind: 'migrated',
			from: 2,
			state: { v: 3, seen: V1.seen },
		});
		expect(calls).toEqual(['2:v2']);
	});

	it('sets the version after each step itself, whatever the step returns as v', () => {
		const outcome = migratePosition(
			{ v: 0 },
			{ 0: () => ({ v: 7 }), 1: (state) => ({ was: state.v }) },
			2,
		);
		expect(outcome).toEqual({ kind: 'migrated', from: 0, state: { was: 1, v: 2 } });
	});

	it('refuses a newer format without applying anything', () => {
		const never: PositionMigration = () => {
			throw new Error('no step runs for a newer format');
		};
		expect(migratePosition({ ...V1, v: 2 }, { 1: never }, 1)).toEqual({
			kind: 'newer',
			version: 2,
		});
		expect(migratePosition({ v: 9, whatever: true }, {}, 3)).toEqual({
			kind: 'newer',
			version: 9,
		});
	});

	it('names an older format it has no step from, a step that fails, and a step that gives no state', () => {
		expect(migratePosition({ v: 0 }, {}, 1)).toEqual({
			kind: 'unreadable',
			problem: 'there is no upgrade from its format v0',
		});
		// A gap in the chain is found at the missing step, not at the stored format.
		expect(migratePosition({ v: 0 }, { 0: (state) => ({ ...state }) }, 2)).toEqual({
			kind: 'unreadable',
			problem: 'there is no upgrade from its format v1',
		});
		const failing: PositionMigration = () => {
			throw new Error('"lastTime" is missing');
		};
		expect(migratePosition({ v: 0 }, { 0: failing }, 1)).toEqual({
			kind: 'unreadable',
			problem: 'it is not a valid v0 state ("lastTime" is missing)',
		});
		const nothing = (() => null) as unknown as PositionMigration;
		expect(migratePosition({ v: 0 }, { 0: nothing }, 1)).toEqual({
			kind: 'unreadable',
			problem: 'its upgrade from format v0 gave no state',
		});
	});

	it('finds no step on the prototype of the table', () => {
		const table = Object.create({ 0: () => ({}) }) as Record<number, PositionMigration>;
		expect(migratePosition({ v: 0 }, table, 1)).toMatchObject({ kind: 'unreadable' });
	});

	it('names a value with no usable format version', () => {
		const cases: Array<[unknown, string]> = [
			['garbage', 'it is not an object'],
			[null, 'it is not an object'],
			[[V1], 'it is not an object'],
			[42, 'it is not an object'],
			[{ scope: SCOPE }, 'it has no format version'],
			[{ v: '1' }, 'its format version is not a whole number'],
			[{ v: 1.5 }, 'its format version is not a whole number'],
			[{ v: -1 }, 'its format version is not a whole number'],
			[{ v: Number.MAX_VALUE }, 'its format version is not a whole number'],
		];
		for (const [value, problem] of cases) {
			expect(migratePosition(value, {}, 1)).toEqual({ kind: 'unreadable', problem });
		}
	});
});

describe('readSavedPosition', () => {
	it('finds nothing when nothing was saved', () => {
		expect(readSavedPosition(undefined)).toEqual({ kind: 'none' });
	});

	it('reads a position exactly as the current release stores it', () => {
		const options: CursorOptions = {
			mode: 'new',
			firstPoll: { kind: 'none' },
			maxItems: 10,
			nowMs: T0 + 60_000,
		};
		const { floor, seen, undated } = commitPoll(
			undefined,
			[
				{ key: 'a', time: T0 },
				{ key: 'u', time: undefined },
			],
			options,
		);
		const written = {
			v: SAVED_POSITION_VERSION,
			scope: 'app/new',
			forms: { form: { floor, seen, undated }, away: { floor, seen: {}, undated: '' } },
			away: { away: { since: T0, polls: 3 } },
			undatedUnknown: ['away'],
			allFormsSince: T0,
			leftOver: ['form'],
			quiet: { form: { ...RHYTHM, alerted: T0 } },
		};
		expect(readSavedPosition(fromJson(written))).toEqual({ kind: 'readable', state: written });
		for (const [quiet, problem] of [
			[{ form: { ...RHYTHM, since: undefined } }, '"since" is not a time'],
			[{ form: { ...RHYTHM, slots: 'AAAA' } }, '"slots" is not 84 rates'],
			[{ form: { ...RHYTHM, recent: [1, 'x'] } }, '"recent" is not two numbers'],
		] as const) {
			expect(readSavedPosition(fromJson({ ...written, quiet }))).toEqual({
				kind: 'damaged',
				problem: `the rhythm of form form is not readable: ${problem}`,
			});
		}
	});

	const ONE_FORM = { away: {}, undatedUnknown: [], leftOver: [], quiet: {} };

	it('relearns the rhythms of a v5 position: a rhythm of gaps per week is not one of slots of the week', () => {
		const v5 = {
			v: 5,
			scope: 'app/new',
			forms: { a: { floor: { time: T0, key: '' }, seen: { x: T0 + 1 }, undated: '' } },
			...ONE_FORM,
			allFormsSince: T0 - 5000,
			quiet: { a: { since: T0, last: T0, weeks: [[2943, 0, 1]], alerted: T0 } },
		};
		expect(readSavedPosition(fromJson(v5))).toEqual({
			kind: 'readable',
			state: { ...v5, v: SAVED_POSITION_VERSION, quiet: {} },
		});
	});

	it('brings a v1 state up through v2 and v3: the floor time F becomes the position before every event at F, the undated list a table of the same keys, the cursor the one form of the position', () => {
		const outcome = readSavedPosition(fromJson(V1));
		expect(outcome).toEqual({
			kind: 'readable',
			state: {
				v: SAVED_POSITION_VERSION,
				scope: 'app/new',
				forms: {
					form: { floor: { time: T0 - 1000, key: '' }, seen: V1.seen, undated: expect.any(String) },
				},
				...ONE_FORM,
			},
		});
		const cursor = (outcome as { state: TriggerPosition }).state.forms.form;
		const state: CursorState = cursor;
		// The table holds u1 alone: a poll with u1 present emits only the undated inquiry that is new.
		const options: CursorOptions = {
			mode: 'new',
			firstPoll: { kind: 'none' },
			maxItems: 10,
			nowMs: T0 + 60_000,
		};
		const present = [
			{ key: 'a', time: T0 },
			{ key: 'b', time: T0 + 5 },
			{ key: 'at-floor', time: T0 - 1000 },
			{ key: 'below-floor', time: T0 - 1001 },
			{ key: 'u1', time: undefined },
			{ key: 'u2', time: undefined },
		];
		expect(stepCursor(state, present, options).toEmit).toEqual([
			{ key: 'at-floor', time: T0 - 1000 },
			{ key: 'u2', time: undefined },
		]);
	});

	it('brings an older format up through the migrations it is given', () => {
		// A made-up v0: one time and the ids at it, before seen and undated existed.
		const v0ToV1: PositionMigration = (state) => {
			if (typeof state.lastTime !== 'number' || !Array.isArray(state.ids))
				throw new Error('not a v0 state');
			const ids = state.ids as string[];
			return {
				scope: state.scope,
				floor: state.lastTime,
				seen: Object.fromEntries(ids.map((id) => [id, state.lastTime])),
				undated: [],
			};
		};
		const v0 = { v: 0, scope: SCOPE, lastTime: T0, ids: ['a', 'b'] };
		expect(readSavedPosition(v0, { ...POSITION_MIGRATIONS, 0: v0ToV1 })).toEqual({
			kind: 'readable',
			state: {
				v: SAVED_POSITION_VERSION,
				scope: 'app/new',
				forms: { form: { floor: { time: T0, key: '' }, seen: { a: T0, b: T0 }, undated: '' } },
				...ONE_FORM,
			},
		});
		expect(
			readSavedPosition({ v: 0, scope: SCOPE }, { ...POSITION_MIGRATIONS, 0: v0ToV1 }),
		).toEqual({
			kind: 'damaged',
			problem: 'it is not a valid v0 state (not a v0 state)',
		});
		// A step whose result is not a valid current state is caught by the same checks as a stored one.
		const sloppy: PositionMigration = (state) => ({
			scope: state.scope,
			floor: 'later',
			seen: {},
			undated: [],
		});
		expect(readSavedPosition(v0, { ...POSITION_MIGRATIONS, 0: sloppy })).toEqual({
			kind: 'damaged',
			problem: 'it is not a valid v1 state ("floor" is not a number)',
		});
		const sloppyV1: PositionMigration = (state) => ({
			...state,
			floor: { time: 'later', key: '' },
		});
		expect(readSavedPosition(fromJson(V1), { ...POSITION_MIGRATIONS, 1: sloppyV1 })).toEqual({
			kind: 'damaged',
			problem:
				'the cursor of form form is not readable: "floor.time" is not a number (after its upgrade from format v1)',
		});
	});

	it('tells a newer format apart from a damaged one', () => {
		expect(readSavedPosition({ ...V1, v: SAVED_POSITION_VERSION + 1 })).toEqual({
			kind: 'newer',
			version: SAVED_POSITION_VERSION + 1,
		});
		expect(readSavedPosition({ v: 0, scope: SCOPE })).toEqual({
			kind: 'damaged',
			problem: 'there is no upgrade from its format v0',
		});
	});

	it('upgrades a 0.1.0 state whose undated list was full (200 keys, maybe some lost) to a form whose next read takes the undated inquiries present as handled', () => {
		const full = { ...V1, undated: Array.from({ length: 200 }, (_, index) => `u${index}`) };
		const outcome = readSavedPosition(fromJson(full)) as { state: TriggerPosition };
		expect(outcome.state.undatedUnknown).toEqual(['form']);
		expect(
			(
				readSavedPosition(fromJson({ ...full, undated: full.undated.slice(1) })) as {
					state: TriggerPosition;
				}
			).state.undatedUnknown,
		).toEqual([]);
	});

	it('upgrades a v3 position: a removed form becomes a cursor from where it stopped, away, its undated inquiries unknown; the watch keeps its start and its forms left over', () => {
		const v3 = {
			v: 3,
			scope: 'app/new',
			forms: { a: { floor: { time: T0, key: '' }, seen: { x: T0 + 1 }, undated: '' } },
			app: { since: T0 - 5000, leftOver: ['a'], gone: { b: { time: T0 + 9, keys: ['y', 'z'] } } },
		};
		expect(readSavedPosition(fromJson(v3))).toEqual({
			kind: 'readable',
			state: {
				v: SAVED_POSITION_VERSION,
				scope: 'app/new',
				forms: {
					a: v3.forms.a,
					b: { floor: { time: T0 + 9, key: '' }, seen: { y: T0 + 9, z: T0 + 9 }, undated: '' },
				},
				away: { b: { since: T0 - 5000, polls: 0 } },
				undatedUnknown: ['b'],
				allFormsSince: T0 - 5000,
				leftOver: ['a'],
				// v4 -> v5: no form has a rhythm yet; Alert When Quiet learns it at the next read.
				quiet: {},
			},
		});
		// A form that left with a record dated ahead: its floor goes no further than now, as the cursor's does.
		const ahead = {
			...v3,
			app: { ...v3.app, gone: { b: { time: T0 + 365 * 86_400_000, keys: ['y'] } } },
		};
		const upgraded = readSavedPosition(fromJson(ahead), POSITION_MIGRATIONS, T0 + 60_000) as {
			state: TriggerPosition;
		};
		expect(upgraded.state.forms.b).toEqual({
			floor: { time: T0 + 60_000, key: '' },
			seen: { y: T0 + 365 * 86_400_000 },
			undated: '',
		});
	});

	it('names the field that is damaged, in a v3 position, a v2 state and a v1 state', () => {
		const options: CursorOptions = {
			mode: 'new',
			firstPoll: { kind: 'none' },
			maxItems: 10,
			nowMs: T0 + 60_000,
		};
		const V2 = {
			v: 2,
			scope: SCOPE,
			...commitPoll(
				undefined,
				[
					{ key: 'a', time: T0 },
					{ key: 'u', time: undefined },
				],
				options,
			),
		};
		const inForm = (problem: string, from?: number) =>
			`the cursor of form form is not readable: ${problem}${from === undefined ? '' : ` (after its upgrade from format v${from})`}`;
		const V3 = {
			v: 3,
			scope: 'app/new',
			forms: { form: { floor: V2.floor, seen: V2.seen, undated: V2.undated } },
		};
		const cases: Array<[unknown, string]> = [
			['garbage', 'it is not an object'],
			[{ ...V3, scope: 5 }, '"scope" is not text (after its upgrade from format v3)'],
			[{ ...V3, forms: [] }, 'it is not a valid v3 state ("forms" is not an object)'],
			[
				{ ...V3, forms: { form: { ...V3.forms.form, floor: T0 } } },
				inForm('"floor" is not a point (time and key)', 3),
			],
			[
				{ ...V3, app: { since: 'x', leftOver: [], gone: {} } },
				'"allFormsSince" is not a time (after its upgrade from format v3)',
			],
			[{ ...V2, scope: 5 }, 'it is not a valid v2 state (its scope names no app, form and event)'],
			[{ ...V2, floor: T0 }, inForm('"floor" is not a point (time and key)', 2)],
			[{ ...V2, floor: null }, inForm('"floor" is not a point (time and key)', 2)],
			[{ ...V2, floor: { time: 'x', key: '' } }, inForm('"floor.time" is not a number', 2)],
			[{ ...V2, floor: { time: T0 } }, inForm('"floor.key" is not text', 2)],
			[{ ...V2, seen: [] }, inForm('"seen" is not an object', 2)],
			[{ ...V2, seen: { a: 'soon' } }, inForm('"seen" holds a time that is not a number', 2)],
			[{ ...V2, undated: ['u'] }, inForm('"undated" is not text', 2)],
			[
				{ ...V2, undated: 'u1!' },
				inForm('"undated" is not a table of undated inquiries (it is not base64)', 2),
			],
			[
				{ ...V2, undated: 'AAAA' },
				inForm(
					'"undated" is not a table of undated inquiries (its 0 cells per part are not 1 to 1024)',
					2,
				),
			],
			[
				{ ...V2, undated: V2.undated.slice(0, -8) },
				inForm('"undated" is not a table of undated inquiries (its cells are cut short)', 2),
			],
			[
				{ ...V2, undated: 'A'.repeat(200_000) },
				inForm(
					'"undated" is not a table of undated inquiries (it is longer than any release writes)',
					2,
				),
			],
			[{ v: 1, scope: 5 }, 'it is not a valid v1 state ("scope" is not text)'],
			[{ ...V1, floor: 'x' }, 'it is not a valid v1 state ("floor" is not a number)'],
			[{ ...V1, floor: null }, 'it is not a valid v1 state ("floor" is not a number)'],
			[{ ...V1, seen: [] }, 'it is not a valid v1 state ("seen" is not an object)'],
			[{ ...V1, seen: { a: 'soon' } }, inForm('"seen" holds a time that is not a number', 1)],
			[{ ...V1, undated: 'u1' }, 'it is not a valid v1 state ("undated" is not a list)'],
			[
				{ ...V1, undated: [1] },
				'it is not a valid v1 state ("undated" holds a key that is not text)',
			],
		];
		for (const [value, problem] of cases) {
			expect(readSavedPosition(value)).toEqual({ kind: 'damaged', problem });
		}
	});
});

describe('the released migrations', () => {
	it('have a step from every format below the current one, and none from it or above', () => {
		const from = Object.keys(POSITION_MIGRATIONS).map(Number);
		const expected = Array.from({ length: SAVED_POSITION_VERSION - 1 }, (_, index) => index + 1);
		expect(from.sort((a, b) => a - b)).toEqual(expected);
	});
});
