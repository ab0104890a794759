import type { ILoadOptionsFunctions, INodeListSearchResult } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { appIdField } from '../descriptions/appAndForm';
import { fetchAppForms } from '../transport/appForms';

/**
 * Lists the app's form pages for the Form picker (AppFeatures.php). Only
 * form feature pages are offered: other pages have no inquiries.
 */
export async function searchFormPages(
	this: ILoadOptionsFunctions,
	filter?: string,
): Promise<INodeListSearchResult> {
	const appId = String(this.getCurrentNodeParameter(appIdField.name) ?? '').trim();
	if (appId === '') {
		throw new NodeOperationError(this.getNode(), 'Set App ID first', {
			description: 'The list of forms comes from your app, so the App ID field must be filled.',
		});
	}
	const forms = await fetchAppForms(this, appId, { retry: { maxAttempts: 2 } });
	const needle = (filter ?? '').toLowerCase();
	const results = forms
		.map(({ pageId, pageName }) => ({
			name: pageName === pageId ? pageId : `${pageName} (${pageId})`,
			value: pageId,
		}))
		.filter((entry) => needle === '' || entry.name.toLowerCase().includes(needle))
		.sort((a, b) => a.name.localeCompare(b.name));
	return { results };
}
