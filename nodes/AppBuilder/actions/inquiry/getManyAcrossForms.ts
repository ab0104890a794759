import type { ItemCall } from '../resource';
import type { IExecuteFunctions, INode, INodeExecutionData } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { withoutFinalDots } from '../../../shared/text/sentence';
import { formLabel, withItsForm } from '../../acrossForms/itemForm';
import { FORM_CONCURRENCY, MAX_FORMS_READ, readForms } from '../../acrossForms/readForms';
import { inquiryItem } from '../../inquiries/inquiryItem';
import { fetchAppForms, type AppForm } from '../../transport/appForms';
import { fetchFormInquiries } from '../../transport/formInquiries';
import { errorItem } from '../errorItem';
import { FormsSelection } from './formsSelection';
import type { InquirySelection } from './inquirySelector';

/** Forms named at most in one error; the rest are counted. */
const MAX_FORMS_NAMED = 10;
/** Times the forms are read again when reads that broke off left the selection incomplete. */
const MAX_READS_AGAIN = 2;

/**
 * Get Many over every form the app lists (AppFeatures.php, as the Form
 * picker shows them): each form read apart, every record offered as it
 * arrives to one selection the forms share (FormsSelection), so the call
 * holds at most what the Limit returns, within the bounds of one call. Sort
 * and Limit apply across forms; ties keep the app's order of forms, then
 * each answer's.
 */
export async function readAcrossForms(
	context: IExecuteFunctions,
	appId: string,
	selection: InquirySelection,
	simplify: boolean,
	call: ItemCall,
): Promise<INodeExecutionData[]> {
	const { itemIndex } = call;
	const node = context.getNode();
	const forms = await fetchAppForms(context, appId, call);
	if (forms.length > MAX_FORMS_READ) {
		throw new NodeOperationError(
			node,
			`The App Builder API lists more than ${MAX_FORMS_READ.toLocaleString('en')} forms for this app`,
			{
				description:
					'Check that App ID is right. For such an app, read its forms one at a time: Read From: One Form in Get Many.',
				itemIndex,
			},
		);
	}
	if (forms.length === 0) {
		// An answer without a list reads as no forms: never passed off as "no inquiries".
		throw new NodeOperationError(node, `The App Builder API lists no forms for app ${appId}`, {
			itemIndex,
			description:
				"Check App ID (the app's ID in the App Builder back-end). If it is right, add a form page to the app, or try again: the list may have come back empty by mistake.",
		});
	}

	let toRead = forms.map((form, index) => ({ form, index }));
	const failures: Array<{ form: AppForm; index: number; error: unknown }> = [];
	let chosen: FormsSelection<AppForm>;
	for (let readsAgain = 0; ; readsAgain++) {
		const shared = new FormsSelection<AppForm>(selection, node, itemIndex);
		chosen = shared;
		const reads = await readForms(
			toRead,
			async ({ form, index }) => {
				const reading = shared.formReading(form, index);
				let read = false;
				try {
					await fetchFormInquiries(context, { appId, pageId: form.pageId }, reading.reader, call);
					read = true;
				} finally {
					if (!read) reading.failed();
				}
			},
			{ concurrency: FORM_CONCURRENCY },
		);
		// Past the call's bounds no form's list is complete: the whole call
		// fails, with what to ask for instead.
		if (shared.stopped) throw shared.stopped;
		for (const read of reads)
			if (read.kind === 'failed') failures.push({ ...read.form, error: read.error });
		if (shared.exact || (failures.length > 0 && !context.continueOnFail())) break;
		// A read that broke off had pushed other forms' records out of the Limit; only
		// reading those forms again finds them.
		if (readsAgain === MAX_READS_AGAIN) throw readsKeptBreakingOff(node, itemIndex);
		toRead = reads.flatMap((read) => (read.kind === 'read' ? [read.form] : []));
	}

	const items = chosen.result().map(({ record, form }) => ({
		json: withItsForm(inquiryItem(record, simplify), form),
		pairedItem: { item: itemIndex },
	}));
	const failed = failures.sort((a, b) => a.index - b.index);
	if (failed.length === 0) return items;
	const formErrors = failed.map(({ form, error }) => formError(node, form, error, itemIndex));
	if (context.continueOnFail())
		return [...items, ...formErrors.map((error) => errorItem(node, error, itemIndex))];
	const succeeded = forms.filter((form) => !failed.some((failure) => failure.form === form));
	const read =
		succeeded.length === 0 ? 'No form was read.' : `Read: ${named(succeeded, formLabel)}.`;
	const notRead =
		failed.length === 1
			? (formErrors[0].description ?? '')
			: `Not read: ${named(failed, ({ form, error }) => `${formLabel(form)} (${messageOf(error)})`)}.`;
	throw new NodeOperationError(
		node,
		failed.length === 1
			? formErrors[0].message
			: `${failed.length} of ${forms.length} forms could not be read`,
		{
			itemIndex,
			description: `${read} ${notRead} Nothing is returned, so no partial list passes for the whole app. To get the inquiries of the forms that were read and an error item for each form that failed, set the node's Settings > On Error to Continue (using error output); or try again later.`,
		},
	);
}

function readsKeptBreakingOff(node: INode, itemIndex: number): NodeOperationError {
	return new NodeOperationError(
		node,
		"Reads of the app's forms kept breaking off, so the Limit could not be applied across forms",
		{
			itemIndex,
			description: `Each time the forms were read (${MAX_READS_AGAIN + 1} times), a form's answer broke off, or changed when it was asked for again, after its inquiries had taken the place of other forms' inquiries in the Limit. Try again later, or set Read From to One Form and read the forms one at a time.`,
		},
	);
}

/** A form's failure, named by its form; the fix of the error beneath is kept. */
function formError(
	node: INode,
	form: AppForm,
	error: unknown,
	itemIndex: number,
): NodeOperationError {
	const description = (error as { description?: unknown }).description;
	return new NodeOperationError(
		node,
		`Form ${formLabel(form)} could not be read: ${messageOf(error)}`,
		{
			itemIndex,
			description: typeof description === 'string' ? description : undefined,
		},
	);
}

function named<T>(entries: readonly T[], label: (entry: T) => string): string {
	const shown = entries.slice(0, MAX_FORMS_NAMED).map(label);
	const more = entries.length - shown.length;
	return more > 0 ? `${shown.join(', ')} and ${more} more` : shown.join(', ');
}

function messageOf(error: unknown): string {
	return withoutFinalDots(error instanceof Error ? error.message : String(error));
}
