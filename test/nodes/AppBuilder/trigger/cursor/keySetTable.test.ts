import {
	decodeKeySetTable,
	DEFAULT_CELLS_PER_SUBTABLE,
	hashText,
	keyHash,
	SUBTABLES,
	tableOf,
	keySetTableProblem,
	KeySetTable,
} from '../../../../../nodes/AppBuilder/trigger/cursor/keySetTable';

const ID = '65f1c0ffee00000000000001';
const keys = (count: number) =>
	Array.from({ length: count }, (_, i) => `65f1c0ffee${String(i).padStart(14, '0')}`);

describe('the table of undated inquiries', () => {
	it('hashes keys and places them exactly as stored tables were written (the stored format depends on it)', () => {
		expect(hashText(keyHash(''))).toBe('cbf29ce484222325'); // FNV-1a 64's offset basis
		expect(hashText(keyHash(ID))).toBe('56c35bcc68114d23');
		const table = new KeySetTable(DEFAULT_CELLS_PER_SUBTABLE);
		expect(Array.from({ length: SUBTABLES }, (_, part) => table.cellOf(keyHash(ID), part))).toEqual(
			[7, 69, 149, 213, 280],
		);
		expect(tableOf([keyHash(ID)], DEFAULT_CELLS_PER_SUBTABLE).encode()).toBe(
			'AgA8AAcAAAABVsNbzGgRTSPKAHqzAEUAAAABVsNbzGgRTSPKAHqzAJUAAAABVsNbzGgRTSPKAHqzANUAAAABVsNbzGgRTSPKAHqzARgAAAABVsNbzGgRTSPKAHqz',
		);
	});

	it('stores an empty table as empty text, a few keys cell by cell, many as every cell; each reads back the same', () => {
		expect(new KeySetTable(DEFAULT_CELLS_PER_SUBTABLE).encode()).toBe('');
		expect(decodeKeySetTable('', 7).size).toBe(7);
		for (const count of [1, 10, 1000]) {
			const table = tableOf(keys(count).map(keyHash), DEFAULT_CELLS_PER_SUBTABLE);
			const text = table.encode();
			expect(keySetTableProblem(text)).toBeUndefined();
			const back = decodeKeySetTable(text, 1);
			expect(back.encode()).toBe(text);
			expect([...back.words]).toEqual([...table.words]);
		}
		// Sparse while shorter: 1 key is 5 cells with their places; 1,000 fill every cell.
		expect(tableOf([keyHash(ID)], DEFAULT_CELLS_PER_SUBTABLE).encode().length).toBe(124);
		expect(tableOf(keys(1000).map(keyHash), DEFAULT_CELLS_PER_SUBTABLE).encode().length).toBe(6404);
	});

	it('takes a key out again exactly, and a table less the keys of another gives back a key that is in one only, with its side', () => {
		const table = tableOf(keys(50).map(keyHash), 11);
		const extra = keyHash('extra');
		table.toggle(extra, 1);
		table.toggle(extra, -1);
		expect(table.encode()).toBe(tableOf(keys(50).map(keyHash), 11).encode());

		const less = (from: KeySetTable, present: string[]) => {
			const difference = from.copy();
			for (const key of present) difference.toggle(keyHash(key), -1);
			return difference;
		};
		const withExtra = tableOf([...keys(50), 'extra'].map(keyHash), 11);
		const difference = less(withExtra, keys(50));
		const lone = Array.from({ length: difference.cells }, (_, cell) => cell)
			.map((cell) => difference.loneHash(cell))
			.filter((found) => found !== undefined);
		expect(lone).toHaveLength(SUBTABLES);
		for (const found of lone) expect(found).toEqual({ hash: extra, sign: 1 });
		expect(less(table, [...keys(50), 'extra']).loneHash(table.cellOf(extra, 0))).toEqual({
			hash: extra,
			sign: -1,
		});
	});

	it('does not take a cell that holds several keys for one holding one', () => {
		// Three keys in one cell add up to a count of 1 with a key taken out; the check tells it apart.
		const table = new KeySetTable(1);
		table.toggle(keyHash('a'), 1);
		table.toggle(keyHash('b'), 1);
		table.toggle(keyHash('c'), -1);
		for (let cell = 0; cell < SUBTABLES; cell++) expect(table.loneHash(cell)).toBeUndefined();
	});

	it('names what is wrong with a stored text that is not a table', () => {
		const good = tableOf(keys(3).map(keyHash), DEFAULT_CELLS_PER_SUBTABLE).encode();
		const bytes = Buffer.from(good, 'base64');
		const withHeader = (layout: number, size: number, body: Buffer) =>
			Buffer.concat([Buffer.from([layout, size >> 8, size & 0xff]), body]).toString('base64');
		const cases: Array<[string, string]> = [
			['lead-a', 'it is not base64'],
			['AAA', 'it is not base64'],
			['AAAA', 'its 0 cells per part are not 1 to 1024'],
			['AQ==', 'it is too short'],
			['A'.repeat(200_000), 'it is longer than any release writes'],
			[withHeader(3, 60, Buffer.alloc(18)), 'its layout is unknown'],
			[withHeader(1, 60, Buffer.alloc(16 * 299)), 'it does not hold 300 cells'],
			[withHeader(1, 2000, Buffer.alloc(16)), 'its 2000 cells per part are not 1 to 1024'],
			[withHeader(2, 60, Buffer.alloc(0)), 'its cells are cut short'],
			[withHeader(2, 60, Buffer.alloc(17)), 'its cells are cut short'],
			[
				withHeader(2, 60, Buffer.concat([Buffer.from([0x01, 0x2c]), Buffer.alloc(16)])),
				'its cells are out of order or out of range',
			],
			[
				withHeader(
					2,
					60,
					Buffer.concat([
						Buffer.from([0, 5]),
						Buffer.alloc(16),
						Buffer.from([0, 5]),
						Buffer.alloc(16),
					]),
				),
				'its cells are out of order or out of range',
			],
			[bytes.subarray(0, bytes.length - 3).toString('base64'), 'its cells are cut short'],
		];
		for (const [text, problem] of cases) {
			expect(keySetTableProblem(text)).toBe(problem);
			expect(() => decodeKeySetTable(text, 60)).toThrow(
				`The table of undated inquiries is damaged: ${problem}`,
			);
		}
	});
});
