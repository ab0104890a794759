/**
 * Reads an inquiries answer, `{ ...fields, "data": [ {record}, ... ] }`,
 * straight from its bytes without parsing every record: the trigger needs
 * only each record's identity and times to decide what is new, and the full
 * record only for the few it emits. A form of 100,000 inquiries is a 200 MB
 * answer; parsing all of it costs several times that in memory.
 *
 * The scan follows JSON's structure (strings, nesting, separators) but does
 * not check every token; anything it does not recognise makes it give up
 * (undefined), and the caller parses the answer whole as before, so an odd
 * answer is never read differently, only more slowly.
 */

/** The top-level record fields that decide identity and time (see identity.ts, cursor.ts). */
const SUMMARY_KEYS = new Set(['_id', 'requestId', 'addedon', 'updatedon']);
const SUMMARY_KEY_LENGTHS = new Set([...SUMMARY_KEYS].map((key) => key.length));

export interface ScannedRecord {
	/** Byte offsets of the record in the answer. */
	start: number;
	end: number;
	/** The record's scalar summary fields, or undefined when the record is not an object. */
	summary?: Record<string, unknown>;
}

export interface ScannedBody {
	/** Every top-level field except data, parsed. */
	fields: Record<string, unknown>;
	/** The elements of data in order; undefined when the answer has no data field. */
	records?: ScannedRecord[];
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const COMMA = 0x2c;
const COLON = 0x3a;

class GiveUp extends Error {}

export function scanInquiryBody(body: Buffer): ScannedBody | undefined {
	try {
		return new Scanner(body).body();
	} catch {
		// GiveUp, or anything unforeseen: the full parse reads the answer instead.
		return undefined;
	}
}

class Scanner {
	private pos = 0;

	constructor(private readonly buf: Buffer) {
		// A UTF-8 byte order mark is not part of the JSON.
		if (buf[0] === 0xef && buf[1] === 0xbb && buf[2] === 0xbf) this.pos = 3;
	}

	body(): ScannedBody {
		const fields: Record<string, unknown> = {};
		let records: ScannedRecord[] | undefined;
		this.expect(OPEN_BRACE);
		if (this.peek() === CLOSE_BRACE) {
			this.pos++;
		} else {
			for (;;) {
				const key = this.key();
				if (key === 'data' && this.peek() === OPEN_BRACKET) {
					if (records) throw new GiveUp();
					records = this.records();
				} else {
					// data that is not a list is left for the full parse to explain.
					if (key === 'data') throw new GiveUp();
					const start = this.pos;
					this.skipValue();
					fields[key] = parseJson(this.buf.toString('utf8', start, this.pos));
				}
				if (this.separator(CLOSE_BRACE)) break;
			}
		}
		this.skipWhitespace();
		if (this.pos !== this.buf.length) throw new GiveUp();
		return { fields, records };
	}

	private records(): ScannedRecord[] {
		const records: ScannedRecord[] = [];
		this.pos++; // [
		if (this.peek() === CLOSE_BRACKET) {
			this.pos++;
			return records;
		}
		for (;;) {
			this.skipWhitespace();
			const start = this.pos;
			if (this.buf[this.pos] === OPEN_BRACE) {
				const summary = this.recordSummary();
				records.push({ start, end: this.pos, summary });
			} else {
				this.skipValue();
				records.push({ start, end: this.pos });
			}
			if (this.separator(CLOSE_BRACKET)) return records;
		}
	}

	/** Walks one record's top-level fields, keeping the scalar summary fields (the last one wins, as in JSON.parse). */
	private recordSummary(): Record<string, unknown> {
		const summary: Record<string, unknown> = {};
		this.pos++; // {
		if (this.peek() === CLOSE_BRACE) {
			this.pos++;
			return summary;
		}
		for (;;) {
			const key = this.key(SUMMARY_KEY_LENGTHS);
			const start = this.pos;
			const first = this.buf[start];
			this.skipValue();
			if (key !== undefined && SUMMARY_KEYS.has(key)) {
				if (first === OPEN_BRACE || first === OPEN_BRACKET) delete summary[key];
				else summary[key] = parseJson(this.buf.toString('utf8', start, this.pos));
			}
			if (this.separator(CLOSE_BRACE)) return summary;
		}
	}

	/**
	 * Reads `"key":` and leaves the position at the value. With `onlyLengths`,
	 * keys of other byte lengths are skipped without being decoded (undefined).
	 */
	private key(): string;
	private key(onlyLengths: Set<number>): string | undefined;
	private key(onlyLengths?: Set<number>): string | undefined {
		this.skipWhitespace();
		if (this.buf[this.pos] !== QUOTE) throw new GiveUp();
		const start = this.pos;
		this.skipString();
		const end = this.pos;
		this.skipWhitespace();
		if (this.buf[this.pos] !== COLON) throw new GiveUp();
		this.pos++;
		this.skipWhitespace();
		const escaped = this.buf.indexOf(BACKSLASH, start) < end && this.buf.indexOf(BACKSLASH, start) >= 0;
		if (onlyLengths && !escaped && !onlyLengths.has(end - start - 2)) return undefined;
		return parseJson(this.buf.toString('utf8', start, end)) as string;
	}

	/** After a value: true at the closing byte (consumed), false after a comma. */
	private separator(closing: number): boolean {
		this.skipWhitespace();
		const byte = this.buf[this.pos++];
		if (byte === closing) return true;
		if (byte === COMMA) return false;
		throw new GiveUp();
	}

	private skipValue(): void {
		const byte = this.buf[this.pos];
		if (byte === QUOTE) return this.skipString();
		if (byte === OPEN_BRACE || byte === OPEN_BRACKET) return this.skipNested();
		// A number, true, false or null: runs to the next separator.
		const start = this.pos;
		while (this.pos < this.buf.length) {
			const next = this.buf[this.pos];
			if (next === COMMA || next === CLOSE_BRACE || next === CLOSE_BRACKET || isWhitespace(next)) break;
			this.pos++;
		}
		if (this.pos === start) throw new GiveUp();
	}

	/** From an opening quote to just past its closing quote; escapes are jumped over. */
	private skipString(): void {
		let from = this.pos + 1;
		for (;;) {
			const quote = this.buf.indexOf(QUOTE, from);
			if (quote < 0) throw new GiveUp();
			let backslashes = 0;
			while (this.buf[quote - 1 - backslashes] === BACKSLASH) backslashes++;
			if (backslashes % 2 === 0) {
				this.pos = quote + 1;
				return;
			}
			from = quote + 1;
		}
	}

	/** An object or array, whatever it holds. */
	private skipNested(): void {
		const closers: number[] = [];
		do {
			const byte = this.buf[this.pos];
			if (byte === undefined) throw new GiveUp();
			if (byte === QUOTE) {
				this.skipString();
				continue;
			}
			if (byte === OPEN_BRACE) closers.push(CLOSE_BRACE);
			else if (byte === OPEN_BRACKET) closers.push(CLOSE_BRACKET);
			else if (byte === CLOSE_BRACE || byte === CLOSE_BRACKET) {
				if (closers.pop() !== byte) throw new GiveUp();
			}
			this.pos++;
		} while (closers.length > 0);
	}

	private peek(): number | undefined {
		this.skipWhitespace();
		return this.buf[this.pos];
	}

	private expect(byte: number): void {
		if (this.peek() !== byte) throw new GiveUp();
		this.pos++;
	}

	private skipWhitespace(): void {
		while (isWhitespace(this.buf[this.pos])) this.pos++;
	}
}

function isWhitespace(byte: number | undefined): boolean {
	return byte === 0x20 || byte === 0x0a || byte === 0x0d || byte === 0x09;
}

/** JSON.parse of a small piece; a piece that does not parse makes the scan give up. */
function parseJson(text: string): unknown {
	const parsed = tryParse(text);
	if (!parsed.ok) throw new GiveUp();
	return parsed.value;
}

function tryParse(text: string): { ok: true; value: unknown } | { ok: false } {
	try {
		return { ok: true, value: JSON.parse(text) as unknown };
	} catch {
		return { ok: false };
	}
}
