/**
 * Reads an inquiries answer, `{ ...fields, "data": [ {record}, ... ] }`, as
 * its bytes arrive, without parsing the records: the trigger needs only each
 * record's identity and times to decide what is new, and the whole record
 * only for the few it emits. A form of 100,000 inquiries is a 200 MB answer;
 * holding it, let alone parsing it, costs several times that in memory, and
 * in a busy n8n the garbage collector pays for every byte held.
 *
 * Each element of `data` is handed to `onElement` the moment its last byte
 * arrives, with its scalar summary fields (see SUMMARY_KEYS) and a view of
 * its bytes that is valid only during the call: the caller copies what it
 * keeps, and the rest of the chunk can be freed.
 *
 * The scan follows JSON's structure (strings, nesting, separators) but does
 * not check every token; anything in the answer's structure it does not
 * recognise makes it give up, and the caller reads the answer whole instead,
 * so an odd answer is never read differently, only more slowly.
 *
 * Inside a record it checks only that structure, not the text: a bare word
 * as a value, a raw control character in a string or a bad escape leave the
 * record's bounds clear, so the record is handed over like any other and its
 * fault is found when it is parsed (see unreadableInquiry.ts). A summary
 * field that does not parse is left out of that record's summary, as if the
 * record did not have it; it does not stop the scan.
 */

/** The top-level record fields that decide identity and time (see identity.ts, cursor.ts). */
const SUMMARY_KEYS = ['_id', 'requestId', 'addedon', 'updatedon'];
/** Each summary key as it appears on the wire, quotes included, for comparing without decoding. */
const SUMMARY_KEYS_QUOTED = SUMMARY_KEYS.map((key) => Buffer.from(JSON.stringify(key)));

export type ScanOutcome =
	/** The answer is whole and was read; `hasData` says whether it had a `data` list. */
	| { kind: 'complete'; fields: Record<string, unknown>; hasData: boolean }
	/** The bytes stopped in the middle of the JSON: the answer was cut short. */
	| { kind: 'cut-short' }
	/** Not an answer this scan reads (HTML, data that is not a list, trailing text, ...). */
	| { kind: 'unrecognised' };

/**
 * Takes each element of `data`: its summary fields (undefined when it is not
 * an object) and a function that returns its bytes, to call at most once and
 * only during the call; most elements are let go without their bytes ever
 * being sliced out. An error it throws (a limit reached) stops the scan and
 * leaves push() as it is.
 */
export type ElementHandler = (summary: Record<string, unknown> | undefined, bytes: () => Buffer) => void;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const COMMA = 0x2c;
const COLON = 0x3a;
const BOM = [0xef, 0xbb, 0xbf];

// Where the scan is in the answer's structure. The OBJECT_ states read the
// answer's own object and each record alike; inRecord says which one.
const TOP_START = 0;
const OBJECT_FIRST_KEY = 1;
const OBJECT_KEY = 2;
const KEY_TEXT = 3;
const COLON_NEXT = 4;
const VALUE = 5;
const VALUE_REST = 6;
const AFTER_VALUE = 7;
const TOP_END = 8;
const DATA_FIRST = 9;
const DATA_ELEMENT = 10;
const ELEMENT_REST = 11;
const DATA_AFTER_ELEMENT = 12;
const GAVE_UP = 13;

// The kind of value being skipped.
const STRING = 0;
const NESTED = 1;
const SCALAR = 2;

class GiveUp extends Error {}

/** A run of bytes that may span chunks: views of the earlier chunks, then the current one from `start`. */
class Span {
	private parts: Buffer[] = [];
	private start = -1;

	begin(at: number): void {
		if (this.parts.length > 0) this.parts = [];
		this.start = at;
	}

	/** Ends the run without reading it. */
	clear(): void {
		this.parts = [];
		this.start = -1;
	}


	/** At the end of a chunk: keep a view of its tail, and go on from the next chunk's first byte. */
	carry(chunk: Buffer): void {
		if (this.start < 0) return;
		if (this.start < chunk.length) this.parts.push(chunk.subarray(this.start));
		this.start = 0;
	}

	end(chunk: Buffer, at: number): Buffer {
		const last = chunk.subarray(this.start, at);
		const bytes = this.parts.length === 0 ? last : Buffer.concat([...this.parts, last]);
		this.clear();
		return bytes;
	}

	/** Ends the run and hands it to `use` as (bytes, start, end), copying only a run that spans chunks. */
	read<T>(chunk: Buffer, at: number, use: (bytes: Buffer, start: number, end: number) => T): T {
		if (this.parts.length > 0) {
			const joined = this.end(chunk, at);
			return use(joined, 0, joined.length);
		}
		const start = this.start;
		this.start = -1;
		return use(chunk, start, at);
	}
}

export class InquiryStreamScanner {
	private state = TOP_START;
	private bytesSeen = 0;
	private bomMatched = 0;
	private readonly fields: Array<[string, unknown]> = [];
	private hasData = false;
	private topKey = '';

	/** Whether the object being read is a record (else it is the answer itself). */
	private inRecord = false;
	private summary: Record<string, unknown> = {};
	private recordKey: string | undefined;

	private valueKind = SCALAR;
	private scalarDone = false;
	private readonly nesting: number[] = [];
	private inString = false;
	/** A backslash was the last byte of a chunk: the next chunk's first byte is escaped. */
	private escapePending = false;
	/** Whether a string read since this was last cleared had an escape (a record key is then decoded to be compared). */
	private stringHadEscape = false;
	/** Whether the current record value is a summary field to read (else it is only skipped). */
	private capturingValue = false;

	/** The element being read (its bytes go to onElement) and the key or value being read. */
	private readonly element = new Span();
	private readonly piece = new Span();

	constructor(private readonly onElement: ElementHandler) {}

	get gaveUp(): boolean {
		return this.state === GAVE_UP;
	}

	/** Reads the next bytes of the answer; after giving up, further bytes are ignored. */
	push(chunk: Buffer): void {
		if (this.state === GAVE_UP || chunk.length === 0) return;
		let stopped: unknown;
		try {
			this.read(chunk);
			this.element.carry(chunk);
			this.piece.carry(chunk);
		} catch (error) {
			stopped = error;
		}
		if (stopped !== undefined) {
			// Only the scan's own GiveUp means "read it whole"; the handler stopping the read (a limit) leaves as it is.
			if (!(stopped instanceof GiveUp)) throw stopped;
			this.state = GAVE_UP;
			this.element.clear();
			this.piece.clear();
		}
		this.bytesSeen += chunk.length;
	}

	/** After the last byte. */
	finish(): ScanOutcome {
		if (this.state === TOP_END) return { kind: 'complete', fields: Object.fromEntries(this.fields), hasData: this.hasData };
		return this.state === GAVE_UP ? { kind: 'unrecognised' } : { kind: 'cut-short' };
	}

	private read(chunk: Buffer): void {
		const n = chunk.length;
		let i = 0;
		while (i < n) {
			switch (this.state) {
				case TOP_START: {
					if (this.bytesSeen + i === this.bomMatched && this.bomMatched < BOM.length && chunk[i] === BOM[this.bomMatched]) {
						this.bomMatched++;
						i++;
						break;
					}
					if (this.bomMatched > 0 && this.bomMatched < BOM.length) throw new GiveUp();
					i = skipWhitespace(chunk, i);
					if (i === n) break;
					if (chunk[i] !== OPEN_BRACE) throw new GiveUp();
					i++;
					this.inRecord = false;
					this.state = OBJECT_FIRST_KEY;
					break;
				}
				case OBJECT_FIRST_KEY:
				case OBJECT_KEY: {
					i = skipWhitespace(chunk, i);
					if (i === n) break;
					const byte = chunk[i++];
					if (byte === CLOSE_BRACE && this.state === OBJECT_FIRST_KEY) {
						this.endObject(chunk, i);
					} else if (byte === QUOTE) {
						this.piece.begin(i - 1);
						this.stringHadEscape = false;
						this.inString = true;
						this.state = KEY_TEXT;
					} else {
						throw new GiveUp();
					}
					break;
				}
				case KEY_TEXT: {
					i = this.skipString(chunk, i);
					if (this.inString) break;
					if (this.inRecord) this.recordKey = this.summaryKeyAt(chunk, i);
					else this.topKey = readable(this.piece.read(chunk, i, parseJson)) as string;
					this.state = COLON_NEXT;
					break;
				}
				case COLON_NEXT: {
					i = skipWhitespace(chunk, i);
					if (i === n) break;
					if (chunk[i] !== COLON) throw new GiveUp();
					i++;
					this.state = VALUE;
					break;
				}
				case VALUE: {
					i = skipWhitespace(chunk, i);
					if (i === n) break;
					if (!this.inRecord && this.topKey === 'data') {
						// data that is not a list, or data given twice, is left to the whole read to explain.
						if (chunk[i] !== OPEN_BRACKET || this.hasData) throw new GiveUp();
						this.hasData = true;
						i++;
						this.state = DATA_FIRST;
						break;
					}
					const byte = chunk[i];
					const nested = byte === OPEN_BRACE || byte === OPEN_BRACKET;
					// Every top-level field is read; of a record, only the scalar summary fields.
					this.capturingValue = !this.inRecord || (this.recordKey !== undefined && !nested);
					// As in JSON.parse, the last value of a repeated key wins, even one that is not a scalar.
					if (this.inRecord && this.recordKey !== undefined && nested) delete this.summary[this.recordKey];
					if (this.capturingValue) this.piece.begin(i);
					i = this.startValue(chunk, i);
					this.state = VALUE_REST;
					break;
				}
				case VALUE_REST: {
					i = this.skipValue(chunk, i);
					if (!this.valueDone()) break;
					if (this.capturingValue) {
						if (this.inRecord) this.takeSummaryValue(this.piece.read(chunk, i, parseScalar));
						else this.fields.push([this.topKey, readable(this.piece.read(chunk, i, parseJson))]);
						this.capturingValue = false;
					}
					this.state = AFTER_VALUE;
					break;
				}
				case AFTER_VALUE: {
					i = skipWhitespace(chunk, i);
					if (i === n) break;
					const byte = chunk[i++];
					if (byte === COMMA) this.state = OBJECT_KEY;
					else if (byte === CLOSE_BRACE) this.endObject(chunk, i);
					else throw new GiveUp();
					break;
				}
				case TOP_END: {
					i = skipWhitespace(chunk, i);
					if (i < n) throw new GiveUp();
					break;
				}
				case DATA_FIRST: {
					i = skipWhitespace(chunk, i);
					if (i === n) break;
					if (chunk[i] === CLOSE_BRACKET) {
						i++;
						this.state = AFTER_VALUE;
					} else {
						this.state = DATA_ELEMENT;
					}
					break;
				}
				case DATA_ELEMENT: {
					i = skipWhitespace(chunk, i);
					if (i === n) break;
					this.element.begin(i);
					if (chunk[i] === OPEN_BRACE) {
						this.summary = {};
						this.inRecord = true;
						i++;
						this.state = OBJECT_FIRST_KEY;
					} else {
						i = this.startValue(chunk, i);
						this.state = ELEMENT_REST;
					}
					break;
				}
				case ELEMENT_REST: {
					i = this.skipValue(chunk, i);
					if (!this.valueDone()) break;
					this.endElement(undefined, chunk, i);
					break;
				}
				case DATA_AFTER_ELEMENT: {
					i = skipWhitespace(chunk, i);
					if (i === n) break;
					const byte = chunk[i++];
					if (byte === COMMA) this.state = DATA_ELEMENT;
					else if (byte === CLOSE_BRACKET) this.state = AFTER_VALUE;
					else throw new GiveUp();
					break;
				}
				default:
					return;
			}
		}
	}

	/** A closing brace: of a record, which goes to onElement, or of the answer itself. */
	private endObject(chunk: Buffer, at: number): void {
		if (this.inRecord) this.endElement(this.summary, chunk, at);
		else this.state = TOP_END;
	}

	private endElement(summary: Record<string, unknown> | undefined, chunk: Buffer, at: number): void {
		this.elementChunk = chunk;
		this.elementEnd = at;
		this.onElement(summary, this.elementBytes);
		this.element.clear();
		this.inRecord = false;
		this.state = DATA_AFTER_ELEMENT;
	}

	private elementChunk: Buffer | undefined;
	private elementEnd = 0;
	private readonly elementBytes = (): Buffer => this.element.end(this.elementChunk as Buffer, this.elementEnd);

	/** The summary key the record key just read spells, or undefined for any other key (or one that does not parse). */
	private summaryKeyAt(chunk: Buffer, end: number): string | undefined {
		if (this.stringHadEscape) {
			const key = this.piece.read(chunk, end, parseJson);
			return typeof key === 'string' && SUMMARY_KEYS.includes(key) ? key : undefined;
		}
		return this.piece.read(chunk, end, summaryKeyIn);
	}

	/** As in JSON.parse the last value of a key wins; one that does not parse leaves the record without that field. */
	private takeSummaryValue(value: unknown): void {
		const key = this.recordKey as string;
		if (value === UNREADABLE) delete this.summary[key];
		else this.summary[key] = value;
	}

	/** At a value's first byte (not whitespace): what kind it is; consumes the opening byte of a string or nesting. */
	private startValue(chunk: Buffer, i: number): number {
		const byte = chunk[i];
		if (byte === QUOTE) {
			this.valueKind = STRING;
			this.inString = true;
			return i + 1;
		}
		if (byte === OPEN_BRACE || byte === OPEN_BRACKET) {
			this.valueKind = NESTED;
			this.inString = false;
			this.nesting.push(byte === OPEN_BRACE ? CLOSE_BRACE : CLOSE_BRACKET);
			return i + 1;
		}
		// A number, true, false or null runs to the next separator; an empty one is not JSON.
		if (byte === COMMA || byte === CLOSE_BRACE || byte === CLOSE_BRACKET || byte === COLON) throw new GiveUp();
		this.valueKind = SCALAR;
		this.inString = false;
		return i;
	}

	private valueDone(): boolean {
		return this.valueKind === SCALAR ? this.scalarDone : this.valueKind === STRING ? !this.inString : this.nesting.length === 0;
	}

	/** Goes on through the current value; valueDone() says whether it ended in this chunk. */
	private skipValue(chunk: Buffer, i: number): number {
		const n = chunk.length;
		if (this.valueKind === STRING) return this.skipString(chunk, i);
		if (this.valueKind === SCALAR) {
			this.scalarDone = false;
			while (i < n) {
				const byte = chunk[i];
				if (byte === COMMA || byte === CLOSE_BRACE || byte === CLOSE_BRACKET || isWhitespace(byte)) {
					this.scalarDone = true;
					return i;
				}
				i++;
			}
			return i;
		}
		const nesting = this.nesting;
		while (i < n) {
			if (this.inString) {
				i = this.skipString(chunk, i);
				continue;
			}
			const byte = chunk[i++];
			if (byte === QUOTE) this.inString = true;
			else if (byte === OPEN_BRACE) nesting.push(CLOSE_BRACE);
			else if (byte === OPEN_BRACKET) nesting.push(CLOSE_BRACKET);
			else if (byte === CLOSE_BRACE || byte === CLOSE_BRACKET) {
				if (nesting.pop() !== byte) throw new GiveUp();
				if (nesting.length === 0) return i;
			}
		}
		return i;
	}

	/** Inside a string: to just past its closing quote, or to the end of the chunk. */
	private skipString(chunk: Buffer, i: number): number {
		const n = chunk.length;
		if (this.escapePending) {
			this.escapePending = false;
			i++;
		}
		while (i < n) {
			const byte = chunk[i];
			if (byte === QUOTE) {
				this.inString = false;
				return i + 1;
			}
			if (byte === BACKSLASH) {
				this.stringHadEscape = true;
				if (i + 1 === n) {
					this.escapePending = true;
					return n;
				}
				i += 2;
			} else {
				i++;
			}
		}
		return n;
	}
}

/** Which summary key these bytes (a key without escapes, quotes included) spell, compared in place. */
function summaryKeyIn(bytes: Buffer, start: number, end: number): string | undefined {
	const length = end - start;
	for (let k = 0; k < SUMMARY_KEYS_QUOTED.length; k++) {
		const candidate = SUMMARY_KEYS_QUOTED[k];
		if (candidate.length !== length) continue;
		let same = true;
		for (let j = 1; j < length - 1 && same; j++) same = bytes[start + j] === candidate[j];
		if (same) return SUMMARY_KEYS[k];
	}
	return undefined;
}

/**
 * A summary value. Whole numbers and strings without escapes, which is what
 * ids and timestamps are, are read straight from the bytes; anything else
 * by JSON.parse, which also rejects what is not JSON (UNREADABLE).
 */
function parseScalar(bytes: Buffer, start: number, end: number): unknown {
	const first = bytes[start];
	if (first === QUOTE) {
		let ascii = true;
		for (let i = start + 1; i < end - 1; i++) {
			const byte = bytes[i];
			if (byte === BACKSLASH || byte < 0x20) return parseJson(bytes, start, end);
			if (byte >= 0x80) ascii = false;
		}
		return bytes.toString(ascii ? 'latin1' : 'utf8', start + 1, end - 1);
	}
	const negative = first === 0x2d;
	const digitsFrom = negative ? start + 1 : start;
	const digits = end - digitsFrom;
	// Up to 15 digits is exact in a double; a leading zero is not JSON and goes to JSON.parse to be refused.
	if (digits < 1 || digits > 15 || (bytes[digitsFrom] === 0x30 && digits > 1)) return parseJson(bytes, start, end);
	let value = 0;
	for (let i = digitsFrom; i < end; i++) {
		const digit = bytes[i] - 0x30;
		if (digit < 0 || digit > 9) return parseJson(bytes, start, end);
		value = value * 10 + digit;
	}
	return negative ? -value : value;
}

function skipWhitespace(chunk: Buffer, i: number): number {
	while (i < chunk.length && isWhitespace(chunk[i])) i++;
	return i;
}

function isWhitespace(byte: number | undefined): boolean {
	return byte === 0x20 || byte === 0x0a || byte === 0x0d || byte === 0x09;
}

/** What parseJson gives for a piece that is not JSON. */
const UNREADABLE = Symbol('unreadable');

/** JSON.parse of a small piece, or UNREADABLE. */
function parseJson(bytes: Buffer, start: number, end: number): unknown {
	try {
		return JSON.parse(bytes.toString('utf8', start, end)) as unknown;
	} catch {
		return UNREADABLE;
	}
}

/** A piece of the answer's own object, which must parse: one that does not makes the scan give up. */
function readable(value: unknown): unknown {
	if (value === UNREADABLE) throw new GiveUp();
	return value;
}
