import fc from 'fast-check';

import { flattenInquiry, METADATA_KEYS } from '../../../../nodes/AppBuilder/inquiries/flatten';
import { inquiryKey } from '../../../../nodes/AppBuilder/trigger/events/identity';
import { caseCount } from '../../../support/testSize';

type Field = [name: string, label: string, value: string];

/** A record as the spec describes it, both sources agreeing. */
const record = (fields: Field[], extra: Record<string, unknown> = {}) => ({
	_id: '65f1c0ffee0000000000abcd',
	appId: 'app_1',
	pageId: 'formbuilder_1_2',
	requestId: 'REQ1',
	subject: 'New inquiry',
	requestPage: 'Contact',
	formName: 'Contact Us',
	formData: [fields.map((f) => f[2]), fields.map((f) => f[1]), fields.map((f) => f[0])],
	formbuilderData: JSON.stringify(
		fields.map(([name, label, value]) => builderEntry(name, name, label, value)),
	),
	paymentStatus: 'free',
	mailStatus: 1,
	status: 1,
	readStatus: 0,
	addedon: 1767225600,
	updatedon: 1767225660,
	...extra,
});

/** One field of formbuilderData as the API writes it (its identifier under the API's spelling). */
function builderEntry(
	fieldName: string,
	fieldIdentifire: string,
	fieldLabel: string,
	fieldValue: string,
) {
	return { fieldName, fieldIdentifire, fieldLabel, fieldValue };
}

const jsonRoundTrip = (value: unknown): unknown => JSON.parse(JSON.stringify(value));

describe('flattenInquiry', () => {
	it('gives metadata readable names, ISO times, one key per field and the labels, and no warnings on a clean record', () => {
		const item = flattenInquiry(
			record([
				['name', 'Your Name', 'Ann'],
				['email', 'Email', 'ann@example.com'],
			]),
		);
		expect(item).toStrictEqual({
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

	it('reads both timestamp units and keeps the raw values as they came', () => {
		const item = flattenInquiry(
			record([['a', 'A', '1']], { addedon: 1767225600123, updatedon: '1767225600' }),
		);
		expect(item.submittedAt).toBe('2026-01-01T00:00:00.123Z');
		expect(item.updatedAt).toBe('2026-01-01T00:00:00.000Z');
		expect(item.addedon).toBe(1767225600123);
		expect(item.updatedon).toBe('1767225600');
		expect(item.formWarnings).toBeUndefined();
	});

	it('warns about missing and unusable times and leaves the ISO fields null', () => {
		const missing = flattenInquiry(
			record([['a', 'A', '1']], { addedon: undefined, updatedon: null }),
		);
		expect(missing.submittedAt).toBeNull();
		expect(missing.updatedAt).toBeNull();
		expect(missing.formWarnings).toEqual(['addedon is missing', 'updatedon is missing']);

		const unusable = flattenInquiry(record([['a', 'A', '1']], { addedon: 'soon', updatedon: 0 }));
		expect(unusable.formWarnings).toEqual([
			'addedon is not a usable time: "soon"',
			'updatedon is not a usable time: 0',
		]);
		expect(unusable.updatedon).toBe(0);
	});

	it('warns that an addedon beyond the range of a Date is not a usable time, as the trigger treats it as undated', () => {
		const item = flattenInquiry(record([['a', 'A', '1']], { addedon: 1e20 }));
		expect(item.submittedAt).toBeNull();
		expect(item.addedon).toBe(1e20);
		expect(item.formWarnings).toEqual(['addedon is not a usable time: 100000000000000000000']);
	});

	it('reads ISO 8601 addedon and updatedon strings as the instants they name, without warnings', () => {
		const item = flattenInquiry(
			record([['a', 'A', '1']], {
				addedon: '2026-11-10T09:12:05Z',
				updatedon: '2026-11-10 10:12:05.250+01:00',
			}),
		);
		expect(item.submittedAt).toBe('2026-11-10T09:12:05.000Z');
		expect(item.updatedAt).toBe('2026-11-10T09:12:05.250Z');
		expect(item.addedon).toBe('2026-11-10T09:12:05Z');
		expect(item.formWarnings).toBeUndefined();
	});

	it('renames duplicates, metadata collisions, empty names and object machinery by the documented rules', () => {
		const item = flattenInquiry(
			record([
				['email', 'Email', 'first@example.com'],
				['email', 'Email again', 'second@example.com'],
				['email', 'Email thrice', 'third@example.com'],
				['status', 'Status', 'married'],
				['inquiryId', 'Ref', 'X-1'],
				['fieldLabels', 'Labels', 'L'],
				['formWarnings', 'Warnings', 'W'],
				['', 'No name', 'anonymous'],
				['__proto__', 'Proto', 'polluted?'],
				['constructor', 'Ctor', 'c'],
				['prototype', 'Prototype', 'p'],
				['toString', 'ToString', 't'],
				['hasOwnProperty', 'Own', 'h'],
				['  padded  ', 'Padded', 'trimmed name'],
				['имя', 'Имя', 'Иван 🙂'],
			]),
		);
		expect(item.email).toBe('first@example.com');
		expect(item.email_2).toBe('second@example.com');
		expect(item.email_3).toBe('third@example.com');
		expect(item.status).toBe(1);
		expect(item.field_status).toBe('married');
		expect(item.inquiryId).toBe('65f1c0ffee0000000000abcd');
		expect(item.field_inquiryId).toBe('X-1');
		expect(item.field_fieldLabels).toBe('L');
		expect(item.field_formWarnings).toBe('W');
		expect(item.formWarnings).toBeUndefined();
		expect(item.field_8).toBe('anonymous');
		expect(item.field___proto__).toBe('polluted?');
		expect(item.field_constructor).toBe('c');
		expect(item.field_prototype).toBe('p');
		expect(item.field_toString).toBe('t');
		expect(item.field_hasOwnProperty).toBe('h');
		expect(item.padded).toBe('trimmed name');
		expect(item['имя']).toBe('Иван 🙂');
		expect(item.fieldLabels).toMatchObject({
			email_2: 'Email again',
			field_8: 'No name',
			field___proto__: 'Proto',
			имя: 'Имя',
		});
		expect(Object.getPrototypeOf(item)).toBe(Object.prototype);
		expect(Object.prototype.hasOwnProperty.call(item, '__proto__')).toBe(false);
		expect(Object.getPrototypeOf(item.fieldLabels)).toBe(Object.prototype);
		expect(({} as Record<string, unknown>).polluted).toBeUndefined();
	});

	it('gives a renamed key and a fallback key their own suffix when a real field already has that name', () => {
		const item = flattenInquiry(
			record([
				['field_status', 'Real', 'real'],
				['status', 'Renamed', 'renamed'],
				['field_3', 'Literal', 'literal'],
			]),
			// Column 4 has no name: it falls back to field_4; column 3 is literally named field_3.
		);
		expect(item.field_status).toBe('real');
		expect(item.field_status_2).toBe('renamed');
		expect(item.field_3).toBe('literal');

		const fallback = flattenInquiry(
			record([], {
				formData: [
					['x', 'y'],
					['X', 'Y'],
					['field_2', ''],
				],
				formbuilderData: undefined,
			}),
		);
		expect(fallback.field_2).toBe('x');
		expect(fallback.field_2_2).toBe('y');
	});

	it('falls back to fieldIdentifire for a formbuilderData entry without a name', () => {
		const item = flattenInquiry(
			record([], {
				formData: undefined,
				formbuilderData: JSON.stringify([builderEntry('', 'text_1', 'X', 'v')]),
			}),
		);
		expect(item.text_1).toBe('v');
		expect(item.fieldLabels).toEqual({ text_1: 'X' });
		expect(item.formWarnings).toBeUndefined();
	});

	it('reads rows of unequal length column by column, missing cells as empty, and says so', () => {
		const item = flattenInquiry(
			record([], {
				formData: [['1', '2'], ['A'], ['a', 'b', 'c', '']],
				formbuilderData: undefined,
			}),
		);
		expect(item).toMatchObject({ a: '1', b: '2', c: '', fieldLabels: { a: 'A', b: '', c: '' } });
		expect(item.formWarnings).toEqual(['formData rows have different lengths (2, 1, 4)']);
	});

	it('drops a column with neither a name nor a value, and stringifies numbers but not objects', () => {
		const item = flattenInquiry(
			record([], {
				formData: [
					[42, '', { x: 1 }, true],
					['Age', 'Heading', 'Obj', 'Agree'],
					['age', '', 'obj', 'agree'],
				],
				formbuilderData: undefined,
			}),
		);
		expect(item.age).toBe('42');
		expect(item.obj).toBe('');
		expect(item.agree).toBe('true');
		expect(Object.values(item.fieldLabels as object)).not.toContain('Heading');
		expect(item.formWarnings).toEqual([
			'formData has cells that are not text or numbers; they were read as empty',
		]);
	});

	it('takes formData first, appends what only formbuilderData has, and warns without quoting values when they disagree', () => {
		const item = flattenInquiry(
			record([['a', 'A', '1']], {
				formbuilderData: JSON.stringify([
					builderEntry('a', 'a', 'A', 'hunter2'),
					builderEntry('extra', 'extra', 'Extra', 'from builder'),
				]),
			}),
		);
		expect(item).toMatchObject({
			a: '1',
			extra: 'from builder',
			fieldLabels: { a: 'A', extra: 'Extra' },
		});
		expect(item.formWarnings).toEqual([
			'formData and formbuilderData disagree on the value of "a"; the formData value was used',
		]);
		expect(JSON.stringify(item.formWarnings)).not.toContain('hunter2');
	});

	it('gives an unnamed formData column that formbuilderData names by fieldIdentifire one key (the identifier), without warnings', () => {
		const item = flattenInquiry(
			record([], {
				formData: [
					['Ann', 'Call me after 5'],
					['Your Name', 'Comment'],
					['name', ''],
				],
				formbuilderData: JSON.stringify([
					builderEntry('name', 'name', 'Your Name', 'Ann'),
					builderEntry('', 'textarea_2', 'Comment', 'Call me after 5'),
				]),
			}),
		);
		expect(item.textarea_2).toBe('Call me after 5');
		expect(item.field_2).toBeUndefined();
		expect(item.fieldLabels).toEqual({ name: 'Your Name', textarea_2: 'Comment' });
		expect(item.formWarnings).toBeUndefined();
	});

	it('pairs unnamed columns with identified entries by label, in order, and warns without quoting values when they disagree', () => {
		const item = flattenInquiry(
			record([], {
				formData: [
					['first', 'second', 'other'],
					['Note', 'Note', 'Other'],
					['', '', ''],
				],
				formbuilderData: JSON.stringify([
					builderEntry('', 'note_1', 'Note', 'first'),
					builderEntry('', 'note_2', 'Note', 'hunter2'),
					builderEntry('', 'extra_9', 'Extra', 'only in builder'),
				]),
			}),
		);
		expect(item).toMatchObject({
			note_1: 'first',
			note_2: 'second',
			field_3: 'other',
			extra_9: 'only in builder',
		});
		expect(Object.keys(item.fieldLabels as object).sort()).toEqual([
			'extra_9',
			'field_3',
			'note_1',
			'note_2',
		]);
		expect(item.formWarnings).toEqual([
			'formData and formbuilderData disagree on the value of "note_2"; the formData value was used',
		]);
		expect(JSON.stringify(item.formWarnings)).not.toContain('hunter2');
	});

	it('pairs repeated names across the two sources in order', () => {
		const item = flattenInquiry(
			record([
				['phone', 'Phone', '111'],
				['phone', 'Phone', '222'],
			]),
		);
		expect(item).toMatchObject({ phone: '111', phone_2: '222' });
		expect(item.phone_3).toBeUndefined();
		expect(item.formWarnings).toBeUndefined();
	});

	it.each([
		['broken JSON', '[{"fieldName": "a", "fieldValue": "9"', ['formbuilderData is not valid JSON']],
		[
			'JSON that is not a list',
			'{"fieldName": "a"}',
			['formbuilderData does not hold a list of fields'],
		],
		['a number', 7, ['formbuilderData is neither JSON text nor a list']],
		['an object', { fieldName: 'a' }, ['formbuilderData is neither JSON text nor a list']],
		[
			'entries that are not objects or miss keys',
			JSON.stringify(['x', null, { fieldName: 'b', fieldLabel: 'B' }, {}]),
			[
				'formbuilderData has 2 entries that are not objects; skipped',
				'formbuilderData has 2 entries without fieldIdentifire',
				'formbuilderData has 2 entries without fieldValue',
				'formbuilderData has 1 entry without fieldName',
				'formbuilderData has 1 entry without fieldLabel',
				'formbuilderData has 1 entry with nothing in them; skipped',
			],
		],
	])(
		'keeps the formData fields and warns when formbuilderData is %s',
		(_, formbuilderData, warnings) => {
			const item = flattenInquiry(record([['a', 'A', '1']], { formbuilderData }));
			expect(item.a).toBe('1');
			expect(item.formWarnings).toEqual(warnings);
		},
	);

	it('reads formbuilderData that arrives already decoded', () => {
		const item = flattenInquiry(
			record([], {
				formData: undefined,
				formbuilderData: [builderEntry('n', 'n', 'N', 'v')],
			}),
		);
		expect(item.n).toBe('v');
		expect(item.formWarnings).toBeUndefined();
	});

	it.each([
		['formData is not a list', { formData: 'nope' }, 'formData is not a list of rows'],
		[
			'formData has 2 rows',
			{ formData: [['v'], ['L']] },
			'formData has 2 rows instead of 3 (values, labels, names)',
		],
		['a row is not a list', { formData: [['v'], 'L', ['n']] }, 'formData row 2 is not a list'],
		[
			'both sources are missing',
			{ formData: undefined, formbuilderData: undefined },
			'the record has neither formData nor formbuilderData',
		],
	])('warns when %s', (_, extra, warning) => {
		const item = flattenInquiry(record([], extra));
		expect(item.formWarnings).toContain(warning);
	});

	it.each([
		[null, 'the inquiry is not a record but null'],
		[[], 'the inquiry is not a record but a list'],
		['text', 'the inquiry is not a record but "text"'],
		[42, 'the inquiry is not a record but 42'],
		[undefined, 'the inquiry is not a record but a value of type undefined'],
	])('returns an item with one warning for %p', (input, warning) => {
		const item = flattenInquiry(input);
		expect(item.formWarnings).toEqual([warning]);
		expect(item.inquiryId).toBeNull();
		expect(item.fieldLabels).toEqual({});
		expect(jsonRoundTrip(item)).toStrictEqual(item);
	});

	it('turns metadata JSON cannot carry into null, so the item round-trips unchanged', () => {
		const item = flattenInquiry(
			record([['a', 'A', '1']], {
				status: Number.NaN,
				mailStatus: -0,
				readStatus: { x: 1 },
				subject: ['s'],
			}),
		);
		expect(item).toMatchObject({ status: null, mailStatus: 0, readStatus: null, subject: null });
		expect(Object.is(item.mailStatus, -0)).toBe(false);
		expect(jsonRoundTrip(item)).toStrictEqual(item);
	});
});

describe('flattenInquiry, property-based', () => {
	const hostileName = fc.oneof(
		fc.constantFrom(
			'__proto__',
			'constructor',
			'prototype',
			'toString',
			'hasOwnProperty',
			'valueOf',
			'__defineGetter__',
			'status',
			'inquiryId',
			'fieldLabels',
			'formWarnings',
			'field_status',
			'field_1',
			'',
			' ',
			'имя',
			'🙂',
		),
		fc.string(),
		fc.string({ unit: 'grapheme' }),
	);
	const cell = fc.oneof(
		hostileName,
		fc.integer(),
		fc.double(),
		fc.boolean(),
		fc.constant(null),
		fc.object(),
	);
	const row = fc.array(cell, { maxLength: 6 });
	const builderEntry = fc.record(
		{
			fieldName: hostileName,
			fieldIdentifire: hostileName,
			fieldLabel: fc.string(),
			fieldValue: fc.oneof(fc.string(), fc.jsonValue()),
		},
		{ requiredKeys: [] },
	);
	const anything = fc.anything({
		key: fc.oneof(
			fc.string(),
			fc.constantFrom('__proto__', 'constructor', 'formData', 'formbuilderData', 'addedon', '_id'),
		),
		withBigInt: true,
		withNullPrototype: true,
		withBoxedValues: true,
		withMap: true,
		withSet: true,
		withDate: true,
		withSparseArray: true,
		withTypedArray: true,
		maxDepth: 3,
		maxKeys: 5,
	});
	const hostileRecord = fc.record(
		{
			_id: fc.oneof(fc.string(), fc.integer(), fc.constant('__proto__'), anything),
			requestId: fc.oneof(fc.string(), anything),
			formData: fc.oneof(fc.tuple(row, row, row), fc.array(row, { maxLength: 5 }), anything),
			formbuilderData: fc.oneof(
				fc
					.array(fc.oneof(builderEntry, fc.jsonValue()), { maxLength: 5 })
					.map((entries) => JSON.stringify(entries)),
				fc.string(),
				anything,
			),
			addedon: fc.oneof(fc.integer(), fc.double(), fc.string(), anything),
			updatedon: anything,
			status: anything,
			subject: fc.oneof(fc.string(), anything),
		},
		{ requiredKeys: [] },
	);

	const ITEM_KEYS = new Set<string>([...METADATA_KEYS, 'fieldLabels', 'formWarnings']);

	it('never throws, always JSON round-trips, never touches Object.prototype', () => {
		const prototypeNames = Object.getOwnPropertyNames(Object.prototype).sort();
		fc.assert(
			fc.property(fc.oneof(hostileRecord, anything), (input) => {
				const item = flattenInquiry(input);
				expect(jsonRoundTrip(item)).toStrictEqual(item);
				expect(Object.getPrototypeOf(item)).toBe(Object.prototype);
				expect(Object.prototype.hasOwnProperty.call(item, '__proto__')).toBe(false);
				expect(Object.prototype.hasOwnProperty.call(item.fieldLabels, '__proto__')).toBe(false);
				// Every key is metadata, or a field listed in fieldLabels.
				const labels = item.fieldLabels as Record<string, string>;
				const strayKeys = Object.keys(item).filter(
					(key) => !ITEM_KEYS.has(key) && !Object.prototype.hasOwnProperty.call(labels, key),
				);
				expect(strayKeys).toEqual([]);
				if (item.formWarnings !== undefined)
					expect((item.formWarnings as string[]).length).toBeGreaterThan(0);
				expect(({} as Record<string, unknown>).polluted).toBeUndefined();
				expect(inquiryKey(input)).toMatch(
					/^([A-Za-z0-9_.-]{1,64}|#[0-9a-f]{16}|r:[A-Za-z0-9_.-]{1,64}|r:#[0-9a-f]{16}|h:[0-9a-f]{16})$/,
				);
			}),
			{ numRuns: caseCount('FLATTEN', 2000, 20_000) },
		);
		expect(Object.getOwnPropertyNames(Object.prototype).sort()).toEqual(prototypeNames);
	});

	it('on well-formed records whose unnamed fields formbuilderData identifies, every field comes out once under its name or identifier', () => {
		const field = fc.tuple(hostileName, fc.string(), fc.string({ minLength: 1 }));
		fc.assert(
			fc.property(fc.array(field, { maxLength: 8 }), (fields) => {
				const identifierOf = (name: string, index: number) =>
					name.trim() || `text_${index}\u{1F511}`;
				const item = flattenInquiry(
					record(fields, {
						formbuilderData: JSON.stringify(
							fields.map(([name, label, value], index) => ({
								fieldName: name,
								fieldIdentifire: identifierOf(name, index),
								fieldLabel: label,
								fieldValue: value,
							})),
						),
					}),
				);
				const labels = item.fieldLabels as Record<string, string>;
				const pairs = Object.keys(labels).map((key) => [item[key], labels[key]].join('\u0000'));
				const submitted = fields.map(([, label, value]) => [value, label.trim()].join('\u0000'));
				expect(pairs.sort()).toEqual(submitted.sort());
				expect(item.formWarnings).toBeUndefined();
				fields.forEach(([name, , value], index) => {
					if (name.trim() === '') expect(item[identifierOf(name, index)]).toBe(value);
				});
			}),
			{ numRuns: caseCount('FLATTEN', 1000, 10_000) },
		);
	});

	it('on well-formed records, every submitted field comes out once with its label', () => {
		const field = fc.tuple(hostileName, fc.string(), fc.string({ minLength: 1 }));
		fc.assert(
			fc.property(fc.array(field, { maxLength: 8 }), (fields) => {
				const item = flattenInquiry(record(fields));
				const labels = item.fieldLabels as Record<string, string>;
				// Compared as sorted pairs: objects list integer-like keys ("0", "1") first.
				const pairs = Object.keys(labels).map((key) => [item[key], labels[key]].join('\u0000'));
				const submitted = fields.map(([, label, value]) => [value, label.trim()].join('\u0000'));
				expect(pairs.sort()).toEqual(submitted.sort());
				expect(item.formWarnings).toBeUndefined();
				// Same input, same keys: expressions keep working.
				expect(Object.keys(flattenInquiry(record(fields)))).toEqual(Object.keys(item));
			}),
			{ numRuns: caseCount('FLATTEN', 1000, 10_000) },
		);
	});
});
