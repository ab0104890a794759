import type { FormTarget } from '../../shared/appBuilderApi';
import { fetchFormInquiries } from '../inquiries/fetchInquiries';
import type { WebServiceCallOptions, WebServiceContext } from '../transport/request';
import type { CursorEvent, EventMode } from './cursor';
import { InquiryListBuilder, listFromRecords, type InquiryList } from './inquiryList';

/**
 * All inquiries of one form, for the trigger: read as the answer arrives, so
 * only the records `mayEmit` accepts are kept, and parsed only when asked
 * for (see nodes/shared/jsonStream/README.md).
 */
export async function fetchInquiryList(
	this: WebServiceContext,
	target: FormTarget,
	reading: { mode: EventMode; mayEmit: (event: CursorEvent) => boolean },
	options: WebServiceCallOptions = {},
): Promise<InquiryList> {
	return await fetchFormInquiries(
		this,
		target,
		() => new InquiryListBuilder(reading.mode, reading.mayEmit),
		(records) => listFromRecords(records, reading.mode),
		options,
	);
}
