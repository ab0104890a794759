import fc from 'fast-check';

import { flattenInquiry } from '../../nodes/AppBuilder/inquiries/flatten';
import { inquiryKey } from '../../nodes/AppBuilder/inquiries/identity';
import { toEpochMillis } from '../../nodes/AppBuilder/inquiries/timestamps';

const record = (fields: Array<[string, string, string]>, extra: Record<string, unknown> = {}) => ({
	_id: '65f1c0ffee0000000000abcd',
	appId: 'app_1',
	pageId: 'formbuilder_1_2',
	requestId: 'REQ1',
	subject: 'New inquiry',
	requestPage: 'Contact',
	formName: 'Contact Us',
	formData: [fields.map((f) => f[2]), fields.map((f) => f[1]), fields.map((f) => f[0])],
	formbuilderData: JSON.stringify(
		fields.map(([name, label, value]) => ({ fieldName: name, fieldIdentifire: name, fieldLabel: label, fieldValue: value })),
	),
	paymentStatus: 'free',
	mailStatus: 1,
	status: 1,
	readStatus: 0,
	addedon: 1767225600,
	updatedon: 1767225660,
	...extra,
});

describe('flattenInquiry', () => {
	it('gives metadata readable names, ISO times, one key per field and the labels', () => {
		const item = flattenInquiry(record([['name', 'Your Name', 'Ann'], ['email', 'Email', 'ann@example.com']]));
		expect(item).toEqual({
			inquiryId: '65f1c0ffee0000000000abcd',
			submittedAt: '2026-01-01T00:00:00.000Z',
			formName: 'Contact Us',
			name: 'Ann',
			email: 'ann@example.com',
			fieldLabels: { name: 'Your Name', email: 'Email' },
			appId: 'app_1',
			pageId: 'formbuilder_1_2',
			requestId: 'REQ1',
			subject: 'New inquiry',
			requestPage: 'Contact',
			paymentStatus: 'free',
			mailStatus: 1,
			status: 1,
			readStatus: 0,
			updatedAt: '2026-01-01T00:01:00.000Z',
			addedon: 1767225600,
			updatedon: 1767225660,
		});
	});

	it('reads millisecond timestamps as well as seconds', () => {
		const item = flattenInquiry(record([['a', 'A', '1']], { addedon: 1767225600123, updatedon: '1767225600' }));
		expect(item.submittedAt).toBe('2026-01-01T00:00:00.123Z');
		expect(item.updatedAt).toBe('2026-01-01T00:00:00.000Z');
	});

	it('renames duplicates, metadata collisions, empty names and object machinery deterministically', () => {
		const item = flattenInquiry(
			record([
				['email', 'Email', 'first@example.com'],
				['email', 'Email again', 'second@example.com'],
				['status', 'Status', 'married'],
				['inquiryId', 'Ref', 'X-1'],
				['fieldLabels', 'Labels', 'L'],
				['', 'No name', 'anonymous'],
				['__proto__', 'Proto', 'polluted?'],
				['constructor', 'Ctor', 'c'],
				['toString', 'ToString', 't'],
				['имя', 'Имя', 'Иван'],
			]),
		);
		expect(item.email).toBe('first@example.com');
		expect(item.email_2).toBe('second@example.com');
		expect(item.status).toBe(1);
		expect(item.field_status).toBe('married');
		expect(item.inquiryId).toBe('65f1c0ffee0000000000abcd');
		expect(item.field_inquiryId).toBe('X-1');
		expect(item.field_fieldLabels).toBe('L');
		expect(item.field_6).toBe('anonymous');
		expect(item.field___proto__).toBe('polluted?');
		expect(item.field_constructor).toBe('c');
		expect(item.field_toString).toBe('t');
		expect(item['имя']).toBe('Иван');
		expect(Object.getPrototypeOf(item)).toBe(Object.prototype);
		expect(Object.prototype.hasOwnProperty.call(item, '__proto__')).toBe(false);
		expect((item.fieldLabels as Record<string, string>).email_2).toBe('Email again');
		expect(item.formWarnings).toBeUndefined();
	});

	it('still returns an item, with warnings, when the sources are malformed or disagree', () => {
		const unequal = flattenInquiry(
			record([['a', 'A', '1']], { formData: [['1', '2'], ['A'], ['a', 'b', 'c']], formbuilderData: '[{"fieldName": "a", "fieldValue": "9"' }),
		);
		expect(unequal).toMatchObject({ a: '1', b: '2', c: '' });
		expect(unequal.formWarnings).toEqual([
			'formData rows have different lengths (2, 1, 3)',
			'formbuilderData is not valid JSON',
		]);

		const disagree = flattenInquiry(
			record([['a', 'A', '1']], {
				formbuilderData: JSON.stringify([
					{ fieldName: 'a', fieldIdentifire: 'a', fieldLabel: 'A', fieldValue: 'other' },
					{ fieldName: 'extra', fieldIdentifire: 'extra', fieldLabel: 'Extra', fieldValue: 'from builder' },
				]),
			}),
		);
		expect(disagree).toMatchObject({ a: '1', extra: 'from builder' });
		expect(disagree.formWarnings).toEqual([
			'formData and formbuilderData disagree on the value of "a"; the formData value was used',
		]);

		const onlyBuilder = flattenInquiry(record([], { formData: undefined, formbuilderData: JSON.stringify([{ fieldIdentifire: 'x_1', fieldLabel: 'X', fieldValue: 'v' }]) }));
		expect(onlyBuilder.x_1).toBe('v');
		expect(onlyBuilder.formWarnings).toBeUndefined();
	});

	it.each([null, 'text', 42, [], { formData: 'nope', formbuilderData: { not: 'a string' }, addedon: 'soon' }])(
		'never throws on %p',
		(input) => {
			const item = flattenInquiry(input);
			expect(Array.isArray(item.formWarnings)).toBe(true);
			expect(JSON.parse(JSON.stringify(item))).toEqual(item);
		},
	);

	it('property: never throws, always JSON-safe, never touches Object.prototype', () => {
		const prototypeNames = Object.getOwnPropertyNames(Object.prototype).sort();
		const hostileName = fc.oneof(
			fc.constantFrom('__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty', 'status', 'inquiryId', 'fieldLabels', 'formWarnings', '', ' '),
			fc.string(),
		);
		const fieldRow = fc.array(fc.oneof(hostileName, fc.integer(), fc.constant(null), fc.object()), { maxLength: 6 });
		const hostileRecord = fc.record(
			{
				_id: fc.oneof(fc.string(), fc.integer(), fc.constant(undefined)),
				formData: fc.oneof(fc.tuple(fieldRow, fieldRow, fieldRow), fc.array(fieldRow, { maxLength: 5 }), fc.anything()),
				formbuilderData: fc.oneof(
					fc.array(fc.record({ fieldName: hostileName, fieldIdentifire: hostileName, fieldLabel: fc.string(), fieldValue: fc.oneof(fc.string(), fc.anything()) }), { maxLength: 5 }).map((a) => JSON.stringify(a)),
					fc.string(),
					fc.anything(),
				),
				addedon: fc.oneof(fc.integer(), fc.double(), fc.string(), fc.constant(undefined)),
				updatedon: fc.anything(),
				status: fc.anything(),
			},
			{ requiredKeys: [] },
		);
		fc.assert(
			fc.property(fc.oneof(hostileRecord, fc.anything()), (input) => {
				const item = flattenInquiry(input);
				expect(JSON.parse(JSON.stringify(item))).toEqual(JSON.parse(JSON.stringify(item)));
				expect(Object.getPrototypeOf(item)).toBe(Object.prototype);
				expect(Object.prototype.hasOwnProperty.call(item, '__proto__')).toBe(false);
				expect(({} as Record<string, unknown>).polluted).toBeUndefined();
				expect(typeof inquiryKey(input)).toBe('string');
			}),
			{ numRuns: 1500 },
		);
		expect(Object.getOwnPropertyNames(Object.prototype).sort()).toEqual(prototypeNames);
	});
});

describe('inquiryKey', () => {
	it('uses _id, then requestId, then a stable hash of the submission', () => {
		expect(inquiryKey({ _id: 'abc', requestId: 'r' })).toBe('abc');
		expect(inquiryKey({ _id: '', requestId: 'r' })).toBe('r:r');
		const a = inquiryKey({ formData: [['x']], addedon: 1 });
		expect(a).toMatch(/^h:[0-9a-f]{16}$/);
		expect(inquiryKey({ formData: [['x']], addedon: 1 })).toBe(a);
		expect(inquiryKey({ formData: [['y']], addedon: 1 })).not.toBe(a);
	});
});

describe('toEpochMillis', () => {
	it('detects seconds, milliseconds and microseconds, and refuses what is not a time', () => {
		expect(toEpochMillis(1767225600)).toBe(1767225600000);
		expect(toEpochMillis('1767225600.5')).toBe(1767225600500);
		expect(toEpochMillis(1767225600123)).toBe(1767225600123);
		expect(toEpochMillis(1767225600123456)).toBe(1767225600123);
		for (const bad of ['', 'soon', -5, Number.NaN, Infinity, null, {}]) expect(toEpochMillis(bad)).toBeUndefined();
	});
});
