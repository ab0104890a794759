import type { IDataObject } from 'n8n-workflow';

import { collectAnswer, collectStart, MAX_ERROR_BODY_BYTES } from '../../shared/http/answerReading';
import { cutShortAnswer, interpretResponse, type WebServiceOutcome } from './interpretResponse';

/** An answer whose status and headers have arrived, and whose body is read as it comes. */
export interface StreamedResponse {
	statusCode: number;
	headers?: Record<string, unknown>;
	chunks: AsyncIterable<Buffer>;
}

/** What a stream reader made of a successful answer (see readStream in request.ts). */
export type StreamReading<List = unknown> =
	/** Read: the answer's fields, its list among them when it had one (also given as `list`). */
	| { kind: 'read'; body: IDataObject; list?: List }
	/** Not read as it came, but every byte is here: read it whole. */
	| { kind: 'whole'; bytes: Buffer }
	/** The answer stopped in the middle, after parts of it were already let go. */
	| { kind: 'cut-short' }
	/** An answer the reader does not take, after parts of it were already let go: ask for it again and read it whole. */
	| { kind: 'ask-again' };

export type StreamReader = (chunks: AsyncIterable<Buffer>) => Promise<StreamReading>;

/**
 * What one request's answer says. An error answer is read only as far as
 * its first 64 KB. A successful one is read whole, or, given `readStream`,
 * as it arrives; an answer the stream reader could not take is read whole
 * too, or asked for again when the reader had already let part of it go.
 */
export async function streamedOutcome(
	send: () => Promise<StreamedResponse>,
	readStream?: StreamReader,
): Promise<WebServiceOutcome> {
	const response = await send();
	const isSuccess = response.statusCode >= 200 && response.statusCode < 300;
	if (!isSuccess) {
		return interpretResponse({ ...response, body: await collectStart(response.chunks, MAX_ERROR_BODY_BYTES) }, Date.now());
	}
	if (!readStream) return interpretResponse({ ...response, body: await collectAnswer(response.chunks) }, Date.now());
	const reading = await readStream(response.chunks);
	switch (reading.kind) {
		case 'read':
			return interpretResponse({ ...response, body: reading.body }, Date.now());
		case 'whole':
			return interpretResponse({ ...response, body: reading.bytes }, Date.now());
		case 'cut-short':
			return cutShortAnswer(response.statusCode);
		case 'ask-again':
			return await streamedOutcome(send);
	}
}
