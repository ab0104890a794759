import type { IDataObject, INode } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import type { FormTarget } from '../../shared/appBuilderApi';
import type { ListAnswerReader } from '../../shared/http/streamReading';
import { callWebService, type WebServiceCallOptions, type WebServiceContext } from './request';

/**
 * One FormBuilderApi call (the inquiries of one form) whose answer the
 * caller's reader reads as it arrives into its list (see
 * inquiries/readInquiryStream.ts); an answer it could not take is parsed
 * whole and its records handed to the reader's `fromRecords` instead.
 */
export async function fetchFormInquiries<List>(
	context: WebServiceContext,
	target: FormTarget,
	reader: ListAnswerReader<List>,
	options: WebServiceCallOptions = {},
): Promise<List> {
	let streamed: List | undefined;
	const body = await callWebService(
		context,
		'formBuilderInquiries',
		{ ...target },
		{
			...options,
			readStream: async (chunks, redact) => {
				const read = await reader.read(chunks, redact);
				// Only the attempt that succeeds counts: an earlier one may have read an error answer.
				streamed = read.kind === 'read' ? read.list : undefined;
				return read;
			},
		},
	);
	if (streamed !== undefined && body.data === streamed) return streamed;
	return reader.fromRecords(inquiriesIn(context.getNode(), body, options.itemIndex));
}

function inquiriesIn(node: INode, body: IDataObject, itemIndex?: number): unknown[] {
	const data = body.data;
	// Some services send null or leave data out when a form has no inquiries yet.
	if (data === undefined || data === null || data === '') return [];
	if (Array.isArray(data)) return data;
	throw new NodeApiError(
		node,
		{ dataType: typeof data },
		{
			message: 'The App Builder API answered without a list of inquiries',
			description:
				'The answer\'s "data" field is not a list. Check that App ID and the form are right; if they are, the API may have changed.',
			itemIndex,
		},
	);
}
