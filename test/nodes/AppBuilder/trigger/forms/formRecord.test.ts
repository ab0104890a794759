import { cursorFrom } from '../../../../../nodes/AppBuilder/trigger/cursor/cursor';
import {
	formRecordProblem,
	MAX_OUT_STRETCHES,
} from '../../../../../nodes/AppBuilder/trigger/forms/formRecord';

describe("a form's record as static data gives it back", () => {
	const cursor = cursorFrom(1000);

	it('takes a record with its cursor alone, or with every field', () => {
		expect(formRecordProblem({ cursor })).toBeUndefined();
		expect(
			formRecordProblem({
				cursor,
				out: [[1, 2]],
				outSince: 3,
				away: { since: 4, polls: 0 },
				undatedUnknown: true,
			}),
		).toBeUndefined();
	});

	it('names what is wrong, field by field', () => {
		const cases: Array<[unknown, string]> = [
			['junk', 'it is not an object'],
			[{}, 'its cursor is not readable: it is not an object'],
			[
				{ cursor, out: [[1, 2, 3]] },
				`"out" is not a list of at most ${MAX_OUT_STRETCHES} stretches of time`,
			],
			[
				{ cursor, out: [['1', 2]] },
				`"out" is not a list of at most ${MAX_OUT_STRETCHES} stretches of time`,
			],
			[
				{ cursor, out: {} },
				`"out" is not a list of at most ${MAX_OUT_STRETCHES} stretches of time`,
			],
			[{ cursor, outSince: null }, '"outSince" is not a time'],
			[{ cursor, away: { since: 1, polls: 1.5 } }, '"away" is not a time and a number of polls'],
			[{ cursor, away: [] }, '"away" is not a time and a number of polls'],
			[{ cursor, undatedUnknown: false }, '"undatedUnknown" is not true'],
		];
		for (const [value, problem] of cases) expect(formRecordProblem(value)).toBe(problem);
		expect(formRecordProblem({ cursor, quiet: 'loud' })).toMatch(/^its rhythm is not readable: /);
	});
});
