import fc from 'fast-check';

import { inquiryKey } from '../../../../../nodes/AppBuilder/trigger/events/identity';
import { fnv1a64 } from '../../../../../nodes/shared/text/fnv1a64';
import { jsonText } from '../../../../../nodes/AppBuilder/trigger/events/jsonText';
import { caseCount } from '../../../../support/testSize';

/** A value nested `depth` levels deep, built without recursion: [[[...[leaf]...]]]. */
function nested(depth: number, leaf: unknown): unknown {
	let value: unknown = leaf;
	for (let level = 0; level < depth; level++) value = [value];
	return value;
}

/** An object with its keys (at every depth) in the opposite order, built by recursion (tests use shallow values). */
function reversedKeys(value: unknown): unknown {
	if (Array.isArray(value)) return value.map(reversedKeys);
	if (typeof value !== 'object' || value === null) return value;
	const copy: Record<string, unknown> = {};
	for (const key of Object.keys(value).reverse()) {
		Object.defineProperty(copy, key, {
			value: reversedKeys((value as Record<string, unknown>)[key]),
			enumerable: true,
			writable: true,
			configurable: true,
		});
	}
	return copy;
}

describe('inquiryKey keeps the keys stored trigger state already holds', () => {
	it.each([
		[
			'a full record without _id or requestId',
			{
				formData: [
					['Ann', 'ann@example.com'],
					['Your Name', 'Email'],
					['name', 'email'],
				],
				formbuilderData: JSON.stringify([
					{
						fieldName: 'name',
						fieldIdentifire: 'name',
						fieldLabel: 'Your Name',
						fieldValue: 'Ann',
					},
				]),
				addedon: 1767225600,
				readStatus: 0,
			},
			'h:56cec32ea7bbb4cf',
		],
		['formData and addedon only', { formData: [['x']], addedon: 1 }, 'h:c46de9e95ceb6857'],
		['addedon only, as text', { addedon: '1767225600123' }, 'h:363e2414fc170f1b'],
		['formbuilderData only', { formbuilderData: '[]', subject: 'ignored' }, 'h:23da7ee88093c689'],
		[
			'objects inside formData, in their own key order',
			{ formData: [[{ b: 1, a: 2 }]], addedon: 5 },
			'h:35ec88e700bc018f',
		],
		['an _id that is not plain', { _id: 'with space', requestId: 'R' }, '#2fa3977cadeceaa7'],
		['a requestId', { requestId: 'REQ-7' }, 'r:REQ-7'],
	])('%s', (_, record, key) => {
		expect(inquiryKey(record)).toBe(key);
	});
});

describe('inquiryKey gives distinct records distinct keys', () => {
	it('keys records too deeply nested for JSON.stringify by their content', () => {
		const deep = (leaf: string) => ({ formData: nested(20_000, leaf), addedon: 1767225600 });
		expect(() => JSON.stringify(deep('a'))).toThrow(RangeError);
		const a = inquiryKey(deep('a'));
		expect(a).toMatch(/^h:[0-9a-f]{16}$/);
		expect(inquiryKey(deep('b'))).not.toBe(a);
		expect(inquiryKey(deep('a'))).toBe(a);
		expect(inquiryKey({ formData: nested(20_000, 'a'), addedon: 1767225601 })).not.toBe(a);
	});

	it('keys a record with none of formData, formbuilderData and addedon by the rest of it', () => {
		const ann = { subject: 'Ann', requestPage: 'Contact', appId: 'app_1' };
		const bob = { subject: 'Bob', requestPage: 'Contact', appId: 'app_1' };
		expect(inquiryKey(ann)).not.toBe(inquiryKey(bob));
		expect(inquiryKey({ ...ann, formData: null, addedon: null })).not.toBe(
			inquiryKey({ ...bob, formData: null, addedon: null }),
		);
		expect(inquiryKey(ann)).not.toBe(inquiryKey({}));
		expect(inquiryKey(ann)).toMatch(/^h:[0-9a-f]{16}$/);
	});

	it('keys such a record the same whatever the order of its keys, and when it is read or handled', () => {
		const record = { subject: 'Ann', extra: { b: [1, { y: 2, x: 3 }], a: 'z' }, pageId: 'p' };
		const key = inquiryKey(record);
		expect(inquiryKey(reversedKeys(record))).toBe(key);
		expect(
			inquiryKey({ ...record, readStatus: 1, status: 2, mailStatus: 1, updatedon: 1767225600 }),
		).toBe(key);
	});

	it('keys a deeply nested record without formData, formbuilderData and addedon by its content', () => {
		const a = inquiryKey({ subject: nested(20_000, 'a') });
		expect(inquiryKey({ subject: nested(20_000, 'b') })).not.toBe(a);
	});

	it('property: records without ids that differ outside the mutable status fields get different keys', () => {
		const body = fc.dictionary(
			fc
				.string()
				.filter(
					(key) =>
						![
							'_id',
							'requestId',
							'formData',
							'formbuilderData',
							'addedon',
							'readStatus',
							'status',
							'mailStatus',
							'updatedon',
							'paymentStatus',
						].includes(key),
				),
			fc.jsonValue({ maxDepth: 3 }),
			{ minKeys: 1, maxKeys: 4 },
		);
		fc.assert(
			fc.property(body, body, (a, b) => {
				fc.pre(jsonText(a, true) !== jsonText(b, true));
				expect(inquiryKey(a)).not.toBe(inquiryKey(b));
			}),
			{ numRuns: caseCount('IDENTITY', 500, 5000) },
		);
	});
});

describe('jsonText', () => {
	it('property: writes what JSON.stringify writes, keys in their own order', () => {
		fc.assert(
			fc.property(fc.jsonValue(), (value) => {
				expect(jsonText(value, false)).toBe(JSON.stringify(value));
			}),
			{ numRuns: caseCount('IDENTITY', 1000, 10_000) },
		);
	});

	it('property: with sorted keys, writes the same text for any key order', () => {
		fc.assert(
			fc.property(fc.jsonValue(), (value) => {
				expect(jsonText(reversedKeys(value), true)).toBe(jsonText(value, true));
			}),
			{ numRuns: caseCount('IDENTITY', 1000, 10_000) },
		);
	});

	it('writes values JSON.stringify throws on, instead of throwing', () => {
		const cyclic: Record<string, unknown> = { a: 1 };
		cyclic.self = cyclic;
		expect(typeof jsonText(cyclic, true)).toBe('string');
		expect(jsonText({ n: BigInt(7) }, false)).not.toBe(jsonText({ n: 7 }, false));
		expect(jsonText(nested(3, 'x'), false)).toBe('[[["x"]]]');
	});
});

describe('inquiryKey', () => {
	it('uses _id, then r: + requestId, then h: + a stable hash of the submission', () => {
		expect(inquiryKey({ _id: 'abc', requestId: 'r' })).toBe('abc');
		expect(inquiryKey({ _id: '  abc  ' })).toBe('abc');
		expect(inquiryKey({ _id: 12345 })).toBe('12345');
		expect(inquiryKey({ _id: '', requestId: 'REQ1' })).toBe('r:REQ1');
		expect(inquiryKey({ _id: '   ', requestId: 'REQ1' })).toBe('r:REQ1');
		const hashed = inquiryKey({ formData: [['x']], addedon: 1 });
		expect(hashed).toMatch(/^h:[0-9a-f]{16}$/);
		expect(inquiryKey({ formData: [['x']], addedon: 1, readStatus: 1 })).toBe(hashed);
		expect(inquiryKey({ formData: [['y']], addedon: 1 })).not.toBe(hashed);
		expect(inquiryKey({ formData: [['x']], addedon: 2 })).not.toBe(hashed);
		expect(inquiryKey({ formData: [['x']], formbuilderData: '[]', addedon: 1 })).not.toBe(hashed);
		expect(inquiryKey(null)).toBe(inquiryKey({}));
	});

	it('hashes ids that are long, odd or Object.prototype names, so keys stay short and kinds never collide', () => {
		const long = 'a'.repeat(65);
		expect(inquiryKey({ _id: long })).toBe(`#${fnv1a64(long)}`);
		expect(inquiryKey({ _id: 'a'.repeat(64) })).toBe('a'.repeat(64));
		expect(inquiryKey({ _id: '__proto__' })).toMatch(/^#[0-9a-f]{16}$/);
		expect(inquiryKey({ _id: 'constructor' })).toMatch(/^#[0-9a-f]{16}$/);
		expect(inquiryKey({ _id: 'r:REQ1' })).not.toBe(inquiryKey({ requestId: 'REQ1' }));
		expect(inquiryKey({ _id: 'имя' })).toMatch(/^#[0-9a-f]{16}$/);
		expect(inquiryKey({ requestId: 'with space' })).toMatch(/^r:#[0-9a-f]{16}$/);
	});

	it('computes FNV-1a 64 (published test vectors)', () => {
		expect(fnv1a64('')).toBe('cbf29ce484222325');
		expect(fnv1a64('a')).toBe('af63dc4c8601ec8c');
		expect(fnv1a64('foobar')).toBe('85944171f73967e8');
	});
});
