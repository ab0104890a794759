import { collectAnswer, collectStart, MAX_ERROR_BODY_BYTES } from '../../shared/http/answerReading';
import { cutShortAnswer, interpretResponse, type WebServiceOutcome } from './interpretResponse';
import type { StreamReading } from './readInquiryStream';

/** An answer whose status and headers have arrived, and whose body is read as it comes. */
export interface StreamedResponse {
	statusCode: number;
	headers?: Record<string, unknown>;
	chunks: AsyncIterable<Buffer>;
}

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
