import type { IDataObject } from 'n8n-workflow';

import { collectAnswer, collectStart, MAX_ERROR_BODY_BYTES } from '../../shared/http/answerReading';
import type { StreamReader } from '../../shared/http/streamReading';
import type { ValueRedactor } from '../../shared/text/redact';
import { cutShortAnswer, interpretResponse, type WebServiceOutcome } from './interpretResponse';

/** An answer whose status and headers have arrived, and whose body is read as it comes. */
export interface StreamedResponse {
	statusCode: number;
	headers?: Record<string, unknown>;
	chunks: AsyncIterable<Buffer>;
}

/** How a request's answer will be read: as it arrives (given a stream reader), or whole. */
export type AnswerReading = 'as-it-arrives' | 'whole';

/**
 * What one request's answer says. An error answer is read only as far as
 * its first 64 KB. A successful one is read whole, or, given `readStream`,
 * as it arrives; an answer the stream reader could not take is read whole
 * too, or asked for again (`send('whole')`, which bounds it as an answer
 * read whole) when the reader had already let part of it go.
 * A success's body comes back with the secrets `redact` knows taken out,
 * on every path (error texts are redacted where the error is made).
 */
export async function streamedOutcome(
	send: (reading: AnswerReading) => Promise<StreamedResponse>,
	redact: ValueRedactor,
	readStream?: StreamReader,
): Promise<WebServiceOutcome> {
	const response = await send(readStream ? 'as-it-arrives' : 'whole');
	const isSuccess = response.statusCode >= 200 && response.statusCode < 300;
	if (!isSuccess) {
		return interpretResponse(
			{ ...response, body: await collectStart(response.chunks, MAX_ERROR_BODY_BYTES) },
			Date.now(),
		);
	}
	if (!readStream)
		return redacted(
			interpretResponse({ ...response, body: await collectAnswer(response.chunks) }, Date.now()),
			redact,
		);
	const reading = await readStream(response.chunks, redact);
	switch (reading.kind) {
		case 'read': {
			const outcome = interpretResponse({ ...response, body: reading.body }, Date.now());
			return outcome.ok
				? { ok: true, body: withRedactedFields(outcome.body, reading.list, redact) }
				: outcome;
		}
		case 'whole':
			return redacted(interpretResponse({ ...response, body: reading.bytes }, Date.now()), redact);
		case 'cut-short':
			return cutShortAnswer(response.statusCode);
		case 'ask-again':
			return await streamedOutcome(send, redact);
	}
}

function redacted(outcome: WebServiceOutcome, redact: ValueRedactor): WebServiceOutcome {
	return outcome.ok ? { ok: true, body: redact(outcome.body) } : outcome;
}

/**
 * The answer's fields redacted, and its list as the reader made it
 * (the reader redacted its records).
 */
function withRedactedFields(body: IDataObject, list: unknown, redact: ValueRedactor): IDataObject {
	const entries = Object.entries(body);
	const isList = ([, value]: [string, unknown]) => list !== undefined && value === list;
	const fields = redact(Object.fromEntries(entries.filter((entry) => !isList(entry))));
	return Object.fromEntries([...Object.entries(fields), ...entries.filter(isList)]) as IDataObject;
}
