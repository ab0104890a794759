import type { InquiryEvent } from '../events/inquiryEvent';

/** The oldest emissions across forms, at most `maxItems`, merged so each form emits a prefix of its own list. */
export interface FormEvent<Form> {
	form: Form;
	event: InquiryEvent;
}

export function mergedEmissions<Form>(
	perForm: ReadonlyArray<{ form: Form; toEmit: readonly InquiryEvent[] }>,
	maxItems: number,
): Array<FormEvent<Form>> {
	const next = perForm.map(() => 0);
	const merged: Array<FormEvent<Form>> = [];
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

/** Dated before undated, older first, then by key; a tie stays with the form listed first. */
function comesBefore(a: InquiryEvent, b: InquiryEvent): boolean {
	if (a.time === undefined || b.time === undefined)
		return a.time !== undefined && b.time === undefined;
	if (a.time !== b.time) return a.time < b.time;
	return a.key < b.key;
}
