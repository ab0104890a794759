import type { IDataObject, IPollFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { withItsForm } from '../acrossForms/itemForm';
import { FORM_CONCURRENCY, formsRead, readForms } from '../acrossForms/readForms';
import { inquiryItem } from '../inquiries/inquiryItem';
import { fetchAppForms, type AppForm } from '../transport/appForms';
import type { WebServiceCallOptions } from '../transport/request';
import type { InquiryEvent } from './events/inquiryEvent';
import { replacesListing } from './events/latestListings';
import { fetchInquiryList } from './reading/fetchInquiryList';
import type { TriggerSettings } from './triggerSettings';

/** "Fetch Test Event": the latest inquiry of the form or of every form, never touching the saved position. */
export async function testEvent(
	context: IPollFunctions,
	settings: TriggerSettings,
	fetchOptions: WebServiceCallOptions,
): Promise<IDataObject> {
	const { watch } = settings;
	const forms: AppForm[] =
		watch.kind === 'all'
			? formsRead(await fetchAppForms(context, settings.appId, fetchOptions))
			: [{ pageId: watch.pageId, pageName: watch.pageId }];
	// Each form's answer holds the bytes of its latest listing alone as it streams past.
	const reading = { mode: settings.mode, keep: { kind: 'latest' } as const, toEmit: () => [] };
	const reads = await readForms(
		forms,
		async ({ pageId }) =>
			await fetchInquiryList(context, { appId: settings.appId, pageId }, reading, fetchOptions),
		{ concurrency: FORM_CONCURRENCY },
	);
	let latest: { event: InquiryEvent; record: () => unknown; form: AppForm } | undefined;
	for (const read of reads) {
		// With one form its error is the answer; with many, a form that fails is passed over unless all do.
		if (
			read.kind === 'failed' &&
			(watch.kind === 'one' || reads.every((other) => other.kind === 'failed'))
		)
			throw read.error;
		if (read.kind !== 'read') continue;
		const { list, form } = read;
		for (const event of list.events)
			if (latest === undefined || replacesListing(latest.event.time, event.time))
				latest = { event, record: () => list.recordOf(event.key), form };
	}
	if (latest === undefined) {
		const message =
			watch.kind === 'all'
				? 'No form of this app has inquiries yet'
				: 'This form has no inquiries yet';
		throw new NodeOperationError(context.getNode(), message, {
			description:
				'Submit the form once in your app (or pick another form), then fetch a test event again.',
		});
	}
	const item = inquiryItem(latest.record(), settings.simplify);
	return watch.kind === 'all' ? withItsForm(item, latest.form) : item;
}
