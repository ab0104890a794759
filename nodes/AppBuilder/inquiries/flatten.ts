import type { IDataObject } from 'n8n-workflow';

import { readFormFields } from './formFields';
import type { FormField, RawInquiry } from './inquiry.types';
import { toEpochMillis, toIsoString } from './timestamps';

/**
 * Turns a raw inquiry record into a flat item a workflow maps with
 * {{ $json.<field name> }}.
 *
 * Key rules (deterministic, so a workflow's expressions keep working):
 * 1. A form field's key is its name (formData row 3 / formbuilderData
 *    fieldName), trimmed; an empty name falls back to fieldIdentifire, then
 *    to field_<column number>.
 * 2. A name taken by the item's own keys (inquiryId, submittedAt, status,
 *    fieldLabels, ...) or by JavaScript's object machinery (__proto__,
 *    constructor, prototype, toString, ...) gets the prefix field_.
 * 3. A key already used by an earlier field gets _2, _3, ... (the first keeps
 *    the plain name).
 * Unicode names are kept as they are. Each field's label is under
 * fieldLabels.<key>. Problems with the record (rows of unequal length, JSON
 * that does not parse, sources that disagree) are listed in formWarnings,
 * which is present only when there is one; the item always comes out.
 */
export const METADATA_KEYS = [
	'inquiryId',
	'submittedAt',
	'formName',
	'appId',
	'pageId',
	'requestId',
	'subject',
	'requestPage',
	'paymentStatus',
	'mailStatus',
	'status',
	'readStatus',
	'updatedAt',
	'addedon',
	'updatedon',
] as const;

const ITEM_KEYS = new Set<string>([...METADATA_KEYS, 'fieldLabels', 'formWarnings']);

export function flattenInquiry(input: unknown): IDataObject {
	const isRecord = typeof input === 'object' && input !== null && !Array.isArray(input);
	const record: RawInquiry = isRecord ? (input as RawInquiry) : {};
	const { fields, warnings } = readFormFields(record);
	if (!isRecord) warnings.unshift('the inquiry is not a record');

	const values: IDataObject = {};
	const labels: IDataObject = {};
	const used = new Set<string>();
	for (const field of fields) {
		const key = uniqueKey(baseKey(field), used);
		used.add(key);
		values[key] = field.value;
		labels[key] = field.label;
	}

	const addedMs = toEpochMillis(record.addedon);
	const updatedMs = toEpochMillis(record.updatedon);
	const item: IDataObject = {
		inquiryId: scalar(record._id),
		submittedAt: toIsoString(addedMs) ?? null,
		formName: scalar(record.formName),
		...values,
		fieldLabels: labels,
		appId: scalar(record.appId),
		pageId: scalar(record.pageId),
		requestId: scalar(record.requestId),
		subject: scalar(record.subject),
		requestPage: scalar(record.requestPage),
		paymentStatus: scalar(record.paymentStatus),
		mailStatus: scalar(record.mailStatus),
		status: scalar(record.status),
		readStatus: scalar(record.readStatus),
		updatedAt: toIsoString(updatedMs) ?? null,
		addedon: scalar(record.addedon),
		updatedon: scalar(record.updatedon),
	};
	if (record.addedon !== undefined && addedMs === undefined) warnings.push('addedon is not a timestamp');
	if (record.updatedon !== undefined && updatedMs === undefined) warnings.push('updatedon is not a timestamp');
	if (warnings.length > 0) item.formWarnings = warnings;
	return item;
}

function baseKey(field: FormField): string {
	const name = field.name || field.identifier || `field_${field.position}`;
	return ITEM_KEYS.has(name) || isObjectMachinery(name) ? `field_${name}` : name;
}

function uniqueKey(base: string, used: Set<string>): string {
	if (!used.has(base)) return base;
	for (let suffix = 2; ; suffix++) {
		const candidate = `${base}_${suffix}`;
		if (!used.has(candidate) && !ITEM_KEYS.has(candidate)) return candidate;
	}
}

/** Names that would reach or shadow Object.prototype when used as a key. */
function isObjectMachinery(name: string): boolean {
	return (
		name === '__proto__' ||
		name === 'prototype' ||
		Object.prototype.hasOwnProperty.call(Object.prototype, name)
	);
}

function scalar(value: unknown): string | number | boolean | null {
	if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return value;
	return null;
}
