/**
 * Inquiries without a usable time cannot sit under a floor, so the cursor
 * remembers their keys in a list of at most maxUndated, oldest first. Room is
 * made only by forgetting keys no longer in the answer: forgetting one still
 * there would emit it again on every poll (see ARCHITECTURE.md, "The cursor").
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
