import { applyEvent } from '../forms/formEvents';
import type { FormRecord } from '../forms/formRecord';

// The state's bound over forms (docs/trigger-internals.md, "Watching every form: the details"): records of
// forms away long (both the time and the polls), or past the count kept whole, shrink; past more, they are dropped.

const DAY_MS = 24 * 60 * 60 * 1000;
export const SHRINK_AWAY_FORM_AFTER_MS = 90 * DAY_MS;
export const SHRINK_AWAY_FORM_AFTER_POLLS = 1000;
export const FORGET_AWAY_FORM_AFTER_MS = 365 * DAY_MS;
export const FORGET_AWAY_FORM_AFTER_POLLS = 10_000;
export const MAX_WHOLE_CURSORS = 2000;
export const MAX_SMALL_CURSORS = 1000;

/** The records after the bound, forms read first; a dropped form's floor lifts the others', so back it emits nothing twice. */
export function boundedRecords(
	records: ReadonlyMap<string, FormRecord>,
	others: FormRecord | undefined,
	nowMs: number,
): { forms: Map<string, FormRecord>; others: FormRecord | undefined } {
	const ranked = [...records].sort(
		([a, first], [b, second]) =>
			(second.away?.since ?? Infinity) - (first.away?.since ?? Infinity) ||
			(a < b ? -1 : a > b ? 1 : 0),
	);
	const forms = new Map<string, FormRecord>();
	let lifted = others;
	ranked.forEach(([pageId, record], rank) => {
		const awayFor = (polls: number, ms: number) =>
			record.away !== undefined && record.away.polls >= polls && nowMs - record.away.since >= ms;
		if (rank >= MAX_WHOLE_CURSORS + MAX_SMALL_CURSORS) {
			if (lifted !== undefined)
				lifted = applyEvent(lifted, { kind: 'formDropped', floor: record.cursor.floor });
		} else if (awayFor(FORGET_AWAY_FORM_AFTER_POLLS, FORGET_AWAY_FORM_AFTER_MS)) {
			forms.set(pageId, applyEvent(record, { kind: 'forgotten', at: nowMs }));
		} else if (
			rank >= MAX_WHOLE_CURSORS ||
			awayFor(SHRINK_AWAY_FORM_AFTER_POLLS, SHRINK_AWAY_FORM_AFTER_MS)
		) {
			forms.set(pageId, applyEvent(record, { kind: 'shrunk' }));
		} else {
			forms.set(pageId, record);
		}
	});
	return { forms, others: lifted };
}
