import {
	notePartialRun,
	putSection,
	putSubsections,
	putTargetRows,
	sectionOf,
} from './reportPatch';

const REPORT = `# Benchmarks

Written by \`npm run bench\` on 2026-11-23. Times are
noisy.

## Targets

| figure | target | this run | |
| --- | --- | --- | --- |
| One poll at 100,000 | at most 1.5x | 0.45x | met |
| Static data | about 50 KB | 41 KB | met |

## One poll

Old poll text.

## Over a slow link

Link text.
`;

describe('putting a partial run into the report', () => {
	it('replaces the section of the same heading, and only it', () => {
		const report = putSection(REPORT, '## One poll\n\nNew poll text.\n', '## Over a slow link');
		expect(report).toContain('New poll text.');
		expect(report).not.toContain('Old poll text.');
		expect(report).toContain('## Over a slow link\n\nLink text.');
		expect(report.match(/^## One poll$/gm)).toHaveLength(1);
	});

	it('puts a new section before the one it belongs in front of, and at the end when that is missing', () => {
		const before = putSection(
			REPORT,
			'## Triggers per n8n main\n\nK table.',
			'## Over a slow link',
		);
		expect(before.indexOf('## Triggers per n8n main')).toBeLessThan(
			before.indexOf('## Over a slow link'),
		);
		expect(before.indexOf('## Triggers per n8n main')).toBeGreaterThan(
			before.indexOf('Old poll text.'),
		);
		const atEnd = putSection(REPORT, '## Triggers per n8n main\n\nK table.', '## Nowhere');
		expect(atEnd.trimEnd().endsWith('K table.')).toBe(true);
	});

	it('refuses a section without a heading', () => {
		expect(() => putSection(REPORT, 'no heading', '## Over a slow link')).toThrow('## ');
	});

	it('replaces a target row of the same figure and inserts a new one before the row it belongs in front of', () => {
		const report = putTargetRows(
			REPORT,
			[
				'| One poll at 100,000 | at most 1.5x | 0.50x | met |',
				'| Triggers per main, 1,000 | at least 200 | 240 | met |',
			],
			'Static data',
		);
		const rows = report
			.split('\n')
			.filter(
				(line) =>
					line.startsWith('| ') && !line.startsWith('| figure') && !line.startsWith('| ---'),
			);
		expect(rows).toEqual([
			'| One poll at 100,000 | at most 1.5x | 0.50x | met |',
			'| Triggers per main, 1,000 | at least 200 | 240 | met |',
			'| Static data | about 50 KB | 41 KB | met |',
		]);
		expect(report).toContain('Old poll text.');
	});

	it("appends a row at the table's end when no row names the figure to go before", () => {
		const report = putTargetRows(REPORT, ['| New figure | t | r | met |'], 'Nothing like it');
		expect(report).toContain(
			'| Static data | about 50 KB | 41 KB | met |\n| New figure | t | r | met |\n\n## One poll',
		);
	});

	it('notes each partial run after the opening paragraph, the newest last, so a section the newest did not rewrite still says when it was measured', () => {
		const once = notePartialRun(REPORT, 'A,B on 2026-11-24.');
		const twice = notePartialRun(once, 'B on 2026-11-25.');
		expect(twice).toContain(
			'noisy.\n\nSections written by a later partial run: A,B on 2026-11-24.\n\nSections written by a later partial run: B on 2026-11-25.\n\n## Targets',
		);
	});

	it('keeps one line for the same sections measured again on the same day, moved to the newest place', () => {
		const first = notePartialRun(REPORT, 'B on 2026-11-25.');
		const again = notePartialRun(notePartialRun(first, 'A on 2026-11-25.'), 'B on 2026-11-25.');
		expect(again.split('\n').filter((line) => line.includes('B on 2026-11-25.'))).toHaveLength(1);
		expect(again).toContain(
			'noisy.\n\nSections written by a later partial run: A on 2026-11-25.\n\nSections written by a later partial run: B on 2026-11-25.\n\n## Targets',
		);
	});

	it('replaces the line of the same sections on the same day even when the runs took different times', () => {
		const first = notePartialRun(REPORT, 'B on 2026-11-25 (a run of 61 minutes).');
		const again = notePartialRun(first, 'B on 2026-11-25 (a run of 58 minutes).');
		expect(again).toContain('B on 2026-11-25 (a run of 58 minutes).');
		expect(again).not.toContain('61 minutes');
		// Other sections, or another day, keep their own line.
		expect(notePartialRun(first, 'B,C on 2026-11-25.')).toContain('61 minutes');
		expect(notePartialRun(first, 'B on 2026-11-26.')).toContain('61 minutes');
	});

	it('refuses a note that does not start with its sections and date', () => {
		expect(() => notePartialRun(REPORT, 'measured later')).toThrow(
			'starts with its sections and date',
		);
	});

	it('takes a section out of the report, to its next heading, for a full run to keep', () => {
		expect(sectionOf(REPORT, '## One poll')).toBe('## One poll\n\nOld poll text.\n');
		expect(sectionOf(REPORT, '## Over a slow link')).toBe('## Over a slow link\n\nLink text.\n');
		expect(sectionOf(REPORT, '## Not there')).toBeUndefined();
	});
});

describe("putting a run's parts into a section", () => {
	const rank = (heading: string) => Number(heading.replace(/\D/g, ''));
	const section =
		'## Scale\n\nOld intro.\n\n### Part 1\n\nOne, old run.\n\n### Part 3\n\nThree, old run.\n';

	it('takes the new intro, replaces the parts of the same heading and keeps the others', () => {
		expect(
			putSubsections(
				section,
				'## Scale\n\nNew intro.\n',
				['### Part 3\n\nThree, new run.\n'],
				rank,
			),
		).toBe(
			'## Scale\n\nNew intro.\n\n### Part 1\n\nOne, old run.\n\n### Part 3\n\nThree, new run.\n',
		);
	});

	it('adds a part in its rank, and builds the section when the report had none', () => {
		expect(putSubsections(section, '## Scale\n\nNew.', ['### Part 2\n\nTwo.'], rank)).toBe(
			'## Scale\n\nNew.\n\n### Part 1\n\nOne, old run.\n\n### Part 2\n\nTwo.\n\n### Part 3\n\nThree, old run.\n',
		);
		expect(
			putSubsections(undefined, '## Scale', ['### Part 3\n\nC', '### Part 1\n\nA'], rank),
		).toBe('## Scale\n\n### Part 1\n\nA\n\n### Part 3\n\nC\n');
	});
});
