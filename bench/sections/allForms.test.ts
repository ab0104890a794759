import { allFormsSection, allFormsTargetRows, stateBoundBytes, type AllFormsRow } from './allForms';

describe("the all-forms section's targets", () => {
	const row = (
		forms: number,
		oursMs: number,
		perFormMs: number,
		oursStateBytes: number,
	): AllFormsRow => ({
		forms,
		oursMs,
		perFormMs,
		oursCpuMs: 1,
		perFormCpuMs: 1,
		oursHeapPeakBytes: 1,
		perFormHeapPeakBytes: 1,
		oursStateBytes,
		perFormStateBytes: 1,
	});

	it('holds several forms to the one-form triggers together, and every count to the state bound', () => {
		const rows = allFormsTargetRows([
			row(1, 200, 100, 10_000),
			row(10, 90, 100, 60_000),
			row(50, 110, 100, 10_000),
		]);
		// One form: no time target (the all-forms trigger also asks for the app's forms).
		expect(rows.filter((line) => line.includes('1 forms: poll time'))).toEqual([]);
		expect(rows.find((line) => line.includes('10 forms: poll time'))).toMatch(/0\.90x \| met \|$/);
		expect(rows.find((line) => line.includes('50 forms: poll time'))).toMatch(
			/1\.10x \| \*\*not met\*\* \|$/,
		);
		expect(rows.find((line) => line.includes('10 forms: saved state'))).toMatch(/\*\*not met\*\*/);
		expect(rows.find((line) => line.includes('50 forms: saved state'))).toMatch(/\| met \|$/);
	});

	it('bounds the state at about what one form needs, and 2.5 KB a form past 20 forms', () => {
		expect(stateBoundBytes(1)).toBe(50_000);
		expect(stateBoundBytes(20)).toBe(50_000);
		expect(stateBoundBytes(50)).toBe(125_000);
	});

	it('reports the heap at its peak of each side in the table, column by column', () => {
		const measured = {
			...row(10, 90, 100, 40_960),
			oursHeapPeakBytes: 3 * 1024 * 1024,
			perFormHeapPeakBytes: 12.5 * 1024 * 1024,
		};
		const section = allFormsSection([measured], {
			formCounts: [10],
			inquiriesPerForm: 1_000,
			newPerFormPerCycle: 2,
			cycles: 5,
		});
		const header = section.split('\n').find((line) => line.startsWith('| Forms')) ?? '';
		const line = section.split('\n').find((text) => text.startsWith('| 10 |')) ?? '';
		const cells = (text: string) => text.split('|').map((cell) => cell.trim());
		const column = cells(header).indexOf('Heap at peak, one trigger');
		expect(column).toBeGreaterThan(0);
		expect(cells(line)[column]).toBe('3.0 MB');
		expect(cells(line)[cells(header).indexOf('Heap at peak, per form')]).toBe('12.5 MB');
		expect(cells(line)).toHaveLength(cells(header).length);
	});
});
