import {
	markReported,
	nextRhythm,
	quietSpell,
	type FormRhythm,
	type QuietRule,
	type QuietSpell,
} from './formRhythm';

/** A form a poll read: how many new leads it brought, and every inquiry's time (a first read learns from them). */
export interface FormRead {
	pageId: string;
	arrivals: number;
	times: Iterable<number | undefined>;
}

/**
 * Each form's rhythm after a poll and the spells to report: forms read learn
 * what they brought; forms out of the app's list but still watched are
 * judged as they stand; forms that failed or were not reached are neither.
 */
export function quietForms(poll: {
	saved: Readonly<Record<string, FormRhythm>> | undefined;
	read: readonly FormRead[];
	/** Forms with a rhythm kept as it is: listed but not read this poll. */
	unread: readonly string[];
	/** Whether a saved form out of the app's list is still watched (and so judged). */
	watchedAway: (pageId: string) => boolean;
	rule: QuietRule;
	/** The workflow's time zone: a rhythm's hours are its wall-clock hours. */
	timeZone: string;
	nowMs: number;
}): {
	rhythms: Map<string, FormRhythm>;
	quietSpells: Array<{ pageId: string; spell: QuietSpell; away: boolean }>;
} {
	const saved = new Map(Object.entries(poll.saved ?? {}));
	const context = { timeZone: poll.timeZone, unwatched: [] };
	const rhythms = new Map<string, FormRhythm>();
	const judged = new Map<string, boolean>();
	for (const { pageId, arrivals, times } of poll.read) {
		rhythms.set(pageId, nextRhythm(saved.get(pageId), { arrivals, times }, poll.nowMs, context));
		judged.set(pageId, false);
	}
	for (const pageId of poll.unread) {
		const before = saved.get(pageId);
		if (before !== undefined) rhythms.set(pageId, before);
	}
	for (const [pageId, rhythm] of saved) {
		if (rhythms.has(pageId) || poll.unread.includes(pageId) || !poll.watchedAway(pageId)) continue;
		rhythms.set(pageId, rhythm);
		judged.set(pageId, true);
	}
	const quietSpells: Array<{ pageId: string; spell: QuietSpell; away: boolean }> = [];
	for (const [pageId, away] of judged) {
		const rhythm = rhythms.get(pageId) as FormRhythm;
		const spell = quietSpell(rhythm, poll.rule, poll.nowMs, context);
		if (spell === undefined) continue;
		quietSpells.push({ pageId, spell, away });
		rhythms.set(pageId, markReported(rhythm, spell));
	}
	return { rhythms, quietSpells };
}
