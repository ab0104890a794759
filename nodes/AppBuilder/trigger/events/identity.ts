import { setOwnValue } from '../../../shared/ownValue';
import { jsonText } from './jsonText';
import type { RawInquiry } from '../../inquiries/inquiry.types';
import { fnv1a64 } from '../../../shared/text/fnv1a64';

/**
 * The key of an inquiry for "has it been emitted?": its _id, else `r:` + its
 * requestId, else `h:` + a hash of what was submitted and when. Keys stored by
 * earlier versions must stay the same, and every key stays short, because the
 * trigger's stored state is made of them (see ARCHITECTURE.md, "Inquiry identity").
 */
const PLAIN_ID = /^[\w.-]{1,64}$/;
/** The names `id in Object.prototype` finds, looked up in a Set: `in` costs more than the rest of reading an id. */
const PROTOTYPE_NAMES = new Set(Object.getOwnPropertyNames(Object.prototype));

export function inquiryKey(record: unknown): string {
	const raw = (typeof record === 'object' && record !== null ? record : {}) as RawInquiry;
	const id = idText(raw._id);
	if (id !== undefined) return compactId(id);
	const requestId = idText(raw.requestId);
	if (requestId !== undefined) return `r:${compactId(requestId)}`;
	if (isAbsent(raw.formData) && isAbsent(raw.formbuilderData) && isAbsent(raw.addedon)) {
		return `h:${fnv1a64(jsonText(withoutStatusFields(raw), true))}`;
	}
	return `h:${fnv1a64(submissionText([raw.formData, raw.formbuilderData, raw.addedon]))}`;
}

/** Fields that change when a lead is read or handled; a record's key must not. */
const STATUS_FIELDS = new Set(['status', 'readStatus', 'mailStatus', 'paymentStatus', 'updatedon']);

function withoutStatusFields(record: object): Record<string, unknown> {
	const kept: Record<string, unknown> = {};
	for (const [key, value] of Object.entries(record)) {
		if (!STATUS_FIELDS.has(key)) setOwnValue(kept, key, value);
	}
	return kept;
}

/** null and undefined both wrote `null` in the submission text, so both count as absent. */
function isAbsent(value: unknown): boolean {
	return value === undefined || value === null;
}

function idText(value: unknown): string | undefined {
	if (typeof value === 'string' && value.trim() !== '') return value.trim();
	if (typeof value === 'number' && Number.isFinite(value)) return String(value);
	return undefined;
}

function compactId(id: string): string {
	const plain = PLAIN_ID.test(id) && !PROTOTYPE_NAMES.has(id);
	return plain ? id : `#${fnv1a64(id)}`;
}

/** JSON.stringify's text, as keys stored by earlier versions were made from; jsonText where it throws (depth, BigInt, cycles). */
function submissionText(value: unknown[]): string {
	try {
		return JSON.stringify(value);
	} catch {
		return jsonText(value, false);
	}
}
