import type { InquiryEvent } from '../events/inquiryEvent';
import { byTimeThenKey } from '../events/latestListings';

/** The oldest emissions across forms, at most `maxItems`, merged so each form emits a prefix of its own list. */
export function mergedEmissions<Form>(
	perForm: ReadonlyArray<{ form: Form; toEmit: readonly InquiryEvent[] }>,
	maxItems: number,
): Array<{ form: Form; event: InquiryEvent }> {
	const next = perForm.map(() => 0);
	const merged: Array<{ form: Form; event: InquiryEvent }> = [];
	while (merged.length < maxItems) {
		let pick = -1;
		for (let index = 0; index < perForm.length; index++) {
			const candidate = perForm[index].toEmit[next[index]];
			if (candidate === undefined) continue;
			if (pick === -1 || comesBefore(candidate, perForm[pick].toEmit[next[pick]])) pick = index;
		}
		if (pick === -1) break;
		merged.push({ form: perForm[pick].form, event: perForm[pick].toEmit[next[pick]] });
		next[pick]++;
	}
	return merged;
}

/** Dated before undated, then the cursor's order (byTimeThenKey); a tie stays with the form listed first. */
function comesBefore(a: InquiryEvent, b: InquiryEvent): boolean {
	if (a.time === undefined || b.time === undefined)
		return a.time !== undefined && b.time === undefined;
	return byTimeThenKey({ key: a.key, time: a.time }, { key: b.key, time: b.time }) < 0;
}
