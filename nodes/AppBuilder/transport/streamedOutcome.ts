import type { IHttpRequestOptions } from 'n8n-workflow';

import { cutShortAnswer, interpretResponse, type WebServiceOutcome } from './interpretResponse';
import type { StreamReading } from './readInquiryStream';

export interface HttpResponse {
	statusCode: number;
	headers?: Record<string, unknown>;
	body: unknown;
}

/**
 * One request whose successful answer is read as it arrives. An error answer
 * is small and read whole; an answer the stream reader could not take is
 * read whole too, or asked for again when the reader had already let part of
 * it go.
 */
export async function streamedOutcome(
	send: (request: IHttpRequestOptions) => Promise<HttpResponse>,
	request: IHttpRequestOptions,
	readStream: (chunks: AsyncIterable<Buffer | string>) => Promise<StreamReading>,
): Promise<WebServiceOutcome> {
	const response = await send({ ...request, encoding: 'stream' });
	const chunks = response.body as AsyncIterable<Buffer | string>;
	if (response.statusCode < 200 || response.statusCode >= 300) {
		return interpretResponse({ ...response, body: await collect(chunks) }, Date.now());
	}
	const reading = await readStream(chunks);
	switch (reading.kind) {
		case 'read':
			return interpretResponse({ ...response, body: reading.body }, Date.now());
		case 'whole':
			return interpretResponse({ ...response, body: reading.bytes }, Date.now());
		case 'cut-short':
			return cutShortAnswer(response.statusCode);
		case 'ask-again':
			return interpretResponse(await send(request), Date.now());
	}
}

async function collect(chunks: AsyncIterable<Buffer | string>): Promise<Buffer> {
	const parts: Buffer[] = [];
	for await (const chunk of chunks) parts.push(typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk);
	return Buffer.concat(parts);
}
