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
} from '../cursor/cursor';
import type { FormCursor, FormStart } from '../saved/position';

/**
 * One form's cursor in a poll, however the form starts (formStart in
 * triggerPosition.ts). Pure; the cursor's own rules are in cursor.ts.
 */

/** The cursor works on a state with a scope; the trigger checks the scope itself (triggerPosition.ts). */
const FORM_SCOPE = 'form';

/** Which records of the form's answer to keep while it streams past (see recordsToKeepGiven). */
export function recordsToKeepFor(start: FormStart, options: CursorOptions): RecordsToKeep {
	return recordsToKeepGiven(startingState(start, [], options), options, FORM_SCOPE);
}

/** What to emit of the form now. */
export function planForm(start: FormStart, events: readonly CursorEvent[], options: CursorOptions): PollPlan {
	return planPoll(startingState(start, events, options), events, options, FORM_SCOPE);
}

/** The form's cursor to save, once `emitted` (a prefix of the plan's toEmit) went out. */
export function commitForm(plan: PollPlan, emitted: readonly CursorEvent[], options: CursorOptions): FormCursor {
	const { floor, seen, undated } = commitPoll(plan, emitted, options, FORM_SCOPE);
	return { floor, seen, undated };
}

/**
 * The state the cursor plans on (undefined: the cursor's own first poll).
 * A cursor whose undated inquiries are unknown takes those present as
 * handled, as any first poll does (the cursor's own first poll of them
 * builds that table): with no time, nothing says they are newer.
 */
function startingState(start: FormStart, events: readonly CursorEvent[], options: CursorOptions): CursorState | undefined {
	if (start.kind === 'first-poll') return undefined;
	const state: CursorState = { v: CURSOR_STATE_VERSION, scope: FORM_SCOPE, ...start.cursor };
	if (!start.undatedUnknown) return state;
	const undated = events.filter((event) => event.time === undefined);
	const handled = planPoll(undefined, undated, { ...options, firstPoll: { kind: 'none' } }, FORM_SCOPE).baseline;
	return { ...state, undated: handled.undated };
}
