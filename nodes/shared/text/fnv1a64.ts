// A short fingerprint of a text: the same on every machine and release (stored keys depend on it).

/** FNV-1a, 64 bits over UTF-16 code units, as 16 hex digits. */
export function fnv1a64(text: string): string {
	const [high, low] = fnv1a64Halves(text);
	return high.toString(16).padStart(8, '0') + low.toString(16).padStart(8, '0');
}

/**
 * FNV-1a, 64 bits over UTF-16 code units, as two unsigned 32-bit halves
 * (high, low) so it needs no BigInt.
 */
export function fnv1a64Halves(text: string): [number, number] {
	let high = 0xcbf29ce4;
	let low = 0x84222325;
	for (let index = 0; index < text.length; index++) {
		low = (low ^ text.charCodeAt(index)) >>> 0;
		// Multiply by the 64-bit FNV prime 2^40 + 0x1b3, keeping the low 64 bits.
		const lowTimesPrime = low * 0x1b3;
		const carry = Math.floor(lowTimesPrime / 0x100000000);
		const newLow = lowTimesPrime >>> 0;
		high = (high * 0x1b3 + (low << 8) + carry) >>> 0;
		low = newLow;
	}
	return [high, low];
}
