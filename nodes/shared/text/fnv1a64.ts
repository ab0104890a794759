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
	// Four 16-bit limbs, lowest first: every product stays an exact integer, with no division.
	let [h0, h1, h2, h3] = [0x2325, 0x8422, 0x9ce4, 0xcbf2];
	for (let index = 0; index < text.length; index++) {
		h0 ^= text.charCodeAt(index);
		// Multiply by the 64-bit FNV prime 2^40 + 0x1b3, keeping the low 64 bits.
		const t0 = h0 * 0x1b3;
		const t1 = h1 * 0x1b3 + (t0 >>> 16);
		const t2 = h2 * 0x1b3 + (h0 << 8) + (t1 >>> 16);
		h3 = (h3 * 0x1b3 + (h1 << 8) + (t2 >>> 16)) & 0xffff;
		[h0, h1, h2] = [t0 & 0xffff, t1 & 0xffff, t2 & 0xffff];
	}
	return [((h3 << 16) | h2) >>> 0, ((h1 << 16) | h0) >>> 0];
}
