import {
	planPoll,
	recordsToKeepGiven,
	type CursorEvent,
	type CursorOptions,
	type CursorState,
	type FirstPoll,
	type PollPlan,
	type RecordsToKeep,
} from '../cursor/cursor';
import { floorBefore } from '../cursor/floor';
import { ownValue } from '../cursor/storedShapes';
import type { TriggerPosition } from '../saved/position';

/** One form's cursor in a poll: how it starts, what it emits, what it saves. Pure. */

/** With a cursor (its own, or one that takes everything from a time on), or with the cursor's first poll. */
export type FormStart =
	| { kind: 'first-poll' }
	| { kind: 'cursor'; cursor: CursorState; undatedUnknown: boolean };

/**
 * How each form starts, the one rule (docs/trigger.md, "Watching every
 * form"): with its cursor; else, watching every form of an app whose watch
 * began in an earlier poll, from when it began (a form added later, or one
 * whose first reads failed); else from Since; else as On First Poll says.
 */
export function formStarts(
	position: TriggerPosition | undefined,
	watch: { allForms: boolean; firstPoll: FirstPoll },
): (pageId: string) => FormStart {
	const unknown = new Set(position?.undatedUnknown ?? []);
	const since = watch.firstPoll.kind === 'since' ? watch.firstPoll.sinceMs : undefined;
	const from = (watch.allForms ? position?.allFormsSince : undefined) ?? since;
	return (pageId) => {
		const cursor = ownValue(position?.forms, pageId);
		if (cursor !== undefined)
			return { kind: 'cursor', cursor, undatedUnknown: unknown.has(pageId) };
		if (from === undefined) return { kind: 'first-poll' };
		// Nothing was emitted after `from`; undated inquiries present have no time to tell them new, so are handled.
		return {
			kind: 'cursor',
			cursor: { floor: floorBefore(from), seen: {}, undated: '' },
			undatedUnknown: true,
		};
	};
}

/** Which records of the form's answer to keep while it streams past (recordsToKeepGiven). */
export function recordsToKeepFor(start: FormStart, options: CursorOptions): RecordsToKeep {
	return recordsToKeepGiven(startingState(start, [], options), options);
}

export function planForm(
	start: FormStart,
	events: readonly CursorEvent[],
	options: CursorOptions,
): PollPlan {
	return planPoll(startingState(start, events, options), events, options);
}

/**
 * The cursor planned on (undefined: the cursor's own first poll). One whose
 * undated inquiries are unknown takes those present as handled, as any
 * first poll does: with no time, nothing says they are newer.
 */
function startingState(
	start: FormStart,
	events: readonly CursorEvent[],
	options: CursorOptions,
): CursorState | undefined {
	if (start.kind === 'first-poll') return undefined;
	if (!start.undatedUnknown) return start.cursor;
	const undated = events.filter((event) => event.time === undefined);
	const handled = planPoll(undefined, undated, {
		...options,
		firstPoll: { kind: 'none' },
	}).baseline;
	return { ...start.cursor, undated: handled.undated };
}
