import type { IDataObject, INode } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { readSavedPosition } from './migrations';
import { SAVED_POSITION_VERSION, type TriggerPosition } from './position';

/**
 * Where the trigger keeps its position: once, where it follows the node
 * rather than its name (see ARCHITECTURE.md, "Saved state and its
 * versions"). n8n keys a node's static data by the node's name, and a
 * rename does not move it, so by default the position lives in the
 * workflow's global static data under the node's ID. Under n8n's durable
 * poll cursors the node's static data is itself keyed by the node's ID and
 * committed with the execution in one transaction, so the position lives
 * there. A duplicated node has a new ID: it finds neither, and starts with
 * a first poll.
 */
export interface TriggerStores {
	/** getWorkflowStaticData('node'). */
	node: IDataObject;
	/** getWorkflowStaticData('global'). */
	workflow: IDataObject;
}

/** The position in the node's static data (durable poll cursors, a node without ID, and what earlier versions of this package left there). */
const STATE_KEY = 'inquiryCursor';
/** The ID of the node that saved it there (absent in positions saved by release 0.1.0). */
const OWNER_KEY = 'triggerNodeId';
/** The position in the workflow's global static data: this prefix and the node's ID. */
const COPY_PREFIX = 'appBuilderTrigger:';
/** A copy not refreshed for this long belongs to a trigger that was deleted (or idle for months): dropped. */
export const ABANDONED_COPY_MS = 90 * 24 * 60 * 60 * 1000;

interface PositionCopy {
	savedAt: number;
	state: IDataObject;
}

/**
 * The stored value the position is read from, or undefined before the
 * first poll: where this mode keeps it, else where the other mode did (the
 * mode was switched since), else a position of an earlier release in the
 * node's static data. The same object until a poll saves a new position, so
 * a poll can tell at its end whether another one saved meanwhile.
 */
export function storedPosition(node: INode, stores: TriggerStores): unknown {
	const own = stores.node[STATE_KEY];
	const owner = stores.node[OWNER_KEY];
	// Saved by this node, or before positions carried their node's ID.
	const ownIsThisNodes = own !== undefined && (owner === undefined || node.id === undefined || owner === node.id);
	const copy = node.id === undefined ? undefined : stores.workflow[COPY_PREFIX + node.id];
	const copied = isPositionCopy(copy) ? copy.state : undefined;
	if (isStagedCopy(stores.node)) return ownIsThisNodes ? own : copied;
	return copied ?? (ownIsThisNodes ? own : undefined);
}

/**
 * Whether the node's static data is a staged copy (durable poll cursors)
 * rather than its part of the workflow's static data. n8n watches the
 * workflow's static data for changes through an observable object that
 * carries a `__dataChanged` flag; a staged copy is a plain object.
 */
export function isStagedCopy(nodeData: IDataObject): boolean {
	return !('__dataChanged' in nodeData);
}

/**
 * The saved position, brought up to the current format; undefined before the
 * first poll. A position it cannot read stops the poll with an error, before
 * anything is fetched or emitted and with the position left as it is:
 * treating it as a first poll would take every inquiry present as handled.
 */
export function readTriggerPosition(node: INode, stores: TriggerStores): TriggerPosition | undefined {
	const stored = storedPosition(node, stores);
	const saved = readSavedPosition(stored);
	if (saved.kind === 'none') return undefined;
	if (saved.kind === 'readable') return saved.state;
	if (saved.kind === 'newer') {
		throw new NodeOperationError(
			node,
			`The trigger's saved position is from a newer release of n8n-nodes-appbuilder (format v${saved.version}; this release reads up to v${SAVED_POSITION_VERSION})`,
			{
				description: `${STOPPED} Update n8n-nodes-appbuilder (Settings > Community Nodes) to the release that saved it or a later one: the trigger then carries on where it stopped and no inquiry is lost. ${startOver(stores, stored)}`,
			},
		);
	}
	throw new NodeOperationError(node, `The trigger's saved position cannot be read: ${saved.problem}`, {
		description: `No release of n8n-nodes-appbuilder writes it like this: the workflow's data was edited or damaged. ${STOPPED} ${startOver(stores, stored)}`,
	});
}

/**
 * Saves the position once, where this mode keeps it, and removes what an
 * earlier release or the other mode left elsewhere; drops abandoned copies
 * of deleted triggers.
 */
export function writeTriggerPosition(node: INode, stores: TriggerStores, position: TriggerPosition, nowMs: number): void {
	const value = { v: SAVED_POSITION_VERSION, ...position } as unknown as IDataObject;
	// Replace whole top-level values: n8n notices a changed top-level key and saves it.
	if (node.id === undefined) {
		stores.node[STATE_KEY] = value;
		return;
	}
	const copyKey = COPY_PREFIX + node.id;
	if (isStagedCopy(stores.node)) {
		// The global copy goes only once the node's own data held a position: n8n commits this one after the poll, and may not.
		const ownHeldOne = stores.node[STATE_KEY] !== undefined && stores.node[OWNER_KEY] === node.id;
		stores.node[STATE_KEY] = value;
		stores.node[OWNER_KEY] = node.id;
		if (ownHeldOne && copyKey in stores.workflow) delete stores.workflow[copyKey];
	} else {
		const copy: PositionCopy = { savedAt: nowMs, state: value };
		stores.workflow[copyKey] = copy as unknown as IDataObject;
		if (STATE_KEY in stores.node) delete stores.node[STATE_KEY];
		if (OWNER_KEY in stores.node) delete stores.node[OWNER_KEY];
	}
	for (const key of Object.keys(stores.workflow)) {
		if (!key.startsWith(COPY_PREFIX) || key === COPY_PREFIX + node.id) continue;
		const other = stores.workflow[key];
		if (!isPositionCopy(other) || nowMs - other.savedAt > ABANDONED_COPY_MS) delete stores.workflow[key];
	}
}

function isPositionCopy(value: unknown): value is PositionCopy {
	if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
	const copy = value as Partial<PositionCopy>;
	return typeof copy.savedAt === 'number' && typeof copy.state === 'object' && copy.state !== null;
}

const STOPPED =
	'The trigger stops here rather than guess which inquiries it already sent, and keeps its saved position as it is.';

/**
 * How to start over: a copy of the node has a new ID, and so starts with no
 * position, but one saved by release 0.1.0 carries no node ID and is read by
 * whichever node has its name.
 */
function startOver(stores: TriggerStores, stored: unknown): string {
	const unowned = stored !== undefined && stored === stores.node[STATE_KEY] && stores.node[OWNER_KEY] === undefined;
	const name = unowned ? ' Keep the name the copy is given (not this node\'s name): a position of release 0.1.0 is kept under the node\'s name.' : '';
	return `To start over instead, duplicate this trigger node, connect the copy in its place and delete the original: the copy begins with a first poll (see On First Poll), and inquiries submitted since the last successful poll are not emitted (App Builder > Get Many Inquiries with Submitted After lists them).${name}`;
}
