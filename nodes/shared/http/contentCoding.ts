// Compressed answers. Every web-service call asks for the codings n8n's HTTP client decodes as the
// answer streams in (axios, whose `decompress` is on in every n8n this package supports), so what
// arrives at the readers, and what the answer bounds count, is the decoded JSON: a small compressed
// body that inflates past a bound stops at the bound. Not `compress`, which axios offers by default
// but reads as gzip, so an answer in it could not be read.

export const ACCEPT_ENCODING = 'gzip, deflate, br';

/**
 * The codes Node's zlib gives a failed inflate (Z_DATA_ERROR, Z_BUF_ERROR, ...) and a failed brotli
 * decode (ERR__ERROR_FORMAT_...).
 */
const DECODING_ERROR_PREFIXES = ['Z_', 'ERR__ERROR_'];

/**
 * Whether `error` (or one of its causes) is the HTTP client failing to
 * decode a compressed answer: the answer said it was compressed and its data
 * was not.
 */
export function isDecodingFailure(error: unknown): boolean {
	let current: unknown = error;
	for (let depth = 0; depth < 5 && typeof current === 'object' && current !== null; depth++) {
		const code = (current as { code?: unknown }).code;
		if (
			typeof code === 'string' &&
			DECODING_ERROR_PREFIXES.some((prefix) => code.startsWith(prefix))
		)
			return true;
		current = (current as { cause?: unknown }).cause;
	}
	return false;
}
