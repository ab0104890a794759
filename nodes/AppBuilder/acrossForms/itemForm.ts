import type { IDataObject } from 'n8n-workflow';

import type { AppForm } from '../transport/appForms';

/** An item read across forms says which form it came from (pageId, formName), even when its record does not. */
export function withItsForm(item: IDataObject, form: AppForm): IDataObject {
	const told = { ...item };
	if (isBlank(told.pageId)) told.pageId = form.pageId;
	if (isBlank(told.formName)) told.formName = form.pageName;
	return told;
}

/** A form as errors and logs name it: "Contact Us" (formbuilder_…), or its page ID alone. */
export function formLabel(form: AppForm): string {
	return form.pageName === form.pageId ? form.pageId : `"${form.pageName}" (${form.pageId})`;
}

function isBlank(value: unknown): boolean {
	return value === undefined || value === null || value === '';
}
