import {
	commitPoll,
	CURSOR_STATE_VERSION,
	planPoll,
	recordsToKeepGiven,
	type CursorEvent,
	type CursorOptions,
	type CursorState,
	type PollPlan,
	type RecordsToKeep,
} from './cursor';
import { startOf } from './cursorFloor';
import type { FormCursor, FormStart } from './triggerPosition';

/**
 * One form's cursor in a poll, however the form starts: the cursor it
 * saved, a first poll as On First Poll says, or everything submitted from
 * a time on (a form added to a watched app, or On First Poll set to a
 * date). Pure; the cursor's own rules are in cursor.ts.
 */

/** The cursor works on a state with a scope; the trigger checks the scope itself (triggerPosition.ts). */
const FORM_SCOPE = 'form';

/** Which records of the form's answer to keep while it streams past (see recordsToKeepGiven). */
export function recordsToKeepFor(cursor: FormCursor | undefined, start: FormStart, options: CursorOptions): RecordsToKeep {
	return recordsToKeepGiven(startingState(cursor, start, [], options), options, FORM_SCOPE);
}

/** What to emit of the form now. */
export function planForm(cursor: FormCursor | undefined, start: FormStart, events: readonly CursorEvent[], options: CursorOptions): PollPlan {
	return planPoll(startingState(cursor, start, events, options), events, options, FORM_SCOPE);
}

/** The form's cursor to save, once `emitted` (a prefix of the plan's toEmit) went out. */
export function commitForm(plan: PollPlan, emitted: readonly CursorEvent[], options: CursorOptions): FormCursor {
	const { floor, seen, undated } = commitPoll(plan, emitted, options, FORM_SCOPE);
	return { floor, seen, undated };
}

/**
 * The state the cursor plans on. From a time on: the floor is that time
 * (the keys emitted at exactly that time, when a form comes back, are
 * seen), and undated inquiries present are taken as handled, as on any
 * first poll (the cursor's own first poll of them builds that table): with
 * no time, nothing says they are newer.
 */
function startingState(cursor: FormCursor | undefined, start: FormStart, events: readonly CursorEvent[], options: CursorOptions): CursorState | undefined {
	if (cursor !== undefined) return { v: CURSOR_STATE_VERSION, scope: FORM_SCOPE, ...cursor };
	if (start.kind === 'first-poll') return undefined;
	const undated = events.filter((event) => event.time === undefined);
	const handled = planPoll(undefined, undated, { ...options, firstPoll: { kind: 'none' } }, FORM_SCOPE).baseline;
	// fromEntries defines keys, so even a "__proto__" key stays a key.
	const seen = Object.fromEntries(start.keysAtTime.map((key) => [key, start.time]));
	return { ...handled, floor: startOf(start.time), seen };
}
