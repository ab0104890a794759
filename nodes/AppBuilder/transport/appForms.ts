import type { IDataObject } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import { FORM_PAGE_ID_PATTERN } from '../../shared/appBuilderApi';
import { callWebService, type WebServiceCallOptions, type WebServiceContext } from './request';

/** A form feature page of an app, as AppFeatures.php lists it. */
export interface AppForm {
	pageId: string;
	/** The page's name, or its ID when the API gives none. */
	pageName: string;
}

/** Longest page name kept; longer ones are cut (they go into every item of the form). */
const MAX_PAGE_NAME_LENGTH = 200;

/**
 * The app's form pages (AppFeatures.php, method getAppFeatures), in the
 * API's order, each once. Pages that are not forms (a home page, a
 * gallery) have no inquiries and are left out.
 */
export async function fetchAppForms(
	context: WebServiceContext,
	appId: string,
	options: WebServiceCallOptions = {},
): Promise<AppForm[]> {
	const body = await callWebService(context, 'getAppFeatures', { appId }, options);
	return formsIn(context, body, options.itemIndex);
}

function formsIn(context: WebServiceContext, body: IDataObject, itemIndex?: number): AppForm[] {
	const data = body.data;
	// As with inquiries, an app without pages may come back with no list at all.
	if (data === undefined || data === null || data === '') return [];
	if (!Array.isArray(data)) {
		throw new NodeApiError(
			context.getNode(),
			{ dataType: typeof data },
			{
				message: "The App Builder API answered without a list of the app's pages",
				description:
					'The answer\'s "data" field is not a list. Check that App ID is right; if it is, the API may have changed.',
				itemIndex,
			},
		);
	}
	const isForm = new RegExp(FORM_PAGE_ID_PATTERN);
	const forms = new Map<string, AppForm>();
	for (const page of data as unknown[]) {
		if (typeof page !== 'object' || page === null) continue;
		const { pageId, pageName } = page as IDataObject;
		if (typeof pageId !== 'string' || !isForm.test(pageId) || forms.has(pageId)) continue;
		const name =
			typeof pageName === 'string' && pageName.trim() !== ''
				? pageName.trim().slice(0, MAX_PAGE_NAME_LENGTH)
				: pageId;
		forms.set(pageId, { pageId, pageName: name });
	}
	return [...forms.values()];
}
