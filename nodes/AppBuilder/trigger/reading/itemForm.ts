import type { IDataObject } from 'n8n-workflow';

import type { AppForm } from '../../transport/appForms';

/**
 * With every form of an app watched, each item says which form it came
 * from (pageId and formName), even when its record does not: the form the
 * trigger read it from, as the app lists it.
 */
export function withItsForm(item: IDataObject, form: AppForm): IDataObject {
	const told = { ...item };
	if (isBlank(told.pageId)) told.pageId = form.pageId;
	if (isBlank(told.formName)) told.formName = form.pageName;
	return told;
}

function isBlank(value: unknown): boolean {
	return value === undefined || value === null || value === '';
}
