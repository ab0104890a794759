/**
 * Inquiries answers written as a server streams them, for tests that need
 * more than the emulator serves: answers that never end, or that go on past
 * a bound, built record by record so the server itself holds almost nothing.
 */

/** The form a memory measurement reads, and the one its warm-up reads (test/support/memoryOfOneCall.ts). */
export const MEASURED_FORM = 'formbuilder_1001_1';
export const WARMUP_FORM = 'formbuilder_1001_2';
/** How the measurement's line of output starts. */
export const MEASURED_LINE = 'measured: ';

/** 2023-11-14T22:13:20Z in seconds: the first record's addedon; each next one is a second later. */
export const FIRST_ADDEDON = 1_700_000_000;

const ANSWER_START = '{"status":"success","msg":"Record found","data":[';
const ANSWER_END = ']}';
const FIELD_NAMES = [
	'name',
	'email',
	'phone',
	'company',
	'city',
	'country',
	'budget',
	'source',
	'product',
	'message',
];

/** A record's text around its id and times, rendered once (JSON.stringify per record would slow the server). */
function recordTemplate(padding: number): (seq: number) => string {
	const values = FIELD_NAMES.map((name) =>
		name === 'message'
			? `Hello, I would like to know more about your services.${' Thanks.'.repeat(padding)}`
			: `${name} of a lead`,
	);
	const labels = FIELD_NAMES.map((name) => name[0].toUpperCase() + name.slice(1));
	const builder = FIELD_NAMES.map((name, i) => ({
		fieldName: name,
		fieldIdentifire: name,
		fieldLabel: labels[i],
		fieldValue: values[i],
	}));
	const fields = JSON.stringify({
		formName: 'Contact Us',
		formData: [values, labels, FIELD_NAMES],
		formbuilderData: JSON.stringify(builder),
		readStatus: 1,
	}).slice(1, -1);
	return (seq) => {
		const time = FIRST_ADDEDON + seq;
		return `{"_id":"lead${String(seq).padStart(10, '0')}",${fields},"addedon":${time},"updatedon":${time}}`;
	};
}

const plainRecord = recordTemplate(0);

/** The JSON text of a record shaped like the API's (about 1.8 KB), dated `FIRST_ADDEDON + seq` seconds. */
export function inquiryText(seq: number): string {
	return plainRecord(seq);
}

/**
 * Records from `first` on, `perChunk` to a chunk, in one list that never
 * closes; `padding` lengthens each record's message by 8 characters a unit.
 */
export function* endlessInquiries(
	options: { first?: number; perChunk?: number; padding?: number } = {},
): Generator<Buffer> {
	const perChunk = options.perChunk ?? 50;
	const record = recordTemplate(options.padding ?? 0);
	yield Buffer.from(ANSWER_START);
	for (let seq = options.first ?? 0; ; seq += perChunk) {
		const records: string[] = [];
		for (let i = 0; i < perChunk; i++) records.push(record(seq + i));
		yield Buffer.from(`${seq === (options.first ?? 0) ? '' : ','}${records.join(',')}`);
	}
}

/**
 * A complete answer of `count` records, in chunks of `perChunk`; `after` is
 * written after the answer's end (text that makes it unreadable as a whole).
 */
export function* finiteInquiries(
	count: number,
	options: { perChunk?: number; after?: string } = {},
): Generator<Buffer> {
	const perChunk = options.perChunk ?? 50;
	yield Buffer.from(ANSWER_START);
	for (let seq = 0; seq < count; seq += perChunk) {
		const records: string[] = [];
		for (let i = seq; i < Math.min(count, seq + perChunk); i++) records.push(inquiryText(i));
		yield Buffer.from(`${seq === 0 ? '' : ','}${records.join(',')}`);
	}
	yield Buffer.from(`${ANSWER_END}${options.after ?? ''}`);
}
