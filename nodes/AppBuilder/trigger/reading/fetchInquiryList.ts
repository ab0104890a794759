import type { FormTarget } from '../../../shared/appBuilderApi';
import { inquiryAnswerReader } from '../../inquiries/readInquiryStream';
import { fetchFormInquiries } from '../../transport/formInquiries';
import type { WebServiceCallOptions, WebServiceContext } from '../../transport/request';
import type { InquiryEvent, EventMode } from '../events/inquiryEvent';
import {
	InquiryListBuilder,
	listFromRecords,
	type InquiryList,
	type KeepRule,
	type RecordsToKeep,
} from '../events/inquiryList';

export interface ListReading {
	mode: EventMode;
	/** The records whose bytes are kept as the answer streams past. */
	keep: RecordsToKeep;
	/** What the poll will emit from these events (the cursor's plan): read again when too many were to be kept. */
	toEmit: (events: readonly InquiryEvent[]) => readonly InquiryEvent[];
}

/** A form's inquiries, keeping the records `keep` names; too many to hold, and the answer is read again. */
export async function fetchInquiryList(
	context: WebServiceContext,
	target: FormTarget,
	reading: ListReading,
	options: WebServiceCallOptions = {},
): Promise<InquiryList> {
	const list = await readList(context, target, reading.mode, reading.keep, options);
	if (list.complete) return list;
	const planned = reading.toEmit(list.events).map((event) => event.key);
	if (planned.length === 0) return list;
	// Read again, keeping only what this poll emits, in its order; one deleted meanwhile is not there (recordOf says undefined).
	const again = await readList(
		context,
		target,
		reading.mode,
		{ kind: 'planned', keys: planned },
		options,
	);
	return { events: list.events, complete: true, recordOf: (key) => again.recordOf(key) };
}

async function readList(
	context: WebServiceContext,
	target: FormTarget,
	mode: EventMode,
	keep: KeepRule,
	options: WebServiceCallOptions,
): Promise<InquiryList> {
	const reader = inquiryAnswerReader(
		(redact) => new InquiryListBuilder(mode, keep, redact),
		(records) => listFromRecords(records, mode),
	);
	return await fetchFormInquiries(context, target, reader, options);
}
