import type { FormTarget } from '../../shared/appBuilderApi';
import { fetchFormInquiries } from '../inquiries/fetchInquiries';
import type { WebServiceCallOptions, WebServiceContext } from '../transport/request';
import type { EventMode, RecordsToKeep } from './cursor';
import { InquiryListBuilder, listFromRecords, type InquiryList } from './inquiryList';

/**
 * All inquiries of one form, for the trigger: read as the answer arrives, so
 * only the records `keep` names are kept, and parsed only when asked
 * for (see nodes/shared/jsonStream/README.md).
 */
export async function fetchInquiryList(
	this: WebServiceContext,
	target: FormTarget,
	reading: { mode: EventMode; keep: RecordsToKeep },
	options: WebServiceCallOptions = {},
): Promise<InquiryList> {
	return await fetchFormInquiries(
		this,
		target,
		(redact) => new InquiryListBuilder(reading.mode, reading.keep, redact),
		(records) => listFromRecords(records, reading.mode),
		options,
	);
}
