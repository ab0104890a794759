import { jsonText } from '../../shared/text/jsonText';
import { fnv1a64 } from '../inquiries/identity';

/**
 * The position each trigger's last poll handed to n8n, remembered in this
 * process, for n8n's durable poll cursors.
 *
 * Under durable poll cursors a poll gets a copy of its trigger's position,
 * read when n8n starts the poll's task, and n8n stores the position the poll
 * leaves together with the execution, in one transaction, after the poll has
 * returned. Two tasks of one trigger can start together: after a restart n8n
 * runs at once every poll time it missed while it was down (one task per
 * Poll Times entry), and it runs a task whose lease ran out again beside the
 * next one. The second task's poll can then begin just after the first one
 * returned (the claim of pollClaims.ts is free again) and before n8n stored
 * the first one's position: its copy is the position from before, and it
 * would emit the same leads a second time.
 *
 * So a poll remembers the position it started from and the one it handed
 * over. A later poll given the position the last hand-over started from,
 * within HAND_OFF_WAIT_MS of it, returns at once and leaves the leads to the
 * next poll, which reads the stored position. Past the wait the copy is
 * taken as what n8n stored: the hand-over did not commit (n8n discarded it,
 * or the database refused it), and as the execution commits with it, none
 * holds those leads, so the poll emits them again. A poll given any other
 * position (the one handed over, or one n8n reset) goes ahead at once.
 */

/** How long a poll defers to a hand-over n8n has not stored yet; a commit that takes longer than this can repeat its leads once. */
export const HAND_OFF_WAIT_MS = 3 * 60_000;

interface HandOff {
	/** Fingerprints of the position the poll started from and of the one it handed over. */
	from: string;
	to: string;
	at: number;
}

const handOffs = new Map<string, HandOff>();

/**
 * A short fingerprint of a stored position. Keys are sorted: a database may
 * give an object's keys back in another order (PostgreSQL's jsonb does).
 */
export function positionFingerprint(position: unknown): string {
	return fnv1a64(jsonText(position ?? null, true));
}

/** Remembers that a poll of the trigger that started from `from` handed the position `to` to n8n. */
export function recordHandOff(triggerKey: string, from: string, to: string, nowMs: number): void {
	for (const [key, handOff] of handOffs) {
		if (nowMs - handOff.at >= HAND_OFF_WAIT_MS) handOffs.delete(key);
	}
	// An unchanged position is not stored again: nothing to wait for.
	if (from === to) handOffs.delete(triggerKey);
	else handOffs.set(triggerKey, { from, to, at: nowMs });
}

/** Whether a poll given the position with this fingerprint should leave the leads to a later poll. */
export function awaitsHandOff(triggerKey: string, given: string, nowMs: number): boolean {
	const handOff = handOffs.get(triggerKey);
	if (handOff === undefined) return false;
	if (given === handOff.from && nowMs - handOff.at < HAND_OFF_WAIT_MS) return true;
	// Stored, given up on, or replaced by n8n: nothing to wait for any more.
	handOffs.delete(triggerKey);
	return false;
}
