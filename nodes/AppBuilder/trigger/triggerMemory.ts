import { jsonText } from './events/jsonText';
import { fnv1a64 } from '../../shared/text/fnv1a64';

// What this process remembers per trigger (docs/trigger-internals.md, "When n8n polls"): one entry,
// dropped MEMORY_KEPT_MS after its last poll or least recently polled first past MAX_TRIGGERS.

export const MEMORY_KEPT_MS = 40 * 24 * 60 * 60 * 1000;
export const MAX_TRIGGERS = 10_000;
/** How long a poll defers to a hand-over n8n has not stored yet; a commit slower than this can repeat its leads once. */
export const HAND_OFF_WAIT_MS = 3 * 60_000;

export interface FailureStreak {
	/** When the first failed poll of the streak ended (epoch ms). */
	since: number;
	/** Failed polls in a row. */
	polls: number;
	reported: boolean;
	/** When the last failed poll ended: a clock set back since shifts `since` back with it. */
	lastAt: number;
}

interface TriggerEntry {
	polledAt: number;
	claim?: { lapsesAt: number };
	/** Fingerprints of the position the last poll started from and of the one it handed over. */
	handOff?: { from: string; to: string; at: number };
	/** By what keeps failing: `read:` and a cause (the credential, the list, a form), 'undated' or 'forms'. */
	streaks: Map<string, FailureStreak>;
}

/** Oldest poll first: an entry is moved to the end whenever its trigger polls. */
const entries = new Map<string, TriggerEntry>();

function entryOf(triggerKey: string, nowMs: number): TriggerEntry {
	const entry = entries.get(triggerKey) ?? { polledAt: nowMs, streaks: new Map() };
	entries.delete(triggerKey);
	entry.polledAt = Math.max(entry.polledAt, nowMs);
	entries.set(triggerKey, entry);
	for (const [key, oldest] of entries) {
		if (entries.size <= MAX_TRIGGERS && nowMs - oldest.polledAt < MEMORY_KEPT_MS) break;
		entries.delete(key);
	}
	return entry;
}

export function rememberedTriggers(): number {
	return entries.size;
}

/** One poll at a time per trigger: a release function, or undefined while another holds an unlapsed claim. */
export function claimPoll(
	triggerKey: string,
	nowMs: number,
	lapsesAt: number,
): (() => void) | undefined {
	const entry = entryOf(triggerKey, nowMs);
	if (entry.claim !== undefined && nowMs < entry.claim.lapsesAt) return undefined;
	const claim = { lapsesAt };
	entry.claim = claim;
	return () => {
		// A poll that outlived its claim must not release the claim of the poll that took over.
		if (entry.claim === claim) entry.claim = undefined;
	};
}

/** A short fingerprint of a stored position; keys sorted, as a database may reorder them (jsonb does). */
export function positionFingerprint(position: unknown): string {
	return fnv1a64(jsonText(position ?? null, true));
}

/** Remembers that a poll that started from `from` handed the position `to` to n8n. */
export function recordHandOff(triggerKey: string, from: string, to: string, nowMs: number): void {
	// An unchanged position is not stored again: nothing to wait for.
	entryOf(triggerKey, nowMs).handOff = from === to ? undefined : { from, to, at: nowMs };
}

/** Whether a poll given the position the last hand-over started from waits: n8n has not stored that hand-over yet. */
export function awaitsHandOff(triggerKey: string, given: string, nowMs: number): boolean {
	const entry = entryOf(triggerKey, nowMs);
	const { handOff } = entry;
	if (handOff?.from === given && nowMs - handOff.at < HAND_OFF_WAIT_MS) return true;
	entry.handOff = undefined;
	return false;
}

/** Counts a failed poll of the trigger; `report` is true for the one poll that reports it, once both bounds are reached. */
export function recordFailedPoll(
	triggerKey: string,
	kind: string,
	nowMs: number,
	reporting: { afterPolls: number; afterMs: number },
): FailureStreak & { report: boolean } {
	const entry = entryOf(triggerKey, nowMs);
	const previous = entry.streaks.get(kind);
	const setBack = Math.max(0, (previous?.lastAt ?? nowMs) - nowMs);
	const since = (previous?.since ?? nowMs) - setBack;
	const polls = (previous?.polls ?? 0) + 1;
	const due = polls >= reporting.afterPolls && nowMs - since >= reporting.afterMs;
	const report = due && previous?.reported !== true;
	const streak = { since, polls, reported: report || previous?.reported === true, lastAt: nowMs };
	entry.streaks.set(kind, streak);
	return { ...streak, report };
}

/** Ends the trigger's streak; returns it, if there was one, so the recovery can be logged. */
export function recordSucceededPoll(
	triggerKey: string,
	kind: string,
	nowMs: number,
): FailureStreak | undefined {
	const entry = entryOf(triggerKey, nowMs);
	const streak = entry.streaks.get(kind);
	entry.streaks.delete(kind);
	return streak;
}
