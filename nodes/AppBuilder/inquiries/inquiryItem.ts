import type { IDataObject } from 'n8n-workflow';

import { flattenInquiry } from './flatten';
import { toEpochMillis, toIsoString } from './timestamps';
import { isUnreadableInquiry, type UnreadableInquiry } from './unreadableInquiry';

/**
 * The item's JSON for one inquiry: flattened (Simplify) or as the API sent
 * it. An inquiry whose text is not JSON has no form fields to flatten: it
 * becomes its text and the warning, with the id and time when they could be
 * read (see unreadableInquiry.ts).
 */
export function inquiryItem(record: unknown, simplify: boolean): IDataObject {
	if (isUnreadableInquiry(record))
		return simplify ? simplifiedUnreadable(record) : ({ ...record } as IDataObject);
	return simplify ? flattenInquiry(record) : (record as IDataObject);
}

function simplifiedUnreadable(record: UnreadableInquiry): IDataObject {
	const id = record._id;
	return {
		inquiryId: typeof id === 'string' || typeof id === 'number' ? id : null,
		submittedAt: toIsoString(toEpochMillis(record.addedon)) ?? null,
		rawRecord: record.rawRecord,
		formWarnings: record.formWarnings,
	};
}
