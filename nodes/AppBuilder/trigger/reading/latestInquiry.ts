import type { IPollFunctions } from 'n8n-workflow';

import type { FormTarget } from '../../../shared/appBuilderApi';
import { AnswerLimitExceeded } from '../../../shared/http/answerLimits';
import type { ValueRedactor } from '../../../shared/text/redact';
import {
	inquiryAnswerReader,
	MAX_RECORDS_PER_ANSWER,
	type RecordCollector,
} from '../../inquiries/readInquiryStream';
import { readRecord } from '../../inquiries/unreadableInquiry';
import { fetchFormInquiries } from '../../transport/formInquiries';
import type { WebServiceCallOptions } from '../../transport/request';
import { inquiryEvent, type EventMode } from '../events/inquiryEvent';
import { replacesListing } from '../events/latestListings';

/** Fetch Test Event's latest inquiry of a form (undefined: none), holding one record as the answer streams. */
export async function latestInquiry(
	context: IPollFunctions,
	target: FormTarget,
	mode: EventMode,
	fetchOptions: WebServiceCallOptions,
): Promise<Latest> {
	const reader = inquiryAnswerReader(
		(redact) => new LatestRecord(mode, redact),
		(records) => latestOf(records, mode),
	);
	return await fetchFormInquiries(context, target, reader, fetchOptions);
}

export type Latest = { record: unknown; time: number | undefined } | undefined;

/** The latest record so far, as its bytes copied out of the answer; parsed at the end. */
class LatestRecord implements RecordCollector<Latest> {
	private latest:
		| { bytes: Buffer; summary: Record<string, unknown> | undefined; time: number | undefined }
		| undefined;
	private offered = 0;

	constructor(
		private readonly mode: EventMode,
		private readonly redact: ValueRedactor,
	) {}

	get keptAll(): boolean {
		return this.offered <= 1;
	}

	add(summary: Record<string, unknown> | undefined, bytes: () => Buffer): void {
		if (this.offered === MAX_RECORDS_PER_ANSWER)
			throw new AnswerLimitExceeded('records', MAX_RECORDS_PER_ANSWER);
		this.offered++;
		// The scan read the record's times into its summary: the bytes are copied only for a new latest.
		const time = summary === undefined ? undefined : inquiryEvent(summary, this.mode).time;
		if (this.latest === undefined || replacesListing(this.latest.time, time))
			this.latest = { bytes: Buffer.from(bytes()), summary, time };
	}

	build(): Latest {
		return (
			this.latest && {
				record: readRecord(this.latest.bytes, this.latest.summary, this.redact),
				time: this.latest.time,
			}
		);
	}
}

/** The latest of an answer parsed whole. */
function latestOf(records: unknown[], mode: EventMode): Latest {
	let latest: Latest;
	for (const record of records) {
		const time = inquiryEvent(record, mode).time;
		if (latest === undefined || replacesListing(latest.time, time)) latest = { record, time };
	}
	return latest;
}
