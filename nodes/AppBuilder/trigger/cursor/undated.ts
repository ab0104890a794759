import { hashText, keyHash, SUBTABLES, type KeyHash, type KeySetTable } from './keySetTable';

/**
 * Undated inquiries cannot sit under a floor: a table keeps those handled, and each poll reads what changed by
 * peeling the stored table less the keys present: one that appeared reads back with sign -1, one that disappeared
 * with 1, and a key read back that contradicts what is present is left unresolved. The plan: the keys to emit, in
 * key order; the table to commit onto; the hashes (hashText) of handled keys no longer present undated; and about
 * how many changes could not be told apart (0 when every one was).
 */
export function planUndated(
	stored: KeySetTable,
	presentUndated: readonly string[],
	isTrackedDated: (key: string) => boolean,
) {
	const present = new PresentKeys();
	const difference = stored.copy();
	for (const key of presentUndated) {
		const hash = keyHash(key);
		difference.toggle(hash, -1);
		present.add(hash, key);
	}
	// Most polls: no undated key appeared or disappeared.
	if (difference.words.every((word) => word === 0))
		return { toEmit: [], table: stored, disappeared: new Set<string>(), unresolved: 0 };
	const table = stored.copy();
	const toEmit: string[] = [];
	const disappeared = new Set<string>();
	const taken = new Set<string>();

	const queue: number[] = [];
	for (let cell = 0; cell < difference.cells; cell++) queue.push(cell);
	while (queue.length > 0) {
		const lone = difference.loneHash(queue.pop() as number);
		if (lone === undefined) continue;
		const text = hashText(lone.hash);
		const key = present.get(lone.hash);
		if (lone.sign === -1) {
			if (key === undefined || taken.has(text)) continue;
			// Emitted while it had a time, now without one: remember it as handled.
			if (isTrackedDated(key)) table.toggle(lone.hash, 1);
			else toEmit.push(key);
		} else {
			if (key !== undefined || taken.has(text)) continue;
			table.toggle(lone.hash, -1);
			disappeared.add(text);
		}
		taken.add(text);
		difference.toggle(lone.hash, lone.sign === 1 ? -1 : 1);
		for (let part = 0; part < SUBTABLES; part++) queue.push(difference.cellOf(lone.hash, part));
	}
	return { toEmit: toEmit.sort(), table, disappeared, unresolved: unresolvedIn(difference) };
}

/** About how many keys a difference still holds: the most any one part accounts for, at least one if any cell is not empty. */
function unresolvedIn(difference: KeySetTable): number {
	let most = 0;
	let any = false;
	for (let start = 0; start < difference.cells; start += difference.size) {
		let inPart = 0;
		for (let cell = start; cell < start + difference.size; cell++) {
			inPart += Math.abs(difference.countOf(cell));
			if (!difference.isEmptyCell(cell)) any = true;
		}
		most = Math.max(most, inPart);
	}
	return any ? Math.max(1, most) : 0;
}

/** Present keys by hash, looked up by the hash's high half first: no text is made for each key. */
class PresentKeys {
	private readonly byHigh = new Map<number, Array<{ low: number; key: string }>>();

	add(hash: KeyHash, key: string): void {
		const entries = this.byHigh.get(hash.high);
		if (entries === undefined) this.byHigh.set(hash.high, [{ low: hash.low, key }]);
		else entries.push({ low: hash.low, key });
	}

	get(hash: KeyHash): string | undefined {
		return this.byHigh.get(hash.high)?.find((entry) => entry.low === hash.low)?.key;
	}
}
