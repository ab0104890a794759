/**
 * In which order a trigger watching every form of an app reads them. A poll
 * may run out of time before it has read every form (n8n's poll budget);
 * the forms it did not reach are read first in the next poll, so a large
 * app's last forms are not always the ones left out. Pure.
 */

/** The forms to read, those left over from the last poll first (in that order), then the rest as listed. */
export function readingOrder<Form extends { pageId: string }>(listed: readonly Form[], leftOver: readonly string[]): Form[] {
	const byId = new Map(listed.map((form) => [form.pageId, form]));
	const first = leftOver.flatMap((pageId) => {
		const form = byId.get(pageId);
		return form === undefined ? [] : [form];
	});
	const firstIds = new Set(first.map((form) => form.pageId));
	return [...first, ...listed.filter((form) => !firstIds.has(form.pageId))];
}

/** The page IDs of the forms this poll did not reach, in reading order, to read first next time. */
export function leftOverAfter<Form extends { pageId: string }>(ordered: readonly Form[], reached: ReadonlySet<string>): string[] {
	return ordered.filter((form) => !reached.has(form.pageId)).map((form) => form.pageId);
}
