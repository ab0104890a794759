import { ByteSpan } from './byteSpan';
import * as jsonBytes from './jsonBytes';
import { parseJson, parseScalar, UNREADABLE } from './jsonPiece';
import {
	decodedSummaryKey,
	NOT_WHOLE,
	readWholeElement,
	spelledSummaryKey,
	type SummaryKeys,
} from './wholeElement';

// Read into module constants once: the hot loops compare every byte with them, and a
// loader that compiles imports to getters (tsx, which runs the tests and the
// benchmark) would call one per byte.
const {
	BACKSLASH,
	CLOSE_BRACE,
	CLOSE_BRACKET,
	COLON,
	COMMA,
	endsScalar,
	OPEN_BRACE,
	OPEN_BRACKET,
	QUOTE,
	skipWhitespace,
	startsEmptyScalar,
} = jsonBytes;

// Reads an answer `{ ...fields, "<listKey>": [ element, ... ] }` as its
// bytes arrive and hands over each element of the list, with a few of its
// scalar fields, without parsing it. What it reads and what it guarantees:
// README.md in this folder.

/**
 * The answer's shape: which list to hand over, and which fields of each element to read on the way.
 */
export interface JsonStreamShape {
	/** The top-level key of the list whose elements are handed over, e.g. "data". */
	listKey: string;
	/**
	 * Top-level fields of an element read for its summary when their value is a
	 * scalar, e.g. an id and a time.
	 */
	summaryKeys: readonly string[];
}

export type ScanOutcome =
	/** The answer is whole and was read; `hasData` says whether it had the list. */
	| { kind: 'complete'; fields: Record<string, unknown>; hasData: boolean }
	/** The bytes stopped in the middle of the JSON: the answer was cut short. */
	| { kind: 'cut-short' }
	/** Not an answer this scan reads (HTML, a list key that is not a list, trailing text, ...). */
	| { kind: 'unrecognised' };

/**
 * Takes each element of the list: its summary (undefined when it is not an
 * object) and a function that returns its bytes, to call at most once and
 * only during the call; most elements are let go without their bytes ever
 * being sliced out. An error it throws (a limit reached) stops the scan and
 * leaves push() as it is.
 */
export type ElementHandler = (
	summary: Record<string, unknown> | undefined,
	bytes: () => Buffer,
) => void;

/**
 * Where the scan is in the answer. The object states read the answer's own
 * object and each element that is an object alike; `inElement` says which.
 */
type ScanState =
	/** Before the answer's opening brace (a byte order mark and white space may come first). */
	| 'start'
	/** After an opening brace: a key, or the closing brace. */
	| 'firstKey'
	/** After a comma between members: a key. */
	| 'key'
	/** Inside a key's string. */
	| 'keyText'
	/** After a key: the colon. */
	| 'colon'
	/** After the colon: the first byte of a value. */
	| 'value'
	/** Inside a member's value, until it ends. */
	| 'valueRest'
	/** After a member's value: a comma, or the closing brace. */
	| 'afterValue'
	/** After the answer's closing brace: only white space may follow. */
	| 'end'
	/** After the list's opening bracket: an element, or the closing bracket. */
	| 'firstElement'
	/** After a comma between elements: an element. */
	| 'element'
	/** Inside an element that is not an object, until it ends. */
	| 'elementRest'
	/** After an element: a comma, or the closing bracket. */
	| 'afterElement'
	/** Not an answer this scan reads: the rest of the bytes are ignored. */
	| 'gaveUp';

/**
 * The kind of value being skipped: a scalar (number, true, false, null) runs to the next separator.
 */
type ValueKind = 'string' | 'nested' | 'scalar';

const BOM = [0xef, 0xbb, 0xbf];

class GiveUp extends Error {}

/**
 * The same bytes (not copied) through a Buffer made here. Node gives the
 * chunks a socket reads a hidden class of their own, which dies with the
 * last of them, and a full garbage collection then makes V8 drop every
 * optimized function that checked it. n8n collects its heap between polls a
 * minute apart, so each poll's scan started cold (docs/benchmarks.md, "One
 * poll of a small form, many times"). A Buffer made in JavaScript has the
 * class all such Buffers share, which lives as long as the process.
 */
function lastingView(bytes: Buffer): Buffer {
	return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length);
}

export class JsonStreamScanner {
	private state: ScanState = 'start';
	private bytesSeen = 0;
	private bomMatched = 0;
	private readonly fields: Array<[string, unknown]> = [];
	private hasList = false;
	/** The key of the answer's member being read. */
	private fieldKey = '';

	/** Whether the object being read is an element of the list (else it is the answer itself). */
	private inElement = false;
	private summary: Record<string, unknown> = {};
	/** The summary key the element's current member has, if it is one. */
	private summaryKey: string | undefined;
	/** The summary keys, and each as it appears on the wire, for comparing without decoding. */
	private readonly summaryKeys: SummaryKeys;

	private valueKind: ValueKind = 'scalar';
	private scalarDone = false;
	private readonly nesting: number[] = [];
	private inString = false;
	/** A backslash was the last byte of a chunk: the next chunk's first byte is escaped. */
	private escapePending = false;
	/**
	 * Whether a string read since this was last cleared had an escape (a key
	 * is then decoded to be compared).
	 */
	private stringHadEscape = false;
	/**
	 * Whether the current value is to be read (an answer's field, or a
	 * summary field), else only skipped.
	 */
	private capturingValue = false;

	/** The element being read (its bytes go to onElement) and the key or value being read. */
	private readonly element = new ByteSpan();
	private readonly piece = new ByteSpan();
	private elementChunk: Buffer | undefined;
	/** The length of the last element read whole in one go (wholeElement.ts). */
	private lastWholeLength = 0;
	private elementEnd = 0;
	private readonly elementBytes = (): Buffer =>
		this.element.end(this.elementChunk as Buffer, this.elementEnd);

	constructor(
		private readonly shape: JsonStreamShape,
		private readonly onElement: ElementHandler,
	) {
		this.summaryKeys = {
			names: shape.summaryKeys,
			quoted: shape.summaryKeys.map((key) => Buffer.from(JSON.stringify(key))),
		};
	}

	get gaveUp(): boolean {
		return this.state === 'gaveUp';
	}

	/** Reads the next bytes of the answer; after giving up, further bytes are ignored. */
	push(received: Buffer): void {
		if (this.state === 'gaveUp' || received.length === 0) return;
		const chunk = lastingView(received);
		let stopped: unknown;
		try {
			this.read(chunk);
			this.element.carry(chunk);
			this.piece.carry(chunk);
		} catch (error) {
			stopped = error;
		}
		if (stopped !== undefined) {
			// Only the scan's own GiveUp means "read it whole"; the handler stopping the
			// read (a limit) leaves as it is.
			if (!(stopped instanceof GiveUp)) throw stopped;
			this.state = 'gaveUp';
			this.element.clear();
			this.piece.clear();
		}
		this.bytesSeen += chunk.length;
	}

	/** After the last byte. */
	finish(): ScanOutcome {
		if (this.state === 'end')
			return { kind: 'complete', fields: Object.fromEntries(this.fields), hasData: this.hasList };
		return this.state === 'gaveUp' ? { kind: 'unrecognised' } : { kind: 'cut-short' };
	}

	private read(chunk: Buffer): void {
		const n = chunk.length;
		let i = 0;
		while (i < n) {
			const state = this.state;
			// Inside a key or a value the step reads on; between tokens it starts at the
			// next byte that is not white space.
			if (state === 'keyText') i = this.inKey(chunk, i);
			else if (state === 'valueRest') i = this.inValue(chunk, i);
			else if (state === 'elementRest') i = this.inElementValue(chunk, i);
			else if (state === 'gaveUp') return;
			else if ((i = skipWhitespace(chunk, i)) < n) {
				// A member's states first: most of an answer is there.
				switch (state) {
					case 'colon':
						i = this.atColon(chunk, i);
						break;
					case 'value':
						i = this.atValue(chunk, i);
						break;
					case 'afterValue':
						i = this.afterMember(chunk, i);
						break;
					case 'firstKey':
					case 'key':
						i = this.atKey(chunk, i);
						break;
					case 'afterElement':
						i = this.afterElement(chunk, i);
						break;
					case 'firstElement':
					case 'element':
						i = this.atElement(chunk, i);
						break;
					case 'start':
						i = this.atStart(chunk, i);
						break;
					default:
						throw new GiveUp(); // 'end': nothing but white space may follow the answer
				}
			}
		}
	}

	/** A byte order mark only at the very first bytes, then the answer's opening brace. */
	private atStart(chunk: Buffer, i: number): number {
		if (
			this.bytesSeen + i === this.bomMatched &&
			this.bomMatched < BOM.length &&
			chunk[i] === BOM[this.bomMatched]
		) {
			this.bomMatched++;
			return i + 1;
		}
		if ((this.bomMatched > 0 && this.bomMatched < BOM.length) || chunk[i] !== OPEN_BRACE)
			throw new GiveUp();
		this.inElement = false;
		this.state = 'firstKey';
		return i + 1;
	}

	/**
	 * A key's opening quote, or, right after the opening brace, the closing brace of an empty object.
	 */
	private atKey(chunk: Buffer, i: number): number {
		const byte = chunk[i];
		if (byte === CLOSE_BRACE && this.state === 'firstKey') {
			this.endObject(chunk, i + 1);
		} else if (byte === QUOTE) {
			this.piece.begin(i);
			this.stringHadEscape = false;
			this.inString = true;
			this.state = 'keyText';
		} else {
			throw new GiveUp();
		}
		return i + 1;
	}

	private inKey(chunk: Buffer, at: number): number {
		const i = this.skipString(chunk, at);
		if (this.inString) return i;
		if (this.inElement) this.summaryKey = this.summaryKeyAt(chunk, i);
		else this.fieldKey = readable(this.piece.read(chunk, i, parseJson)) as string;
		this.state = 'colon';
		return i;
	}

	private atColon(chunk: Buffer, i: number): number {
		if (chunk[i] !== COLON) throw new GiveUp();
		this.state = 'value';
		return i + 1;
	}

	private atValue(chunk: Buffer, i: number): number {
		if (!this.inElement && this.fieldKey === this.shape.listKey) {
			// A list key whose value is not a list, or that is given twice, is
			// left to the whole read to explain.
			if (chunk[i] !== OPEN_BRACKET || this.hasList) throw new GiveUp();
			this.hasList = true;
			this.state = 'firstElement';
			return i + 1;
		}
		const byte = chunk[i];
		const nested = byte === OPEN_BRACE || byte === OPEN_BRACKET;
		// Every field of the answer is read; of an element, only the scalar summary fields.
		this.capturingValue = !this.inElement || (this.summaryKey !== undefined && !nested);
		// As in JSON.parse, the last value of a repeated key wins, even one that is not a scalar.
		if (this.inElement && this.summaryKey !== undefined && nested)
			delete this.summary[this.summaryKey];
		if (this.capturingValue) this.piece.begin(i);
		this.state = 'valueRest';
		return this.startValue(chunk, i);
	}

	private inValue(chunk: Buffer, at: number): number {
		const i = this.skipValue(chunk, at);
		if (!this.valueDone()) return i;
		if (this.capturingValue) {
			if (this.inElement) this.takeSummaryValue(this.piece.read(chunk, i, parseScalar));
			else this.fields.push([this.fieldKey, readable(this.piece.read(chunk, i, parseJson))]);
			this.capturingValue = false;
		}
		this.state = 'afterValue';
		return i;
	}

	/**
	 * An element's first byte, or, right after the opening bracket, the
	 * closing bracket of an empty list.
	 */
	private atElement(chunk: Buffer, i: number): number {
		if (this.state === 'firstElement' && chunk[i] === CLOSE_BRACKET) {
			this.state = 'afterValue';
			return i + 1;
		}
		this.element.begin(i);
		if (chunk[i] !== OPEN_BRACE) {
			this.state = 'elementRest';
			return this.startValue(chunk, i);
		}
		this.summary = {};
		// Tried only where an element as long as the last one fits: one cut off by
		// the chunk's end is read twice.
		if (chunk.length - i >= this.lastWholeLength) {
			const end = readWholeElement(chunk, i, this.summaryKeys, this.summary, this.nesting);
			if (end !== NOT_WHOLE) {
				this.lastWholeLength = end - i;
				this.endElement(this.summary, chunk, end);
				return end;
			}
			this.summary = {};
		}
		this.inElement = true;
		this.state = 'firstKey';
		return i + 1;
	}

	private inElementValue(chunk: Buffer, at: number): number {
		const i = this.skipValue(chunk, at);
		if (this.valueDone()) this.endElement(undefined, chunk, i);
		return i;
	}

	/** After a member's value: a comma, or the closing brace. */
	private afterMember(chunk: Buffer, i: number): number {
		if (chunk[i] === COMMA) this.state = 'key';
		else if (chunk[i] === CLOSE_BRACE) this.endObject(chunk, i + 1);
		else throw new GiveUp();
		return i + 1;
	}

	/** After an element: a comma, or the closing bracket. */
	private afterElement(chunk: Buffer, i: number): number {
		if (chunk[i] === COMMA) this.state = 'element';
		else if (chunk[i] === CLOSE_BRACKET) this.state = 'afterValue';
		else throw new GiveUp();
		return i + 1;
	}

	/** A closing brace: of an element, which goes to onElement, or of the answer itself. */
	private endObject(chunk: Buffer, at: number): void {
		if (this.inElement) this.endElement(this.summary, chunk, at);
		else this.state = 'end';
	}

	private endElement(
		summary: Record<string, unknown> | undefined,
		chunk: Buffer,
		at: number,
	): void {
		this.elementChunk = chunk;
		this.elementEnd = at;
		this.onElement(summary, this.elementBytes);
		this.element.clear();
		this.inElement = false;
		this.state = 'afterElement';
	}

	/**
	 * The summary key the element key just read spells, or undefined for any other
	 * key (or one that does not parse).
	 */
	private summaryKeyAt(chunk: Buffer, end: number): string | undefined {
		return this.piece.read(
			chunk,
			end,
			this.stringHadEscape ? this.escapedKeyIn : this.summaryKeyIn,
		);
	}

	private readonly summaryKeyIn = (bytes: Buffer, start: number, end: number) =>
		spelledSummaryKey(bytes, start, end, this.summaryKeys);
	private readonly escapedKeyIn = (bytes: Buffer, start: number, end: number) =>
		decodedSummaryKey(bytes, start, end, this.summaryKeys);

	/**
	 * As in JSON.parse the last value of a key wins; one that does not parse leaves
	 * the element without that field.
	 */
	private takeSummaryValue(value: unknown): void {
		const key = this.summaryKey as string;
		if (value === UNREADABLE) delete this.summary[key];
		else this.summary[key] = value;
	}

	/**
	 * At a value's first byte (not white space): what kind it is; consumes the
	 * opening byte of a string or nesting.
	 */
	private startValue(chunk: Buffer, i: number): number {
		const byte = chunk[i];
		if (byte === QUOTE) {
			this.valueKind = 'string';
			this.inString = true;
			return i + 1;
		}
		if (byte === OPEN_BRACE || byte === OPEN_BRACKET) {
			this.valueKind = 'nested';
			this.inString = false;
			this.nesting.push(byte === OPEN_BRACE ? CLOSE_BRACE : CLOSE_BRACKET);
			return i + 1;
		}
		if (startsEmptyScalar(byte)) throw new GiveUp();
		this.valueKind = 'scalar';
		this.inString = false;
		return i;
	}

	private valueDone(): boolean {
		if (this.valueKind === 'scalar') return this.scalarDone;
		return this.valueKind === 'string' ? !this.inString : this.nesting.length === 0;
	}

	/** Goes on through the current value; valueDone() says whether it ended in this chunk. */
	private skipValue(chunk: Buffer, i: number): number {
		const n = chunk.length;
		if (this.valueKind === 'string') return this.skipString(chunk, i);
		if (this.valueKind === 'scalar') {
			this.scalarDone = false;
			while (i < n) {
				if (endsScalar(chunk[i])) {
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

/**
 * A piece of the answer's own object, which must parse: one that does not makes the scan give up.
 */
function readable(value: unknown): unknown {
	if (value === UNREADABLE) throw new GiveUp();
	return value;
}
