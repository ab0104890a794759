import { DEFAULT_CELLS_PER_SUBTABLE, keyHash, tableOf } from '../cursor/keySetTable';
import { isRecord, isTime } from '../../../shared/valueShapes';
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

/** A saved position this release cannot use; the poll stops with it and leaves the position as it is. */
export class UnusablePosition extends Error {
	constructor(
		message: string,
		readonly description: string,
	) {
		super(message);
	}
}

/** The saved position (brought up to date), or undefined if nothing was saved; a newer one or junk throws. */
export function readSavedPosition(value: unknown): TriggerPosition | undefined {
	if (value === undefined) return undefined;
	if (!isRecord(value)) throw damaged('it is not an object');
	const { v } = value;
	if (v === undefined) throw damaged('it has no format version');
	if (typeof v !== 'number' || !Number.isSafeInteger(v) || v < 0)
		throw damaged('its format version is not a whole number');
	if (v > SAVED_POSITION_VERSION)
		throw new UnusablePosition(
			`The trigger's saved position is from a newer release of n8n-nodes-appbuilder (format v${v}; this release reads up to v${SAVED_POSITION_VERSION})`,
			`${STOPPED} Update n8n-nodes-appbuilder (Settings > Community Nodes) to the release that saved it or a later one: the trigger then carries on where it stopped and no inquiry is lost. ${START_OVER}`,
		);
	let state: unknown = value;
	if (v === 1) {
		try {
			state = fromReleaseV1(value);
		} catch (error) {
			throw damaged(`it is not a valid v1 state (${(error as Error).message})`);
		}
	} else if (v < SAVED_POSITION_VERSION) {
		throw damaged(
			`its format v${v} was never released (only release 0.1.0's v1 is read and upgraded)`,
		);
	}
	const problem = positionProblem(state);
	if (problem !== undefined)
		throw damaged(v === 1 ? `${problem} (after its upgrade from format v1)` : problem);
	return state as TriggerPosition;
}

function damaged(problem: string): UnusablePosition {
	return new UnusablePosition(
		`The trigger's saved position cannot be read: ${problem}`,
		`No release of n8n-nodes-appbuilder writes it like this: the workflow's data was edited or damaged. ${STOPPED} ${START_OVER}`,
	);
}

const STOPPED =
	'The trigger stops here rather than guess which inquiries it already sent, and keeps its saved position as it is.';

/** A copy of the node has a new ID and starts afresh. */
const START_OVER =
	"To start over instead, duplicate this trigger node, connect the copy in its place and delete the original: the copy begins with a first poll (see On First Check), and inquiries submitted since the last successful poll are not emitted (the App Builder node's Lead > Get Many with Submitted After lists them).";
