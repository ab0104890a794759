/**
 * The one rule for an inquiry listed more than once in an answer: it counts
 * at its latest time, with its last listing at that time, and an undated
 * listing only when none is dated. The cursor, the records a poll keeps and
 * Fetch Test Event all read answers by it.
 */
export function replacesListing(current: number | undefined, time: number | undefined): boolean {
	return current === undefined || (time !== undefined && time >= current);
}

/** The cursor's order of dated events: by time, then by key (code unit order). */
export function byTimeThenKey(
	a: { key: string; time: number },
	b: { key: string; time: number },
): number {
	const difference = a.time - b.time;
	if (difference !== 0) return difference;
	return a.key < b.key ? -1 : a.key > b.key ? 1 : 0;
}

/** Per key, the value of its latest listing. */
export class LatestListings<T> {
	private readonly byKey = new Map<string, { time: number | undefined; value: T }>();

	offer(listing: { key: string; time: number | undefined }, value: T): void {
		const current = this.byKey.get(listing.key);
		if (current === undefined || replacesListing(current.time, listing.time)) {
			this.byKey.set(listing.key, { time: listing.time, value });
		}
	}

	get(key: string): T | undefined {
		return this.byKey.get(key)?.value;
	}
}

/** The newest `count` dated keys of a stream, never holding more: a key that falls out has `count` newer ones. */
export interface DatedListing<T> {
	key: string;
	time: number;
	value: T;
}

export class NewestListings<T> {
	/** Oldest first, one per key. */
	private readonly kept: Array<DatedListing<T>> = [];
	private readonly byKey = new Map<string, DatedListing<T>>();

	constructor(private readonly count: number) {}

	/** Takes one listing; `valueOf` is called only when it is kept, so a caller copies out only what it keeps. */
	offer(key: string, time: number | undefined, valueOf: () => T): boolean {
		if (time === undefined || !Number.isFinite(time) || this.count <= 0) return false;
		// Older than the oldest kept: out. An equal one is that very key again, the last of equals.
		if (this.kept.length === this.count && byTimeThenKey({ key, time }, this.kept[0]) < 0)
			return false;
		const current = this.byKey.get(key);
		if (current !== undefined) {
			if (!replacesListing(current.time, time)) return false;
			this.kept.splice(this.kept.indexOf(current), 1);
		}
		const listing = { key, time, value: valueOf() };
		// From the newest end: a form's answer is mostly oldest first.
		let place = this.kept.length;
		while (place > 0 && byTimeThenKey(listing, this.kept[place - 1]) < 0) place--;
		this.kept.splice(place, 0, listing);
		this.byKey.set(key, listing);
		if (this.kept.length > this.count)
			this.byKey.delete((this.kept.shift() as DatedListing<T>).key);
		return true;
	}

	get size(): number {
		return this.kept.length;
	}

	get(key: string): T | undefined {
		return this.byKey.get(key)?.value;
	}

	/** The newest so far, oldest first. */
	oldestFirst(): Array<DatedListing<T>> {
		return [...this.kept];
	}
}
