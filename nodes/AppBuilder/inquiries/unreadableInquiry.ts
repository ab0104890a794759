import { jsonProblem } from '../../shared/jsonStream/jsonProblem';
import type { ValueRedactor } from '../../shared/text/redact';
import { fnv1a64 } from '../../shared/text/fnv1a64';

/**
 * An inquiry the API listed with text that is not JSON inside. It is still a
 * lead: it is emitted once like any other, with its text in rawRecord and a
 * warning (see docs/trigger-internals.md, "A malformed record"). Its own fields are the _id,
 * requestId, addedon and updatedon the scan could read, so identity, the
 * cursor and Get Many's filters read it as they read a record.
 */
export interface UnreadableInquiry {
	_id?: unknown;
	requestId?: unknown;
	addedon?: unknown;
	updatedon?: unknown;
	rawRecord: string;
	formWarnings: string[];
}

/** Most characters of a broken record's text an item carries (a record is a few KB; this bounds a runaway one). */
export const RAW_RECORD_MAX_CHARS = 65_536;

/** The inquiries made here; a copy of one (as n8n makes of an item) is plain data again. */
const made = new WeakSet<object>();

export function isUnreadableInquiry(value: unknown): value is UnreadableInquiry {
	return typeof value === 'object' && value !== null && made.has(value);
}

/**
 * A record from its bytes in the answer: parsed, or, when the text is not
 * JSON, an UnreadableInquiry with `readable`, the fields the scan could read.
 * `redact` takes secrets the server echoed out of it, before a broken
 * record's text is cut, so no secret is left half shown.
 */
export function readRecord(
	bytes: Buffer,
	readable: Record<string, unknown> | undefined,
	redact: ValueRedactor = (value) => value,
): unknown {
	const text = bytes.toString('utf8');
	try {
		return redact(JSON.parse(text) as unknown);
	} catch {
		return unreadableInquiry(text, readable, redact);
	}
}

/** The identity of a record that has no readable _id or requestId and no readable content: a hash of its bytes (see identity.ts). */
export function rawRecordKey(bytes: Buffer): string {
	return `h:${fnv1a64(bytes.toString('utf8'))}`;
}

function unreadableInquiry(
	original: string,
	readable: Record<string, unknown> | undefined,
	redact: ValueRedactor,
): UnreadableInquiry {
	// The problem is found in the text as sent (positions stay true); the words that quote it are redacted.
	const problem = jsonProblem(original);
	const what = problem ? `${problem.what} at character ${problem.at + 1}` : 'JSON.parse refused it';
	const text = redact(original);
	const cut = text.length > RAW_RECORD_MAX_CHARS;
	const where = cut
		? `its first ${RAW_RECORD_MAX_CHARS} characters are in rawRecord`
		: 'its text is in rawRecord';
	const inquiry: UnreadableInquiry = {
		...redact(readable),
		rawRecord: cut ? cutAt(text, RAW_RECORD_MAX_CHARS) : text,
		formWarnings: [redact(`the inquiry is not valid JSON (${what}); ${where}`)],
	};
	made.add(inquiry);
	return inquiry;
}

/** The first `length` characters, without splitting a surrogate pair. */
function cutAt(text: string, length: number): string {
	const last = text.charCodeAt(length - 1);
	return text.slice(0, last >= 0xd800 && last <= 0xdbff ? length - 1 : length);
}
