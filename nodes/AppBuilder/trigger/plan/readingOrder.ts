/**
 * A poll may run out of time before it has read every form (n8n's poll
 * budget): the forms it did not reach are read first in the next poll, so a
 * large app's last forms are not always the ones left out. Pure.
 */

/** The forms to read, those left over from the last poll first (in that order), then the rest as listed. */
export function readingOrder(listed: readonly string[], leftOver: readonly string[]): string[] {
	const listedIds = new Set(listed);
	const first = [...new Set(leftOver)].filter((pageId) => listedIds.has(pageId));
	const firstIds = new Set(first);
	return [...first, ...listed.filter((pageId) => !firstIds.has(pageId))];
}

/** The forms this poll did not reach, in reading order, to read first next time. */
export function leftOverAfter(ordered: readonly string[], reached: ReadonlySet<string>): string[] {
	return ordered.filter((pageId) => !reached.has(pageId));
}
