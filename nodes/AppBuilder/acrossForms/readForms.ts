/** Forms of an app read at once: by a poll, Fetch Test Event and Get Many over every form. */
export const FORM_CONCURRENCY = 4;

export type FormRead<Form, List> =
	| { form: Form; kind: 'read'; list: List }
	| { form: Form; kind: 'failed'; error: unknown }
	| { form: Form; kind: 'not-reached' };

/** Reads forms a few at a time, each apart: one form's failure ends only its own read; none starts past `startBefore`. */
export async function readForms<Form, List>(
	forms: readonly Form[],
	read: (form: Form) => Promise<List>,
	limits: { concurrency: number; startBefore?: number },
): Promise<Array<FormRead<Form, List>>> {
	const results: Array<FormRead<Form, List>> = forms.map((form) => ({ form, kind: 'not-reached' }));
	let next = 0;
	const worker = async (): Promise<void> => {
		for (;;) {
			// The first form is always read, so that a poll with a tiny budget still makes progress.
			if (next > 0 && limits.startBefore !== undefined && Date.now() > limits.startBefore) return;
			const index = next++;
			if (index >= forms.length) return;
			const form = forms[index];
			try {
				results[index] = { form, kind: 'read', list: await read(form) };
			} catch (error) {
				results[index] = { form, kind: 'failed', error };
			}
		}
	};
	await Promise.all(
		Array.from({ length: Math.max(1, Math.min(limits.concurrency, forms.length)) }, worker),
	);
	return results;
}
