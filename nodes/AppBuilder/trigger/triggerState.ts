import type { IDataObject } from 'n8n-workflow';

import { parseCursorState, type CursorState } from './cursor';

/** Where the trigger keeps its cursor in the node's workflow static data. */
const STATE_KEY = 'inquiryCursor';

export function readCursorState(staticData: IDataObject): CursorState | undefined {
	return parseCursorState(staticData[STATE_KEY]);
}

export function writeCursorState(staticData: IDataObject, state: CursorState): void {
	// Replace the whole value: n8n notices a changed top-level key and saves it.
	staticData[STATE_KEY] = state as unknown as IDataObject;
}
