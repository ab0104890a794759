import type { IExecuteFunctions, INode, INodeExecutionData } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { ValueRedactor } from '../../../shared/text/redact';
import { withoutFinalDots } from '../../../shared/text/sentence';
import { formLabel, withItsForm } from '../../acrossForms/itemForm';
import { FORM_CONCURRENCY, MAX_FORMS_READ, readForms } from '../../acrossForms/readForms';
import { inquiryItem } from '../../inquiries/inquiryItem';
import { inquiryAnswerReader, MAX_RECORDS_PER_ANSWER } from '../../inquiries/readInquiryStream';
import { fetchAppForms, type AppForm } from '../../transport/appForms';
import { fetchFormInquiries } from '../../transport/formInquiries';
import { errorItem } from '../errorItem';
import {
	CallHoldings,
	MAX_RETURNED_INQUIRIES,
	SelectedInquiries,
	selectFromRecords,
} from './getManyReader';
import { InquirySelector, type InquirySelection } from './inquirySelector';

/** Forms named at most in one error; the rest are counted. */
const MAX_FORMS_NAMED = 10;

interface FromForm {
	record: unknown;
	form: AppForm;
}

/**
 * Get Many over every form the app lists (AppFeatures.php, as the Form
 * picker shows them): each form read apart, its best records merged as it
 * ends, so the call holds what the Limit returns plus the forms in flight,
 * within the bounds of one call (CallHoldings). Sort and Limit apply across
 * forms; ties keep the app's order of forms, then each answer's.
 */
export async function readAcrossForms(
	this: IExecuteFunctions,
	appId: string,
	selection: InquirySelection,
	simplify: boolean,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const node = this.getNode();
	const forms = await fetchAppForms(this, appId, { itemIndex });
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
	const holdings = new CallHoldings(true);
	const merged = new InquirySelector<FromForm>(selection, (entry) => entry.record);
	const mergedHolder = {};

	const reads = await readForms(
		forms.map((form, index) => ({ form, index })),
		async ({ form, index }) => {
			let current: SelectedInquiries | undefined;
			const collector = (redact: ValueRedactor) => {
				// A new attempt at the answer (a retry, or the answer read whole) replaces the last one's holding.
				if (current) holdings.release(current);
				current = new SelectedInquiries(
					selection,
					redact,
					node,
					itemIndex,
					MAX_RECORDS_PER_ANSWER,
					holdings,
				);
				return current;
			};
			const reader = inquiryAnswerReader(collector, (all) =>
				selectFromRecords(
					all,
					collector((value) => value),
				),
			);
			try {
				await fetchFormInquiries(this, { appId, pageId: form.pageId }, reader, { itemIndex });
			} finally {
				if (current) holdings.release(current);
			}
			const selected = (current as SelectedInquiries).weighed();
			selected.forEach(({ record, weight }, rank) =>
				merged.offer({ record, form }, weight, index * (MAX_RETURNED_INQUIRIES + 1) + rank),
			);
			holdings.hold(mergedHolder, merged.size, merged.keptWeight);
		},
		{ concurrency: FORM_CONCURRENCY },
	);
	// Past the call's bounds no form's list is complete: the whole call fails, with what to ask for instead.
	if (holdings.stopped) throw holdings.stopped;

	const items = merged.result().map(({ record, form }) => ({
		json: withItsForm(inquiryItem(record, simplify), form),
		pairedItem: { item: itemIndex },
	}));
	const failed = reads.flatMap((read) =>
		read.kind === 'failed' ? [{ form: read.form.form, error: read.error }] : [],
	);
	if (failed.length === 0) return items;
	const formErrors = failed.map(({ form, error }) => formError(node, form, error, itemIndex));
	if (this.continueOnFail())
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
