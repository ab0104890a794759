import { cursorStateProblem, type CursorState } from '../../nodes/AppBuilder/trigger/cursor/cursor';

/** A cursor as n8n hands it back: the value when it is a valid cursor, else undefined (as the trigger reads it). */
export function storedCursor(value: unknown): CursorState | undefined {
	return cursorStateProblem(value) === undefined ? (value as CursorState) : undefined;
}
