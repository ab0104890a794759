/* eslint-disable @n8n/community-nodes/no-restricted-imports -- n8n Cloud's limits are for nodes; this runs on Node itself (timers, process, built-in modules) */
import { brotliDecompressSync, gunzipSync } from 'node:zlib';

import { ACCEPT_ENCODING, isDecodingFailure } from '../../../../nodes/shared/http/contentCoding';

/** The error Node's own decoder throws on `bytes`. */
const thrownBy = (decode: () => unknown): unknown => {
	try {
		decode();
	} catch (error) {
		return error;
	}
	throw new Error('the bytes decoded');
};

describe('contentCoding', () => {
	const gzipHeaderThenJunk = Buffer.concat([
		Buffer.from([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 3]),
		Buffer.from('junk, not deflate data'),
	]);

	it('asks only for codings the HTTP client decodes, never compress', () => {
		expect(ACCEPT_ENCODING.split(', ')).toEqual(['gzip', 'deflate', 'br']);
	});

	it('knows a corrupt gzip and a corrupt brotli stream by the errors Node gives them, also as the cause of another error', () => {
		const gzipError = thrownBy(() => gunzipSync(gzipHeaderThenJunk));
		const brotliError = thrownBy(() => brotliDecompressSync(Buffer.from('junk junk junk junk')));
		expect(isDecodingFailure(gzipError)).toBe(true);
		expect(isDecodingFailure(brotliError)).toBe(true);
		expect(
			isDecodingFailure(new Error('Failed to decompress response', { cause: gzipError })),
		).toBe(true);
	});

	it('does not take a network failure or an error without a code for one', () => {
		expect(
			isDecodingFailure(Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' })),
		).toBe(false);
		expect(isDecodingFailure(new Error('Z_DATA_ERROR in the text only'))).toBe(false);
		expect(isDecodingFailure('Z_DATA_ERROR')).toBe(false);
		expect(isDecodingFailure(undefined)).toBe(false);
	});
});
