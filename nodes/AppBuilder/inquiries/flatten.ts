import type { IDataObject } from 'n8n-workflow';

import { isRecord } from '../../shared/valueShapes';
import type { FormField, RawInquiry } from './inquiry.types';
import { readSubmittedFields } from './submittedFields';
import { toEpochMillis, toIsoString } from './timestamps';

// Turns a raw inquiry record into a flat item a workflow maps with {{ $json.<field name> }}. The
// key rules are a promise to every workflow built on the item, so they never change (see
// docs/trigger.md, "Output item"). Problems with the record go to formWarnings; the item always
// comes out.

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

type Scalar = string | number | boolean | null;

export function flattenInquiry(input: unknown): IDataObject {
	if (!isRecord(input)) {
		return itemOf({}, [], [`the inquiry is not a record but ${describe(input)}`]);
	}
	const record = input as RawInquiry;
	const { fields, warnings } = readSubmittedFields(record);
	warnings.push(...timeWarnings(record));
	return itemOf(record, fields, warnings);
}

function itemOf(record: RawInquiry, fields: FormField[], warnings: string[]): IDataObject {
	// Why this cannot pollute: keys are assigned one level deep and only
	// strings are stored, so not even a "__proto__" key could reach a
	// prototype (it would only be dropped), and rule 2 renames it anyway. The
	// spreads below define own properties. (Null-prototype or defineProperty
	// accumulators cost a third of the throughput for no added safety.)
	const values: Record<string, string> = {};
	const labels: Record<string, string> = {};
	const used = new Set<string>();
	for (const field of fields) {
		const key = uniqueKey(baseKey(field), used);
		used.add(key);
		values[key] = field.value;
		labels[key] = field.label;
	}

	const item: IDataObject = {
		inquiryId: scalar(record._id),
		submittedAt: toIsoString(toEpochMillis(record.addedon)) ?? null,
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
		updatedAt: toIsoString(toEpochMillis(record.updatedon)) ?? null,
		addedon: scalar(record.addedon),
		updatedon: scalar(record.updatedon),
	};
	if (warnings.length > 0) item.formWarnings = warnings;
	return item;
}

function baseKey(field: FormField): string {
	const name = field.name || field.identifier || `field_${field.position}`;
	return isTaken(name) ? `field_${name}` : name;
}

function uniqueKey(base: string, used: Set<string>): string {
	if (!used.has(base)) return base;
	for (let suffix = 2; ; suffix++) {
		const candidate = `${base}_${suffix}`;
		if (!used.has(candidate) && !isTaken(candidate)) return candidate;
	}
}

/** Names the item itself uses, or that would reach or shadow Object.prototype. */
function isTaken(name: string): boolean {
	return ITEM_KEYS.has(name) || name === 'prototype' || name in Object.prototype;
}

function timeWarnings(record: RawInquiry): string[] {
	const warnings: string[] = [];
	for (const key of ['addedon', 'updatedon'] as const) {
		const value = record[key];
		if (value === undefined || value === null) warnings.push(`${key} is missing`);
		else if (toEpochMillis(value) === undefined)
			warnings.push(`${key} is not a usable time: ${describe(value)}`);
	}
	return warnings;
}

/** Metadata as it came, when JSON can carry it unchanged; anything else is null. */
function scalar(value: unknown): Scalar {
	if (typeof value === 'string' || typeof value === 'boolean') return value;
	if (typeof value === 'number' && Number.isFinite(value)) return value === 0 ? 0 : value; // -0 is 0 in JSON
	return null;
}

function describe(value: unknown): string {
	if (value === null) return 'null';
	if (Array.isArray(value)) return 'a list';
	if (typeof value === 'string')
		return JSON.stringify(value.length > 30 ? `${value.slice(0, 27)}...` : value);
	if (typeof value === 'number' || typeof value === 'boolean') return String(value);
	return `a value of type ${typeof value}`;
}
