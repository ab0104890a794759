import { DEFAULT_CELLS_PER_SUBTABLE, keyHash, tableOf } from '../cursor/keySetTable';
import { isRecord, isTime } from '../cursor/storedShapes';
import { positionProblem, SAVED_POSITION_VERSION, type TriggerPosition } from './position';

// Positions saved by earlier releases (docs/trigger-internals.md, "Saved positions of older releases"):
// release 0.1.0's format is brought up to date; one that cannot be read is refused, never started over.

/** Undated keys release 0.1.0 kept at most; a list this long may have lost some. */
const V1_MAX_UNDATED = 200;

/**
 * Release 0.1.0 (format v1) kept one form's cursor, scoped "appId/pageId/event": its floor time F
 * becomes the point (F, ""), its list of undated keys a table (a full list makes the form's next
 * read take those present as handled). Throws, in words, on a value not written as v1.
 */
export function fromReleaseV1(state: Readonly<Record<string, unknown>>): Record<string, unknown> {
	const { scope, floor, seen, undated } = state;
	const eventAt = typeof scope === 'string' ? scope.lastIndexOf('/') : -1;
	const pageAt = typeof scope === 'string' ? scope.lastIndexOf('/', eventAt - 1) : -1;
	if (typeof scope !== 'string' || eventAt <= 0 || pageAt <= 0)
		throw new Error('its scope names no app, form and event');
	if (!isTime(floor)) throw new Error('"floor" is not a number');
	if (!isRecord(seen)) throw new Error('"seen" is not an object');
	if (!Array.isArray(undated) || !undated.every((key) => typeof key === 'string'))
		throw new Error('"undated" is not a list of keys');
	const pageId = scope.slice(pageAt + 1, eventAt);
	const keys = [...new Set(undated as string[])];
	const cursor = {
		floor: { time: floor, key: '' },
		seen,
		undated: tableOf(keys.map(keyHash), DEFAULT_CELLS_PER_SUBTABLE).encode(),
	};
	return {
		v: SAVED_POSITION_VERSION,
		scope: `${scope.slice(0, pageAt)}/${scope.slice(eventAt + 1)}`,
		watch: { kind: 'one', pageId },
		forms: {
			[pageId]: { cursor, ...(undated.length >= V1_MAX_UNDATED ? { undatedUnknown: true } : {}) },
		},
		leftOver: [],
	};
}

export type SavedPosition =
	| { kind: 'none' }
	| { kind: 'readable'; state: TriggerPosition }
	| { kind: 'newer'; version: number }
	| { kind: 'damaged'; problem: string };

/** What the trigger finds saved: nothing, a position it can use (brought up to date), a newer one, or junk. */
export function readSavedPosition(value: unknown): SavedPosition {
	if (value === undefined) return { kind: 'none' };
	if (!isRecord(value)) return { kind: 'damaged', problem: 'it is not an object' };
	const { v } = value;
	if (v === undefined) return { kind: 'damaged', problem: 'it has no format version' };
	if (typeof v !== 'number' || !Number.isSafeInteger(v) || v < 0)
		return { kind: 'damaged', problem: 'its format version is not a whole number' };
	if (v > SAVED_POSITION_VERSION) return { kind: 'newer', version: v };
	let state: unknown = value;
	if (v === 1) {
		try {
			state = fromReleaseV1(value);
		} catch (error) {
			return {
				kind: 'damaged',
				problem: `it is not a valid v1 state (${(error as Error).message})`,
			};
		}
	} else if (v < SAVED_POSITION_VERSION) {
		return {
			kind: 'damaged',
			problem: `its format v${v} was never released (only release 0.1.0's v1 is read and upgraded)`,
		};
	}
	const problem = positionProblem(state);
	if (problem !== undefined)
		return {
			kind: 'damaged',
			problem: v === 1 ? `${problem} (after its upgrade from format v1)` : problem,
		};
	return { kind: 'readable', state: state as TriggerPosition };
}
