/**
 * Inquiries without a usable time cannot sit under a floor, so the cursor
 * remembers their keys in a list of at most maxUndated, oldest first.
 *
 * - A key in the list, or among the dated keys the cursor tracks, is never
 *   emitted as undated again.
 * - Room is made by forgetting listed keys that are no longer in the
 *   response (deleted inquiries), oldest first and only as many as needed.
 *   A key still in the response is never forgotten: forgetting it would
 *   emit it again on the next poll, and again on every poll after that.
 *   (So an inquiry missing from one response, forgotten while room was
 *   needed, and back in the next would be emitted again.)
 * - While the list is full of keys still present, a new undated inquiry waits
 *   (it is not emitted, and not lost) until a deletion makes room.
 * - A first poll remembers up to maxUndated of the undated inquiries present;
 *   beyond that, the rest are emitted later, as room appears, as if new.
 */
export interface UndatedPlan {
	/** Keys to emit now, in key order; the list has room for all of them. */
	toEmit: string[];
	/** The list to commit onto: forgotten keys removed, tracked keys adopted. */
	list: string[];
}

export function planUndated(
	list: readonly string[],
	presentUndated: readonly string[],
	isTrackedDated: (key: string) => boolean,
	maxUndated: number,
): UndatedPlan {
	const listed = new Set(list);
	const unlisted = [...presentUndated].filter((key) => !listed.has(key)).sort();
	const fresh = unlisted.filter((key) => !isTrackedDated(key));
	// Emitted while it had a time, now without one: remember it as handled.
	const adopt = unlisted.filter((key) => isTrackedDated(key));

	const present = new Set(presentUndated);
	let surplus = list.length + fresh.length + adopt.length - maxUndated;
	const kept = list.filter((key) => {
		if (surplus > 0 && !present.has(key)) {
			surplus--;
			return false;
		}
		return true;
	});

	const room = Math.max(0, maxUndated - kept.length);
	const toEmit = fresh.slice(0, room);
	return { toEmit, list: [...kept, ...adopt.slice(0, room - toEmit.length)] };
}
