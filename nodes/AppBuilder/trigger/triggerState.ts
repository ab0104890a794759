import type { IDataObject, INode } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { readSavedPosition } from './cursorStateVersions';
import { SAVED_POSITION_VERSION, type TriggerPosition } from './triggerPosition';

/**
 * Where the trigger keeps its position (the cursor), and how the position
 * follows the node rather than its name.
 *
 * By default n8n keeps a node's static data in the workflow under the
 * node's name, and renaming a node does not move it: a renamed trigger
 * would find nothing and start over, dropping the leads that arrived since
 * its last poll (or, renamed back, find the position it left there and emit
 * again what it emitted under the other name). So the position is saved
 * twice, in the same save of the workflow: in the node's static data,
 * tagged with the node's ID, and in the workflow's global static data under
 * the node's ID, which a rename leaves alone. There the copy under the ID is
 * the one read, the node's own data only when there is no copy (a position
 * saved before copies existed).
 *
 * Under n8n's durable poll cursors the node's static data is a staged copy,
 * keyed by node ID and committed with the execution in one transaction,
 * while global static data is saved apart, when an execution starts: the
 * node's own data is then the position, and the copy under the ID is read
 * only when it holds none (n8n seeds it from the data under the name when
 * durable cursors are first turned on, so that is rare).
 *
 * A duplicated node has a new ID: it finds neither, and starts with a first
 * poll.
 */
export interface TriggerStores {
	/** getWorkflowStaticData('node'). */
	node: IDataObject;
	/** getWorkflowStaticData('global'). */
	workflow: IDataObject;
}

/** The cursor in the node's static data. */
const STATE_KEY = 'inquiryCursor';
/** The ID of the node that saved it (absent in positions saved by release 0.1.0). */
const OWNER_KEY = 'triggerNodeId';
/** The copy in the workflow's global static data: this prefix and the node's ID. */
const COPY_PREFIX = 'appBuilderTrigger:';
/** A copy not refreshed for this long belongs to a trigger that was deleted (or idle for months): dropped. */
export const ABANDONED_COPY_MS = 90 * 24 * 60 * 60 * 1000;

interface PositionCopy {
	savedAt: number;
	state: IDataObject;
}

/**
 * The stored value the position is read from (see above), or undefined
 * before the first poll. The same object until a poll saves a new position,
 * so a poll can tell at its end whether another one saved meanwhile.
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
	const saved = readSavedPosition(storedPosition(node, stores));
	if (saved.kind === 'none') return undefined;
	if (saved.kind === 'readable') return saved.state;
	if (saved.kind === 'newer') {
		throw new NodeOperationError(
			node,
			`The trigger's saved position is from a newer release of n8n-nodes-appbuilder (format v${saved.version}; this release reads up to v${SAVED_POSITION_VERSION})`,
			{
				description: `${STOPPED} Update n8n-nodes-appbuilder (Settings > Community Nodes) to the release that saved it or a later one: the trigger then carries on where it stopped and no inquiry is lost. ${START_OVER}`,
			},
		);
	}
	throw new NodeOperationError(node, `The trigger's saved position cannot be read: ${saved.problem}`, {
		description: `No release of n8n-nodes-appbuilder writes it like this: the workflow's data was edited or damaged. ${STOPPED} ${START_OVER}`,
	});
}

/** Saves the position in the node's static data and its copy under the node's ID; drops abandoned copies. */
export function writeTriggerPosition(node: INode, stores: TriggerStores, position: TriggerPosition, nowMs: number): void {
	const value = { v: SAVED_POSITION_VERSION, ...position } as unknown as IDataObject;
	// Replace whole top-level values: n8n notices a changed top-level key and saves it.
	stores.node[STATE_KEY] = value;
	if (node.id === undefined) return;
	stores.node[OWNER_KEY] = node.id;
	const copy: PositionCopy = { savedAt: nowMs, state: value };
	stores.workflow[COPY_PREFIX + node.id] = copy as unknown as IDataObject;
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

// A copy of the node has a new ID, and so starts with no position.
const START_OVER =
	"To start over instead, duplicate this trigger node, connect the copy in its place and delete the original: the copy begins with a first poll (see On First Poll), and inquiries submitted since the last successful poll are not emitted (App Builder > Get Many Inquiries with Submitted After lists them).";
