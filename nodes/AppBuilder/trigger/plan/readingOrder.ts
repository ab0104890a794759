/** The forms the last poll did not reach (out of time) first, so the same forms are not always left out. */
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
