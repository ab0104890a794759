// @ts-check
'use strict';

/**
 * Inquiry records in the exact shape of the spec's "Form inquiry record":
 * formData is three rows (values, labels, names) and formbuilderData a JSON
 * string of {fieldName, fieldIdentifire, fieldLabel, fieldValue}. Records are
 * stored compactly (bulk ones keep only a sequence number and are generated
 * when served), so a form of a million inquiries fits in memory.
 */

/**
 * @typedef {{name: string, label: string, value: string}} Field
 * @typedef {{
 *   _id: string, appId: string, pageId: string, requestId: string,
 *   addedMs: number, updatedMs: number,
 *   fields?: Field[], bulkSeq?: number, bulkFieldCount?: number,
 *   formName: string, subject: string, requestPage: string,
 *   paymentStatus: string, mailStatus: number, status: number, readStatus: number,
 *   overrides?: Record<string, unknown>, rawJson?: string
 * }} StoredInquiry
 */

let idCounter = Math.floor(Math.random() * 0xffffff);
const processPart = Array.from({ length: 10 }, () =>
	Math.floor(Math.random() * 16).toString(16),
).join('');

/**
 * A 24-hex-character id shaped like a MongoDB ObjectId: seconds, random, counter.
 * @param {number} ms
 */
function objectId(ms) {
	idCounter = (idCounter + 1) & 0xffffff;
	const seconds = Math.floor(ms / 1000)
		.toString(16)
		.padStart(8, '0')
		.slice(-8);
	return `${seconds}${processPart}${idCounter.toString(16).padStart(6, '0')}`;
}

const BULK_LABELS = [
	'Full Name',
	'Email',
	'Phone',
	'Company',
	'City',
	'Country',
	'Budget',
	'Source',
	'Product',
	'Preferred Contact',
	'Message',
	'Consent',
];
const BULK_NAMES = [
	'name',
	'email',
	'phone',
	'company',
	'city',
	'country',
	'budget',
	'source',
	'product',
	'preferredContact',
	'message',
	'consent',
];

/**
 * Fields of a bulk record, derived from its sequence number so they need not be stored.
 * @param {number} seq
 * @param {number} count
 * @returns {Field[]}
 */
function bulkFields(seq, count) {
	/** @type {Field[]} */
	const fields = [];
	for (let i = 0; i < count; i++) {
		const name = i < BULK_NAMES.length ? BULK_NAMES[i] : `field${i + 1}`;
		const label = i < BULK_LABELS.length ? BULK_LABELS[i] : `Field ${i + 1}`;
		let value;
		switch (name) {
			case 'name':
				value = `Lead ${seq}`;
				break;
			case 'email':
				value = `lead${seq}@example.com`;
				break;
			case 'phone':
				value = `555${String(seq).padStart(7, '0')}`;
				break;
			case 'message':
				value = `Hello, I would like to know more about your services. Reference ${seq}. Please contact me at your earliest convenience.`;
				break;
			default:
				value = `${label} value ${seq % 97}`;
		}
		fields.push({ name, label, value });
	}
	return fields;
}

/**
 * @param {StoredInquiry} record
 * @returns {Field[]}
 */
function fieldsOf(record) {
	if (record.fields) return record.fields;
	return bulkFields(record.bulkSeq ?? 0, record.bulkFieldCount ?? 10);
}

/**
 * @param {number} ms
 * @param {'s' | 'ms'} unit
 */
function inUnit(ms, unit) {
	return unit === 'ms' ? ms : Math.floor(ms / 1000);
}

/**
 * The record as the API returns it.
 * @param {StoredInquiry} record
 * @param {'s' | 'ms'} unit
 */
function renderInquiry(record, unit) {
	const fields = fieldsOf(record);
	const rendered = {
		_id: record._id,
		appId: record.appId,
		pageId: record.pageId,
		requestId: record.requestId,
		subject: record.subject,
		requestPage: record.requestPage,
		formName: record.formName,
		formData: [fields.map((f) => f.value), fields.map((f) => f.label), fields.map((f) => f.name)],
		formbuilderData: JSON.stringify(
			fields.map((f) => ({
				fieldName: f.name,
				fieldIdentifire: f.name,
				fieldLabel: f.label,
				fieldValue: f.value,
			})),
		),
		paymentStatus: record.paymentStatus,
		mailStatus: record.mailStatus,
		status: record.status,
		readStatus: record.readStatus,
		addedon: inUnit(record.addedMs, unit),
		updatedon: inUnit(record.updatedMs, unit),
	};
	return record.overrides ? { ...rendered, ...record.overrides } : rendered;
}

/**
 * The record's JSON text, rendered once and reused until the record changes,
 * so serving a large form costs about what sending its bytes costs.
 * @type {WeakMap<StoredInquiry, {unit: string, json: string}>}
 */
const renderedJson = new WeakMap();

/**
 * @param {StoredInquiry} record
 * @param {'s' | 'ms'} unit
 */
function renderInquiryJson(record, unit) {
	// A record added as raw text (addRawInquiry) is served as it is, JSON or not.
	if (record.rawJson !== undefined) return record.rawJson;
	const cached = renderedJson.get(record);
	if (cached && cached.unit === unit) return cached.json;
	const json = JSON.stringify(renderInquiry(record, unit));
	renderedJson.set(record, { unit, json });
	return json;
}

/** @param {StoredInquiry} record */
function forgetRendered(record) {
	renderedJson.delete(record);
}

module.exports = {
	objectId,
	renderInquiry,
	renderInquiryJson,
	forgetRendered,
	bulkFields,
	fieldsOf,
};
