import { fnv1a64Halves } from '../../../shared/text/fnv1a64';

// An invertible Bloom lookup table (Goodrich and Mitzenmacher, 2011) of keys' 64-bit hashes, in which the
// cursor keeps the undated inquiries it handled (ARCHITECTURE.md, "The cursor").

export const SUBTABLES = 5;
/** Cells per part of a new table: 300 cells, 4,800 bytes, 6,404 characters stored when most are in use. */
export const DEFAULT_CELLS_PER_SUBTABLE = 60;
/** Keys a difference of the default table decodes: in simulation 150 every time, first failures near 170. */
export const CHANGES_TOLD_APART = 150;
/** A stored table larger than this is damaged, not written by any release. */
export const MAX_CELLS_PER_SUBTABLE = 1024;
const CELL_BYTES = 16;
/** Stored layout byte, then the cells per part as a 16-bit number. */
const HEADER_BYTES = 3;
const DENSE = 1;
const SPARSE = 2;
const MAX_STORED_LENGTH =
	Math.ceil((HEADER_BYTES + MAX_CELLS_PER_SUBTABLE * SUBTABLES * CELL_BYTES) / 3) * 4;

/** A key's 64-bit hash as two unsigned 32-bit halves, and its text form for maps. */
export interface KeyHash {
	high: number;
	low: number;
}

export function keyHash(key: string): KeyHash {
	const [high, low] = fnv1a64Halves(key);
	return { high, low };
}

export function hashText(hash: KeyHash): string {
	return hash.high.toString(16).padStart(8, '0') + hash.low.toString(16).padStart(8, '0');
}

/** Words per cell: its count of keys, then the XOR of their hashes' high halves, low halves and checks. */
const WORDS = 4;

export class KeySetTable {
	/** Every cell's words, part after part. */
	readonly words: Int32Array;

	constructor(readonly size: number) {
		this.words = new Int32Array(SUBTABLES * size * WORDS);
	}

	get cells(): number {
		return SUBTABLES * this.size;
	}

	/** Adds (sign 1) or takes out (sign -1) one key's hash. */
	toggle(hash: KeyHash, sign: 1 | -1): void {
		const check = checkOf(hash);
		for (let part = 0; part < SUBTABLES; part++) {
			const at = WORDS * this.cellOf(hash, part);
			this.words[at] += sign;
			this.words[at + 1] ^= hash.high;
			this.words[at + 2] ^= hash.low;
			this.words[at + 3] ^= check;
		}
	}

	cellOf(hash: KeyHash, part: number): number {
		return (
			part * this.size +
			(mix32(hash.low ^ mix32((hash.high + Math.imul(part + 1, 0x9e3779b9)) >>> 0)) % this.size)
		);
	}

	countOf(cell: number): number {
		return this.words[WORDS * cell];
	}

	isEmptyCell(cell: number): boolean {
		const at = WORDS * cell;
		return (this.words[at] | this.words[at + 1] | this.words[at + 2] | this.words[at + 3]) === 0;
	}

	copy(): KeySetTable {
		const copy = new KeySetTable(this.size);
		copy.words.set(this.words);
		return copy;
	}

	/** The hash a cell holds alone, with its sign, if it holds exactly one. */
	loneHash(cell: number): { hash: KeyHash; sign: 1 | -1 } | undefined {
		const at = WORDS * cell;
		const count = this.words[at];
		if (count !== 1 && count !== -1) return undefined;
		const hash = { high: this.words[at + 1] >>> 0, low: this.words[at + 2] >>> 0 };
		if (checkOf(hash) !== this.words[at + 3] >>> 0) return undefined;
		if (this.cellOf(hash, Math.floor(cell / this.size)) !== cell) return undefined;
		return { hash, sign: count };
	}

	/**
	 * Stored form, base64: empty for an empty table; else a header (its
	 * layout and the cells per part) and either every cell or, when that is
	 * shorter, only the cells not empty, each with its place.
	 */
	encode(): string {
		const used: number[] = [];
		for (let cell = 0; cell < this.cells; cell++) if (!this.isEmptyCell(cell)) used.push(cell);
		if (used.length === 0) return '';
		const sparse = used.length * (CELL_BYTES + 2) < this.cells * CELL_BYTES;
		const bytes = Buffer.alloc(
			HEADER_BYTES + (sparse ? used.length * (CELL_BYTES + 2) : this.cells * CELL_BYTES),
		);
		bytes.writeUInt8(sparse ? SPARSE : DENSE, 0);
		bytes.writeUInt16BE(this.size, 1);
		let at = HEADER_BYTES;
		for (const cell of sparse ? used : Array.from({ length: this.cells }, (_, cell) => cell)) {
			if (sparse) {
				bytes.writeUInt16BE(cell, at);
				at += 2;
			}
			for (let word = WORDS * cell; word < WORDS * (cell + 1); word++, at += 4)
				bytes.writeInt32BE(this.words[word], at);
		}
		return bytes.toString('base64');
	}
}

/** Reads a stored table; empty text is an empty table of `emptySize` cells per part. */
export function decodeKeySetTable(text: string, emptySize: number): KeySetTable {
	if (text === '') return new KeySetTable(emptySize);
	const problem = keySetTableProblem(text);
	if (problem !== undefined)
		throw new Error(`The table of undated inquiries is damaged: ${problem}`);
	const bytes = Buffer.from(text, 'base64');
	const table = new KeySetTable(bytes.readUInt16BE(1));
	const sparse = bytes.readUInt8(0) === SPARSE;
	let at = HEADER_BYTES;
	let cell = 0;
	while (at < bytes.length) {
		if (sparse) {
			cell = bytes.readUInt16BE(at);
			at += 2;
		}
		for (let word = WORDS * cell; word < WORDS * (cell + 1); word++, at += 4)
			table.words[word] = bytes.readInt32BE(at);
		cell++;
	}
	return table;
}

/** What keeps a stored text from being a table, in words for an error; undefined if nothing. */
export function keySetTableProblem(text: string): string | undefined {
	if (text === '') return undefined;
	if (text.length > MAX_STORED_LENGTH) return 'it is longer than any release writes';
	const bytes = Buffer.from(text, 'base64');
	// Buffer.from skips what is not base64; only a text that is exactly the encoding of its bytes is one.
	if (bytes.toString('base64') !== text) return 'it is not base64';
	if (bytes.length < HEADER_BYTES) return 'it is too short';
	const layout = bytes.readUInt8(0);
	const size = bytes.readUInt16BE(1);
	if (size < 1 || size > MAX_CELLS_PER_SUBTABLE)
		return `its ${size} cells per part are not 1 to ${MAX_CELLS_PER_SUBTABLE}`;
	const cells = SUBTABLES * size;
	const body = bytes.length - HEADER_BYTES;
	if (layout === DENSE)
		return body === cells * CELL_BYTES ? undefined : `it does not hold ${cells} cells`;
	if (layout !== SPARSE) return 'its layout is unknown';
	if (body === 0 || body % (CELL_BYTES + 2) !== 0) return 'its cells are cut short';
	let previous = -1;
	for (let at = HEADER_BYTES; at < bytes.length; at += CELL_BYTES + 2) {
		const cell = bytes.readUInt16BE(at);
		if (cell <= previous || cell >= cells) return 'its cells are out of order or out of range';
		previous = cell;
	}
	return undefined;
}

export function tableOf(hashes: Iterable<KeyHash>, size: number): KeySetTable {
	const table = new KeySetTable(size);
	for (const hash of hashes) table.toggle(hash, 1);
	return table;
}

/** A check of a hash, independent of the cell it lands in. */
function checkOf(hash: KeyHash): number {
	return mix32((hash.high ^ mix32((hash.low ^ 0x5bd1e995) >>> 0)) >>> 0);
}

/** MurmurHash3's 32-bit finalizer: every input bit moves every output bit. */
function mix32(value: number): number {
	let h = value >>> 0;
	h ^= h >>> 16;
	h = Math.imul(h, 0x85ebca6b);
	h ^= h >>> 13;
	h = Math.imul(h, 0xc2b2ae35);
	h ^= h >>> 16;
	return h >>> 0;
}
