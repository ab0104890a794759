import type { IDataObject, INode } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { CURSOR_STATE_VERSION, type CursorState } from './cursor';
import { readSavedPosition } from './cursorStateVersions';

/** Where the trigger keeps its cursor in the node's workflow static data. */
const STATE_KEY = 'inquiryCursor';

/**
 * The saved cursor, brought up to the current format; undefined before the
 * first poll. A saved cursor it cannot read stops the poll with an error, before
 * anything is fetched or emitted and with the cursor left as it is: treating it
 * as a first poll would take every inquiry present as handled.
 */
export function readCursorState(node: INode, staticData: IDataObject): CursorState | undefined {
	const saved = readSavedPosition(staticData[STATE_KEY]);
	if (saved.kind === 'none') return undefined;
	if (saved.kind === 'readable') return saved.state;
	if (saved.kind === 'newer') {
		throw new NodeOperationError(
			node,
			`The trigger's saved position is from a newer release of n8n-nodes-appbuilder (format v${saved.version}; this release reads up to v${CURSOR_STATE_VERSION})`,
			{
				description: `${STOPPED} Update n8n-nodes-appbuilder (Settings > Community Nodes) to the release that saved it or a later one: the trigger then carries on where it stopped and no inquiry is lost. ${START_OVER}`,
			},
		);
	}
	throw new NodeOperationError(node, `The trigger's saved position cannot be read: ${saved.problem}`, {
		description: `No release of n8n-nodes-appbuilder writes it like this: the workflow's data was edited or damaged. ${STOPPED} ${START_OVER}`,
	});
}

export function writeCursorState(staticData: IDataObject, state: CursorState): void {
	// Replace the whole value: n8n notices a changed top-level key and saves it.
	staticData[STATE_KEY] = state as unknown as IDataObject;
}

const STOPPED =
	'The trigger stops here rather than guess which inquiries it already sent, and keeps its saved position as it is.';

// n8n keeps a node's static data under its name (under its ID where durable poll
// cursors are on): a copy, with a new name and ID, starts with none.
const START_OVER =
	"To start over instead, duplicate this trigger node, connect the copy in its place, delete the original and keep the copy's new name: the copy begins with a first poll (see On First Poll), and inquiries submitted since the last successful poll are not emitted (App Builder > Get Many Inquiries with Submitted After lists them).";
