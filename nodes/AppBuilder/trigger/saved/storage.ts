import { setOwnValue } from '../../../shared/ownValue';
import { isRecord } from '../../../shared/valueShapes';
import { readSavedPosition } from './migrations';
import { SAVED_POSITION_VERSION, type TriggerPosition } from './position';

// Where the position is stored (ARCHITECTURE.md, "Saved state and its versions"): keyed by node ID, since n8n keys a
// node's static data by name (docs/trigger-internals.md, "Renaming or copying the trigger").

export interface TriggerStores {
	node: Record<string, unknown>;
	workflow: Record<string, unknown>;
}

/** The position in the node's static data; OWNER_KEY is the node that saved it (absent in release 0.1.0). */
const STATE_KEY = 'inquiryCursor';
const OWNER_KEY = 'triggerNodeId';
/** The position in the workflow's global static data: this prefix and the node's ID. */
const COPY_PREFIX = 'appBuilderTrigger:';
/** A copy not saved for this long belongs to a deleted trigger (or one idle for months): dropped. */
export const ABANDONED_COPY_MS = 90 * 24 * 60 * 60 * 1000;

interface PositionCopy {
	savedAt: number;
	state: Record<string, unknown>;
}

/** The stored value (undefined before the first poll), the same object until a poll saves: see who saved meanwhile. */
export function storedPosition(nodeId: string | undefined, stores: TriggerStores): unknown {
	const own = stores.node[STATE_KEY];
	const owner = stores.node[OWNER_KEY];
	const ownIsThisNodes =
		own !== undefined && (owner === undefined || nodeId === undefined || owner === nodeId);
	const copy = nodeId === undefined ? undefined : stores.workflow[COPY_PREFIX + nodeId];
	const copied = isPositionCopy(copy) ? copy.state : undefined;
	if (hasDurablePollCursors(stores.node)) return ownIsThisNodes ? own : copied;
	return copied ?? (ownIsThisNodes ? own : undefined);
}

/** Whether the node's static data is a staged copy (durable poll cursors): n8n's own has a `__dataChanged` flag. */
export function hasDurablePollCursors(nodeData: Record<string, unknown>): boolean {
	return !('__dataChanged' in nodeData);
}

/** A position of release 0.1.0 has no owner: the node of its name that polls first under this release takes it. */
export function adoptOwnerless(nodeId: string | undefined, stores: TriggerStores): void {
	if (nodeId !== undefined && stores.node[STATE_KEY] !== undefined && !(OWNER_KEY in stores.node))
		stores.node[OWNER_KEY] = nodeId;
}

/** The saved position in the current format; one it cannot read throws UnusablePosition, never starts over (leads would be lost). */
export function readTriggerPosition(
	nodeId: string | undefined,
	stores: TriggerStores,
): TriggerPosition | undefined {
	return readSavedPosition(readOut(storedPosition(nodeId, stores), 0));
}

/** Deeper than any position nests: below it a value is left as it is, for the check to refuse. */
const READ_OUT_DEPTH = 8;

/** The stored value copied out of n8n's observable proxy once, as the cursor reads its keys many times; "__proto__" stays a key. */
function readOut(value: unknown, depth: number): unknown {
	if (typeof value !== 'object' || value === null || depth > READ_OUT_DEPTH) return value;
	if (Array.isArray(value)) return value.map((item) => readOut(item, depth + 1));
	const source = value as Record<string, unknown>;
	const copy: Record<string, unknown> = {};
	for (const key of Object.keys(source)) setOwnValue(copy, key, readOut(source[key], depth + 1));
	return copy;
}

/** Saves the position once, removes what the other mode or an earlier release left, and drops abandoned copies. */
export function writeTriggerPosition(
	nodeId: string | undefined,
	stores: TriggerStores,
	position: TriggerPosition,
	nowMs: number,
): void {
	const value = { v: SAVED_POSITION_VERSION, ...position };
	// Whole top-level values are replaced: n8n notices a changed top-level key and saves it.
	if (nodeId === undefined) {
		stores.node[STATE_KEY] = value;
		return;
	}
	const copyKey = COPY_PREFIX + nodeId;
	if (hasDurablePollCursors(stores.node)) {
		// The global copy goes only once the node's own data held a position: n8n commits this one after the poll, and may not.
		const ownHeldOne = stores.node[STATE_KEY] !== undefined && stores.node[OWNER_KEY] === nodeId;
		stores.node[STATE_KEY] = value;
		stores.node[OWNER_KEY] = nodeId;
		if (ownHeldOne && copyKey in stores.workflow) delete stores.workflow[copyKey];
	} else {
		stores.workflow[copyKey] = { savedAt: nowMs, state: value } satisfies PositionCopy;
		if (STATE_KEY in stores.node) delete stores.node[STATE_KEY];
		if (OWNER_KEY in stores.node) delete stores.node[OWNER_KEY];
	}
	for (const key of Object.keys(stores.workflow)) {
		if (!key.startsWith(COPY_PREFIX) || key === copyKey) continue;
		const other = stores.workflow[key];
		if (!isPositionCopy(other) || nowMs - other.savedAt > ABANDONED_COPY_MS)
			delete stores.workflow[key];
	}
}

function isPositionCopy(value: unknown): value is PositionCopy {
	if (!isRecord(value)) return false;
	const { savedAt, state } = value;
	return typeof savedAt === 'number' && typeof state === 'object' && state !== null;
}
