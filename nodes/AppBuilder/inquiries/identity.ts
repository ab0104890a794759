import type { RawInquiry } from './inquiry.types';

/**
 * The identity of an inquiry for "have we emitted it?": its _id, else its
 * requestId, else a hash of what was submitted and when. Prefixes keep the
 * three kinds from ever colliding with each other.
 */
export function inquiryKey(record: unknown): string {
	const raw = (typeof record === 'object' && record !== null ? record : {}) as RawInquiry;
	const id = idText(raw._id);
	if (id) return id;
	const requestId = idText(raw.requestId);
	if (requestId) return `r:${requestId}`;
	return `h:${fnv1a64(stableText([raw.formData, raw.formbuilderData, raw.addedon]))}`;
}

function idText(value: unknown): string | undefined {
	if (typeof value === 'string' && value.trim() !== '') return value.trim();
	if (typeof value === 'number' && Number.isFinite(value)) return String(value);
	return undefined;
}

function stableText(value: unknown): string {
	try {
		return JSON.stringify(value) ?? '';
	} catch {
		return String(value);
	}
}

/** FNV-1a, 64 bits, computed as two 32-bit halves so it needs no BigInt. */
function fnv1a64(text: string): string {
	let high = 0xcbf29ce4;
	let low = 0x84222325;
	for (let index = 0; index < text.length; index++) {
		low = (low ^ text.charCodeAt(index)) >>> 0;
		// Multiply by the 64-bit FNV prime 0x100000001b3 = 2^40 + 0x1b3.
		const lowTimesPrime = low * 0x1b3;
		const carry = Math.floor(lowTimesPrime / 0x100000000);
		const newLow = lowTimesPrime >>> 0;
		high = (high * 0x1b3 + (low << 8) + carry) >>> 0;
		low = newLow;
	}
	return high.toString(16).padStart(8, '0') + low.toString(16).padStart(8, '0');
}
