import {
	COMPRESSED_READ_HEADING,
	compressedReadRatio,
	compressedReadSection,
	compressedReadTargetRow,
	type CompressedReadRow,
} from './compressedRead';

function row(size: number, plainMs: number[], gzipMs: number[], inflateMs: number[]) {
	const measured: CompressedReadRow = {
		size,
		bodyBytes: size * 1940,
		codedBytes: size * 160,
		plainMs,
		gzipMs,
		inflateMs,
		plainCpuMs: plainMs,
		gzipCpuMs: gzipMs,
		servedMs: gzipMs.map((ms) => ms * 2),
		servedEmulatorCpuMs: gzipMs,
		structuralMs: plainMs.map((ms) => ms / 4),
	};
	return measured;
}

const settings = { sizes: [10_000, 100_000], rounds: 5, newPerPoll: 10 };

describe('reading a compressed answer', () => {
	it('sets the median gzip poll against the median plain poll + the median inflate', () => {
		// Medians: gzip 130, plain 100, inflate 30; the slow outliers do not move them.
		const measured = row(
			10_000,
			[90, 100, 400, 100, 110],
			[120, 130, 500, 130, 140],
			[30, 25, 90, 30, 35],
		);
		expect(compressedReadRatio(measured)).toBeCloseTo(1.0);
	});

	it('meets the target at 1.0x and below at every size, and not above it at any', () => {
		const met = compressedReadTargetRow([
			row(10_000, [100, 100, 100, 100, 100], [90, 90, 90, 90, 90], [30, 30, 30, 30, 30]),
			row(
				100_000,
				[1000, 1000, 1000, 1000, 1000],
				[1300, 1300, 1300, 1300, 1300],
				[300, 300, 300, 300, 300],
			),
		]);
		expect(met).toBe(
			'| One poll reading a gzip answer against a plain poll + inflate at 10,000 and 100,000 | at most 1.0x | 0.69x at 10,000, 1.00x at 100,000 | met |',
		);
		const missed = compressedReadTargetRow([
			row(10_000, [100, 100, 100, 100, 100], [140, 140, 140, 140, 140], [30, 30, 30, 30, 30]),
			row(
				100_000,
				[1000, 1000, 1000, 1000, 1000],
				[900, 900, 900, 900, 900],
				[300, 300, 300, 300, 300],
			),
		]);
		expect(missed).toMatch(/1\.08x at 10,000, 0\.69x at 100,000 \| \*\*not met\*\* \|$/);
	});

	it('writes each size with its medians and spreads, the ratio and its verdict', () => {
		const section = compressedReadSection(
			[row(10_000, [100, 90, 120, 110, 100], [120, 110, 150, 115, 125], [30, 28, 40, 29, 31])],
			settings,
		);
		expect(section.startsWith(`${COMPRESSED_READ_HEADING}\n`)).toBe(true);
		const header =
			section.split('\n').find((line) => line.startsWith('| inquiries | answer')) ?? '';
		const line = section.split('\n').find((text) => text.startsWith('| 10,000 | 19.4 MB')) ?? '';
		const cells = (text: string) => text.split('|').map((cell) => cell.trim());
		expect(cells(line)).toHaveLength(cells(header).length);
		const column = (name: string) => cells(line)[cells(header).indexOf(name)];
		expect(column('one poll, plain')).toBe('100 ms (90 ms to 120 ms)');
		expect(column('one poll, gzip')).toBe('120 ms (110 ms to 150 ms)');
		expect(column('inflate alone')).toBe('30 ms (28 ms to 40 ms)');
		expect(column('gzip / (plain + inflate)')).toBe('**0.92x** met');
		// The plain poll against a bare structural pass over the same bytes (a quarter of each round's poll here).
		expect(section).toContain(
			'| 10,000 | 100 ms (90 ms to 120 ms) | 25 ms (23 ms to 30 ms) | **4.00x** |',
		);
		// The polls the emulator served compressing, beside the replayed ones.
		expect(section).toContain(
			'| 10,000 | 240 ms (220 ms to 300 ms) | 120 ms | 120 ms (110 ms to 150 ms) |',
		);
	});
});
