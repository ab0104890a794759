import { DEFAULT_CELLS_PER_SUBTABLE, keyHash, tableOf } from '../../../shared/keySets/keySetTable';
import { isRecord, ownValue } from '../cursor/storedShapes';
import { positionProblem, SAVED_POSITION_VERSION, type TriggerPosition } from './position';

/** Older formats, one step at a time; what cannot be read is refused, never started over (docs/trigger.md). */

/** A stored state as JSON gives it back. */
export type StoredState = Readonly<Record<string, unknown>>;

/** Format n to n + 1 (the caller sets `v`); never changes its input, throws on one not written as format n. A time it sets is at most `nowMs`. */
export type PositionMigration = (state: StoredState, nowMs: number) => Record<string, unknown>;

/** Undated keys release 0.1.0 kept at most; a list this long may have lost some. */
const V1_MAX_UNDATED = 200;

/**
 * v1 -> v2: the floor time F becomes the position (F, ""); the undated list
 * a table. 0.1.0 listed at most 200 of the undated inquiries it handled: a
 * full list makes the form's next read take those present as handled.
 */
const v1ToV2: PositionMigration = (state) => {
	const { scope, floor, seen, undated } = state;
	if (typeof scope !== 'string') throw new Error('"scope" is not text');
	if (typeof floor !== 'number' || !Number.isFinite(floor))
		throw new Error('"floor" is not a number');
	if (!isRecord(seen)) throw new Error('"seen" is not an object');
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
const v2ToV3: PositionMigration = (state) => {
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
 * v3 -> v4: v3 dropped a form that left the app's list, keeping where it
 * stopped (a time and the keys at it); that becomes a cursor from there,
 * away since the watch began, its undated inquiries unknown.
 */
const v3ToV4: PositionMigration = (state, nowMs) => {
	const { scope, forms, app } = state;
	if (!isRecord(forms)) throw new Error('"forms" is not an object');
	const watch = isRecord(app) ? app : {};
	const gone = (isRecord(watch.gone) ? watch.gone : {}) as Record<string, Record<string, unknown>>;
	const cursors: Array<[string, unknown]> = Object.entries(forms);
	const away: Array<[string, unknown]> = [];
	const unknown = Array.isArray(state.undatedUnknown)
		? [...(state.undatedUnknown as unknown[])]
		: [];
	for (const [pageId, stopped] of Object.entries(gone)) {
		if (ownValue(forms, pageId) !== undefined) continue;
		const time = stopped?.time;
		const keys = Array.isArray(stopped?.keys) ? (stopped.keys as unknown[]) : [];
		const seen = Object.fromEntries(keys.map((key) => [key, time]));
		// As the cursor's floor, never in the future: one record dated ahead must not hide the form's next leads.
		const floor = typeof time === 'number' ? Math.min(time, nowMs) : time;
		cursors.push([pageId, { floor: { time: floor, key: '' }, seen, undated: '' }]);
		away.push([pageId, { since: typeof watch.since === 'number' ? watch.since : 0, polls: 0 }]);
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

/** v4 -> v5: the rhythm of each form, for Alert When Quiet; none yet. */
const v4ToV5: PositionMigration = (state) => ({ ...state, quiet: {} });

/** v5 -> v6: a rhythm is what each slot of the week brings, no longer gaps per week: learned again from each form's leads. */
const v5ToV6: PositionMigration = (state) => ({ ...state, quiet: {} });

/** The step from format n to n + 1 is at key n. */
export const POSITION_MIGRATIONS: Readonly<Record<number, PositionMigration>> = {
	1: v1ToV2,
	2: v2ToV3,
	3: v3ToV4,
	4: v4ToV5,
	5: v5ToV6,
};

export type MigrationOutcome =
	| { kind: 'migrated'; state: Record<string, unknown>; from: number }
	| { kind: 'newer'; version: number }
	| { kind: 'unreadable'; problem: string };

/** A stored state of format `target` or older brought up to it; only the version is checked here. */
export function migratePosition(
	value: unknown,
	migrations: Readonly<Record<number, PositionMigration>> = POSITION_MIGRATIONS,
	target: number = SAVED_POSITION_VERSION,
	nowMs = Number.POSITIVE_INFINITY,
): MigrationOutcome {
	if (!isRecord(value)) return { kind: 'unreadable', problem: 'it is not an object' };
	const from = value.v;
	if (from === undefined) return { kind: 'unreadable', problem: 'it has no format version' };
	if (typeof from !== 'number' || !Number.isSafeInteger(from) || from < 0) {
		return { kind: 'unreadable', problem: 'its format version is not a whole number' };
	}
	if (from > target) return { kind: 'newer', version: from };

	let state: Record<string, unknown> = value;
	for (let version = from; version < target; version++) {
		const step = ownValue(migrations, String(version));
		if (step === undefined)
			return { kind: 'unreadable', problem: `there is no upgrade from its format v${version}` };
		let next: unknown;
		try {
			next = step(state, nowMs);
		} catch (error) {
			return {
				kind: 'unreadable',
				problem: `it is not a valid v${version} state (${(error as Error).message})`,
			};
		}
		if (!isRecord(next))
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

/** What the trigger finds saved: nothing, a position it can use (brought up to date), a newer one, or junk. */
export function readSavedPosition(
	value: unknown,
	migrations: Readonly<Record<number, PositionMigration>> = POSITION_MIGRATIONS,
	nowMs?: number,
): SavedPosition {
	if (value === undefined) return { kind: 'none' };
	const migrated = migratePosition(value, migrations, SAVED_POSITION_VERSION, nowMs);
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
