/**
 * The newest `count` inquiries of a stream of listings, in the cursor's order
 * (by time, then key), holding at most `count` values at any time: an Emit
 * the Latest first poll keeps only these records' bytes as the answer
 * streams past, and the cursor picks the same ones from the times alone.
 *
 * An inquiry listed more than once counts at its latest time, with the value
 * of its last listing at that time, as the cursor and inquiryList.ts read a
 * key listed twice. Undated listings are never among the newest: a first
 * poll takes undated inquiries as handled, it does not emit them.
 *
 * Why a bounded set is enough: once a key falls out, the newest `count`
 * other keys are all after it, and they only get newer, so it can come back
 * only with a later listing, which is the one to keep anyway.
 */
export interface DatedListing<T> {
	key: string;
	time: number;
	value: T;
}

export class NewestListings<T> {
	/** Oldest first, one per key. */
	private readonly kept: Array<DatedListing<T>> = [];
	/** The same listings by key. */
	private readonly byKey = new Map<string, DatedListing<T>>();

	constructor(private readonly count: number) {}

	/**
	 * Takes one listing; returns whether it is now kept. `valueOf` is called
	 * only then, so a caller copies out only the bytes it keeps.
	 */
	offer(key: string, time: number | undefined, valueOf: () => T): boolean {
		if (time === undefined || !Number.isFinite(time) || this.count <= 0) return false;
		// Strictly older than the oldest kept: out. An equal one is that very key again, the last of equals.
		if (this.kept.length === this.count && byTimeThenKey({ key, time }, this.kept[0]) < 0) return false;
		const current = this.byKey.get(key);
		if (current !== undefined) {
			if (time < current.time) return false;
			this.kept.splice(this.kept.indexOf(current), 1);
		}
		const listing = { key, time, value: valueOf() };
		// From the newest end: a form's answer is mostly oldest first, so the place is usually the end.
		let place = this.kept.length;
		while (place > 0 && byTimeThenKey(listing, this.kept[place - 1]) < 0) place--;
		this.kept.splice(place, 0, listing);
		this.byKey.set(key, listing);
		if (this.kept.length > this.count) this.byKey.delete((this.kept.shift() as DatedListing<T>).key);
		return true;
	}

	/** How many values are kept. */
	get size(): number {
		return this.kept.length;
	}

	/** The value kept for a key, if it is among the newest. */
	get(key: string): T | undefined {
		return this.byKey.get(key)?.value;
	}

	/** The newest so far, oldest first. */
	oldestFirst(): Array<DatedListing<T>> {
		return [...this.kept];
	}
}

/** The cursor's order of dated events: by time, then by key (code unit order). */
export function byTimeThenKey(a: { key: string; time: number }, b: { key: string; time: number }): number {
	const difference = a.time - b.time;
	if (difference !== 0) return difference;
	return a.key < b.key ? -1 : a.key > b.key ? 1 : 0;
}
