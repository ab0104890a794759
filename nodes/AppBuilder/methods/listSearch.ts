import type { IDataObject, ILoadOptionsFunctions, INodeListSearchResult } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { FORM_PAGE_ID_PATTERN } from '../descriptions/appAndForm';
import { callWebService } from '../transport/request';

/**
 * Lists the app's form pages for the Form picker (AppFeatures.php). Only
 * form feature pages are offered: other pages have no inquiries.
 */
export async function searchFormPages(
	this: ILoadOptionsFunctions,
	filter?: string,
): Promise<INodeListSearchResult> {
	const appId = String(this.getCurrentNodeParameter('appId') ?? '').trim();
	if (appId === '') {
		throw new NodeOperationError(this.getNode(), 'Set App ID first', {
			description: 'The list of forms comes from your app, so the App ID field must be filled.',
		});
	}
	const body = await callWebService.call(this, 'getAppFeatures', { appId }, { retry: { maxAttempts: 2 } });
	const pages = Array.isArray(body.data) ? (body.data as IDataObject[]) : [];
	const isForm = new RegExp(FORM_PAGE_ID_PATTERN);
	const needle = (filter ?? '').toLowerCase();
	const results = pages
		.filter((page) => typeof page.pageId === 'string' && isForm.test(page.pageId))
		.map((page) => {
			const pageId = page.pageId as string;
			const pageName = typeof page.pageName === 'string' && page.pageName !== '' ? page.pageName : pageId;
			return { name: `${pageName} (${pageId})`, value: pageId };
		})
		.filter((entry) => needle === '' || entry.name.toLowerCase().includes(needle))
		.sort((a, b) => a.name.localeCompare(b.name));
	return { results };
}
