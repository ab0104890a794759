import { DEFAULT_CELLS_PER_SUBTABLE, keyHash, tableOf } from '../cursor/undatedTable';
import { positionProblem, SAVED_POSITION_VERSION, type TriggerPosition } from './position';

/**
 * The trigger's saved position across releases. The cursor is stored with
 * its format version `v`. A release reads every older format by applying the
 * migrations from each version to the next, one step at a time, and refuses
 * what it cannot read rather than start over: a fresh start takes every
 * inquiry present as handled, so it would silently lose the leads submitted
 * since the position was saved.
 */

/** A stored state as JSON gives it back. */
export type StoredState = Readonly<Record<string, unknown>>;

/**
 * Turns a state of format n into one of format n + 1 (the caller sets `v`).
 * It must not change its input, and throws when the input is not as format n
 * is written.
 */
export type CursorStateMigration = (state: StoredState) => Record<string, unknown>;

/** Undated keys release 0.1.0 kept at most; a list this long may have lost some. */
const V1_MAX_UNDATED = 200;

/**
 * v1 -> v2: the floor was a time F, meaning "an event at time F or later is
 * judged", which is the position (F, "") since every key sorts at or after
 * the empty one; the undated keys were a list of at most 200, now a table
 * of the same keys. 0.1.0 took every undated inquiry of its first poll as
 * handled but listed only 200: a full list says nothing of the others, so
 * the form's next read takes the undated inquiries present as handled
 * (`undatedUnknown`, carried to the position) rather than emit old ones.
 */
const v1ToV2: CursorStateMigration = (state) => {
	const { scope, floor, seen, undated } = state;
	if (typeof scope !== 'string') throw new Error('"scope" is not text');
	if (typeof floor !== 'number' || !Number.isFinite(floor))
		throw new Error('"floor" is not a number');
	if (typeof seen !== 'object' || seen === null || Array.isArray(seen))
		throw new Error('"seen" is not an object');
	if (!Array.isArray(undated)) throw new Error('"undated" is not a list');
	if (!undated.every((key) => typeof key === 'string'))
		throw new Error('"undated" holds a key that is not text');
	const keys = [...new Set(undated as string[])];
	const table = tableOf(keys.map(keyHash), DEFAULT_CELLS_PER_SUBTABLE).encode();
	return {
		scope,
		floor: { time: floor, key: '' },
		seen,
		undated: table,
		...(undated.length >= V1_MAX_UNDATED ? { undatedUnknown: true } : {}),
	};
};

/**
 * v2 -> v3: one form's cursor (scope "appId/pageId/event") becomes the one
 * form of a position scoped "appId/event".
 */
const v2ToV3: CursorStateMigration = (state) => {
	const scope = typeof state.scope === 'string' ? state.scope : '';
	const eventAt = scope.lastIndexOf('/');
	const pageAt = scope.lastIndexOf('/', eventAt - 1);
	if (eventAt <= 0 || pageAt <= 0) throw new Error('its scope names no app, form and event');
	const pageId = scope.slice(pageAt + 1, eventAt);
	const cursor = { floor: state.floor, seen: state.seen, undated: state.undated };
	return {
		scope: `${scope.slice(0, pageAt)}/${scope.slice(eventAt + 1)}`,
		forms: { [pageId]: cursor },
		...(state.undatedUnknown === true ? { undatedUnknown: [pageId] } : {}),
	};
};

/**
 * v3 -> v4: v3 dropped a form that left the app's list and kept where it
 * stopped (its newest time and the keys at it); that becomes a cursor from
 * that time with those keys, away since the watch began (the earliest it
 * can have left), whose undated inquiries are unknown. The app's watch
 * keeps its start and the forms left over.
 */
const v3ToV4: CursorStateMigration = (state) => {
	const { scope, forms, app } = state;
	if (typeof forms !== 'object' || forms === null || Array.isArray(forms))
		throw new Error('"forms" is not an object');
	const watch = (typeof app === 'object' && app !== null ? app : {}) as Record<string, unknown>;
	const gone =
		typeof watch.gone === 'object' && watch.gone !== null
			? (watch.gone as Record<string, { time?: unknown; keys?: unknown }>)
			: {};
	const since = typeof watch.since === 'number' ? watch.since : 0;
	const cursors: Array<[string, unknown]> = Object.entries(forms);
	const away: Array<[string, unknown]> = [];
	const unknown = Array.isArray(state.undatedUnknown)
		? [...(state.undatedUnknown as unknown[])]
		: [];
	for (const [pageId, stopped] of Object.entries(gone)) {
		if (Object.prototype.hasOwnProperty.call(forms, pageId)) continue;
		const time = stopped?.time;
		const keys = Array.isArray(stopped?.keys) ? (stopped.keys as unknown[]) : [];
		cursors.push([
			pageId,
			{
				floor: { time, key: '' },
				seen: Object.fromEntries(keys.map((key) => [key, time])),
				undated: '',
			},
		]);
		away.push([pageId, { since, polls: 0 }]);
		unknown.push(pageId);
	}
	return {
		scope,
		forms: Object.fromEntries(cursors),
		away: Object.fromEntries(away),
		undatedUnknown: unknown,
		...(app === undefined ? {} : { allFormsSince: watch.since }),
		leftOver: watch.leftOver ?? [],
	};
};

/** The step from format n to n + 1 is at key n. */
export const CURSOR_STATE_MIGRATIONS: Readonly<Record<number, CursorStateMigration>> = {
	1: v1ToV2,
	2: v2ToV3,
	3: v3ToV4,
};

export type MigrationOutcome =
	| { kind: 'migrated'; state: Record<string, unknown>; from: number }
	| { kind: 'newer'; version: number }
	| { kind: 'unreadable'; problem: string };

/**
 * Brings a stored state of format `target` or older up to `target`, one
 * migration at a time; a state of a newer format is left as it is. Checks
 * only the version: the caller checks the fields of the result.
 */
export function migrateCursorState(
	value: unknown,
	migrations: Readonly<Record<number, CursorStateMigration>> = CURSOR_STATE_MIGRATIONS,
	target: number = SAVED_POSITION_VERSION,
): MigrationOutcome {
	if (!isObject(value)) return { kind: 'unreadable', problem: 'it is not an object' };
	const from = value.v;
	if (from === undefined) return { kind: 'unreadable', problem: 'it has no format version' };
	if (typeof from !== 'number' || !Number.isSafeInteger(from) || from < 0) {
		return { kind: 'unreadable', problem: 'its format version is not a whole number' };
	}
	if (from > target) return { kind: 'newer', version: from };

	let state: Record<string, unknown> = value;
	for (let version = from; version < target; version++) {
		const step = Object.prototype.hasOwnProperty.call(migrations, version)
			? migrations[version]
			: undefined;
		if (step === undefined)
			return { kind: 'unreadable', problem: `there is no upgrade from its format v${version}` };
		let next: unknown;
		try {
			next = step(state);
		} catch (error) {
			return {
				kind: 'unreadable',
				problem: `it is not a valid v${version} state (${(error as Error).message})`,
			};
		}
		if (!isObject(next))
			return { kind: 'unreadable', problem: `its upgrade from format v${version} gave no state` };
		state = { ...next, v: version + 1 };
	}
	return { kind: 'migrated', state, from };
}

export type SavedPosition =
	| { kind: 'none' }
	| { kind: 'readable'; state: TriggerPosition }
	| { kind: 'newer'; version: number }
	| { kind: 'damaged'; problem: string };

/**
 * What the trigger finds in its static data: nothing (never polled), a state
 * it can use (migrated to the current format if older), one saved by a newer
 * release, or one it cannot read.
 */
export function readSavedPosition(
	value: unknown,
	migrations: Readonly<Record<number, CursorStateMigration>> = CURSOR_STATE_MIGRATIONS,
): SavedPosition {
	if (value === undefined) return { kind: 'none' };
	const migrated = migrateCursorState(value, migrations, SAVED_POSITION_VERSION);
	if (migrated.kind === 'newer') return migrated;
	if (migrated.kind === 'unreadable') return { kind: 'damaged', problem: migrated.problem };
	const problem = positionProblem(migrated.state);
	if (problem === undefined)
		return { kind: 'readable', state: migrated.state as unknown as TriggerPosition };
	const upgraded =
		migrated.from === SAVED_POSITION_VERSION
			? ''
			: ` (after its upgrade from format v${migrated.from})`;
	return { kind: 'damaged', problem: `${problem}${upgraded}` };
}

function isObject(value: unknown): value is Record<string, unknown> {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}
