import fc from 'fast-check';

import { fnv1a64 } from '../../../../nodes/shared/text/fnv1a64';

/** FNV-1a 64 as its definition reads, in BigInt: the oracle for the product's arithmetic in 16-bit limbs. */
function byDefinition(text: string): string {
	let hash = 0xcbf29ce484222325n;
	for (let index = 0; index < text.length; index++) {
		hash ^= BigInt(text.charCodeAt(index));
		hash = (hash * 0x100000001b3n) & 0xffffffffffffffffn;
	}
	return hash.toString(16).padStart(16, '0');
}

describe('the fingerprint of a text (stored keys depend on it)', () => {
	it("gives FNV-1a 64's published values", () => {
		expect(fnv1a64('')).toBe('cbf29ce484222325');
		expect(fnv1a64('a')).toBe('af63dc4c8601ec8c');
		expect(fnv1a64('foobar')).toBe('85944171f73967e8');
	});

	it('is FNV-1a 64 over UTF-16 code units for any text', () => {
		fc.assert(
			fc.property(fc.string({ unit: 'binary', maxLength: 300 }), (text) => {
				expect(fnv1a64(text)).toBe(byDefinition(text));
			}),
			{ numRuns: 2000 },
		);
	});
});
