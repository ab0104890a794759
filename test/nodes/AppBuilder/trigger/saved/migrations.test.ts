import {
	commitPoll,
	cursorFrom,
	firstRead,
	stepCursor,
	type CursorOptions,
} from '../../../../../nodes/AppBuilder/trigger/cursor/cursor';
import {
	SAVED_POSITION_VERSION,
	type TriggerPosition,
} from '../../../../../nodes/AppBuilder/trigger/saved/position';
import {
	fromReleaseV1,
	readSavedPosition,
	UnusablePosition,
} from '../../../../../nodes/AppBuilder/trigger/saved/migrations';
import { nextRhythm } from '../../../../../nodes/AppBuilder/trigger/quiet/formRhythm';
import { deepFreeze } from '../../../../support/deepFreeze';

const T0 = Date.parse('2026-06-01T00:00:00Z');
const OPTIONS: CursorOptions = { mode: 'new', maxItems: 10, nowMs: T0 + 60_000 };
const fromJson = (value: unknown): unknown => JSON.parse(JSON.stringify(value));

/** Release 0.1.0's state (format v1) as n8n gives it back: one form's cursor, scoped app/form/event. */
const V1 = Object.freeze({
	v: 1,
	scope: 'app/form/new',
	floor: T0 - 1000,
	seen: { a: T0, b: T0 + 5 },
	undated: ['u1'],
});

/** The error a saved value is refused with. */
function refusal(value: unknown): UnusablePosition {
	let refused: unknown;
	try {
		readSavedPosition(value);
	} catch (error) {
		refused = error;
	}
	expect(refused).toBeInstanceOf(UnusablePosition);
	return refused as UnusablePosition;
}

/** What is damaged in a saved value, as its refusal names it (and a refusal of junk, not of a newer format). */
function problemOf(value: unknown): string {
	const { message, description } = refusal(value);
	const prefix = "The trigger's saved position cannot be read: ";
	expect(message.startsWith(prefix)).toBe(true);
	expect(description.startsWith('No release of n8n-nodes-appbuilder writes it like this')).toBe(
		true,
	);
	return message.slice(prefix.length);
}

describe('readSavedPosition', () => {
	it('finds nothing when nothing was saved', () => {
		expect(readSavedPosition(undefined)).toBeUndefined();
	});

	it('reads a position exactly as the current release stores it', () => {
		const first = firstRead(
			cursorFrom(T0),
			[
				{ key: 'a', time: T0 },
				{ key: 'u', time: undefined },
			],
			OPTIONS,
			0,
		);
		const cursor = commitPoll(first, [], OPTIONS);
		const rhythm = nextRhythm(undefined, { arrivals: 0, times: [T0 - 3_600_000] }, T0, {
			timeZone: 'UTC',
			unwatched: [],
		});
		const written = {
			v: SAVED_POSITION_VERSION,
			scope: 'app/new',
			watch: { kind: 'all' },
			forms: {
				form: { cursor, quiet: rhythm },
				away: {
					cursor: cursorFrom(T0),
					out: [[T0, T0 + 1000]],
					away: { since: T0, polls: 3 },
					undatedUnknown: true,
				},
				left: { cursor: cursorFrom(T0), outSince: T0 + 2000 },
			},
			others: { cursor: cursorFrom(T0 - 5000), outSince: T0 + 2000 },
			leftOver: ['form'],
		};
		expect(readSavedPosition(fromJson(written))).toEqual(written);
	});

	it('names what is damaged in a position of the current format', () => {
		const base = {
			v: SAVED_POSITION_VERSION,
			scope: 'app/new',
			watch: { kind: 'all' },
			leftOver: [],
		};
		const form = (record: unknown) => ({ ...base, forms: { f: record } });
		const cursor = cursorFrom(T0);
		const cases: Array<[unknown, string]> = [
			[{ ...base, scope: 5, forms: {} }, '"scope" is not text'],
			[
				{ ...base, watch: { kind: 'one' }, forms: {} },
				'"watch" is neither every form nor one form',
			],
			[{ ...base, forms: [] }, '"forms" is not an object'],
			[
				form({ cursor: { ...cursor, seen: { a: 'soon' } } }),
				'the record of form f is not readable: its cursor is not readable: "seen" holds a time that is not a number',
			],
			[
				form({ cursor, out: [[T0 + 1, T0]] }),
				'the record of form f is not readable: "out" is not a list of at most 20 stretches of time',
			],
			[
				form({ cursor, out: Array.from({ length: 21 }, () => [T0, T0]) }),
				'the record of form f is not readable: "out" is not a list of at most 20 stretches of time',
			],
			[
				form({ cursor, outSince: 'now' }),
				'the record of form f is not readable: "outSince" is not a time',
			],
			[
				form({ cursor, away: { since: T0, polls: -1 } }),
				'the record of form f is not readable: "away" is not a time and a number of polls',
			],
			[
				form({ cursor, undatedUnknown: 'yes' }),
				'the record of form f is not readable: "undatedUnknown" is not true',
			],
			[
				form({ cursor, quiet: { since: 'x' } }),
				expect.stringMatching(
					/^the record of form f is not readable: its rhythm is not readable: /,
				),
			],
			[
				{ ...base, forms: {}, others: { cursor: null } },
				'the record of the forms not listed yet is not readable: its cursor is not readable: it is not an object',
			],
			[{ ...base, forms: {}, leftOver: [1] }, '"leftOver" is not a list of forms'],
		];
		for (const [value, problem] of cases) expect(problemOf(fromJson(value))).toEqual(problem);
	});

	it('refuses a newer format, and formats no release wrote (v0, v2 to v6), without guessing', () => {
		const newer = refusal({ ...V1, v: SAVED_POSITION_VERSION + 1 });
		expect(newer.message).toBe(
			`The trigger's saved position is from a newer release of n8n-nodes-appbuilder (format v${SAVED_POSITION_VERSION + 1}; this release reads up to v${SAVED_POSITION_VERSION})`,
		);
		expect(newer.description).toMatch(/^The trigger stops here .* Update n8n-nodes-appbuilder/);
		for (const v of [0, 2, 3, 4, 5, 6])
			expect(problemOf({ ...V1, v })).toBe(
				`its format v${v} was never released (only release 0.1.0's v1 is read and upgraded)`,
			);
		expect(problemOf({ ...V1, v: undefined })).toBe('it has no format version');
		for (const v of ['1', 1.5, -1])
			expect(problemOf({ ...V1, v })).toBe('its format version is not a whole number');
		expect(problemOf('junk')).toBe('it is not an object');
	});

	it("upgrades release 0.1.0's state: the floor time F becomes the point before every event at F, the undated list a table of the same keys, the cursor the one form watched", () => {
		const outcome = readSavedPosition(fromJson(deepFreeze({ ...V1 })));
		expect(outcome).toEqual({
			v: SAVED_POSITION_VERSION,
			scope: 'app/new',
			watch: { kind: 'one', pageId: 'form' },
			forms: {
				form: {
					cursor: {
						floor: { time: T0 - 1000, key: '' },
						seen: V1.seen,
						undated: expect.any(String),
					},
				},
			},
			leftOver: [],
		});
		const { cursor } = (outcome as TriggerPosition).forms.form;
		// The table holds u1 alone: a read with u1 present emits only the undated inquiry that is new.
		const present = [
			{ key: 'a', time: T0 },
			{ key: 'b', time: T0 + 5 },
			{ key: 'at-floor', time: T0 - 1000 },
			{ key: 'below-floor', time: T0 - 1001 },
			{ key: 'u1', time: undefined },
			{ key: 'u2', time: undefined },
		];
		expect(stepCursor(cursor, present, OPTIONS).toEmit).toEqual([
			{ key: 'at-floor', time: T0 - 1000 },
			{ key: 'u2', time: undefined },
		]);
	});

	it('upgrades a 0.1.0 state whose undated list was full (200 keys, maybe some lost) to a form whose next read takes the undated inquiries present as handled', () => {
		const full = { ...V1, undated: Array.from({ length: 200 }, (_, index) => `u${index}`) };
		const upgraded = fromReleaseV1(full) as { forms: Record<string, { undatedUnknown?: true }> };
		expect(upgraded.forms.form.undatedUnknown).toBe(true);
		expect((fromReleaseV1(V1) as typeof upgraded).forms.form.undatedUnknown).toBeUndefined();
	});

	it("names the field of 0.1.0's state that is damaged, before or after its upgrade", () => {
		const cases: Array<[unknown, string]> = [
			[
				{ ...V1, scope: 'app' },
				'it is not a valid v1 state (its scope names no app, form and event)',
			],
			[{ ...V1, floor: 'x' }, 'it is not a valid v1 state ("floor" is not a number)'],
			[{ ...V1, seen: [] }, 'it is not a valid v1 state ("seen" is not an object)'],
			[{ ...V1, undated: [1] }, 'it is not a valid v1 state ("undated" is not a list of keys)'],
			[
				{ ...V1, seen: { a: 'soon' } },
				'the record of form form is not readable: its cursor is not readable: "seen" holds a time that is not a number (after its upgrade from format v1)',
			],
		];
		for (const [value, problem] of cases) expect(problemOf(fromJson(value))).toEqual(problem);
	});
});
