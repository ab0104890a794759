/** Forms of an app read at once: by a poll, Fetch Test Event and Get Many over every form. */
export const FORM_CONCURRENCY = 4;
/** Most forms of an app read across forms: the trigger watches the last this many listed, Get Many refuses more. */
export const MAX_FORMS_READ = 1000;

/** The forms read of an app's list: the last MAX_FORMS_READ, the newest where the app lists them as added. */
export function formsRead<Form>(listed: readonly Form[]): Form[] {
	return listed.slice(-MAX_FORMS_READ);
}

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
