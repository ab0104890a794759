import { AnswerLimitExceeded } from './answerLimits';

/** Where one answer must end: a moment (epoch ms) and a number of bytes. */
export interface AnswerBounds {
	deadlineAt: number;
	maxBytes: number;
}

/**
 * An error page is read only this far: enough to find the API's message, and what
 * any expression reads is short.
 */
export const MAX_ERROR_BODY_BYTES = 64 * 1024;

/**
 * Passes the answer's chunks on while it stays within its bounds, and ends
 * the read with AnswerLimitExceeded as soon as it does not. A server that
 * sends one byte every few seconds keeps the connection's idle timeout from
 * firing; the deadline is checked on every chunk, so it ends here.
 */
export async function* boundedChunks(
	chunks: AsyncIterable<Buffer | string>,
	bounds: AnswerBounds,
	now: () => number = Date.now,
): AsyncGenerator<Buffer> {
	let bytes = 0;
	for await (const piece of chunks) {
		const chunk = typeof piece === 'string' ? Buffer.from(piece, 'utf8') : piece;
		bytes += chunk.length;
		if (bytes > bounds.maxBytes) throw new AnswerLimitExceeded('bytes', bounds.maxBytes);
		if (now() > bounds.deadlineAt) throw new AnswerLimitExceeded('time', bounds.deadlineAt);
		yield chunk;
	}
}

/** The whole answer, within its bounds. */
export async function collectAnswer(chunks: AsyncIterable<Buffer>): Promise<Buffer> {
	const parts: Buffer[] = [];
	for await (const chunk of chunks) parts.push(chunk);
	return Buffer.concat(parts);
}

/**
 * The first `maxBytes` of an answer; the rest is not read (leaving the loop
 * closes the stream). For error pages, where only the start carries meaning.
 */
export async function collectStart(
	chunks: AsyncIterable<Buffer | string>,
	maxBytes: number,
): Promise<Buffer> {
	const parts: Buffer[] = [];
	let bytes = 0;
	for await (const piece of chunks) {
		const chunk = typeof piece === 'string' ? Buffer.from(piece, 'utf8') : piece;
		parts.push(chunk.subarray(0, maxBytes - bytes));
		bytes += Math.min(chunk.length, maxBytes - bytes);
		if (bytes >= maxBytes) break;
	}
	return Buffer.concat(parts);
}
