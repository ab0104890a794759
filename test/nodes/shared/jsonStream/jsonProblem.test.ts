import { jsonProblem } from '../../../../nodes/shared/jsonStream/jsonProblem';

describe('jsonProblem', () => {
	it.each([
		['{"a":1}', undefined],
		['{"a": hello}', { what: 'a bare word "hello"', at: 6 }],
		['{"a":"x\ty"}', { what: 'a control character (U+0009) inside a string', at: 7 }],
		['{"a":"\\q"}', { what: 'a bad escape "\\\\q"', at: 6 }],
		['{"a":"\\u12G4"}', { what: 'a bad escape "\\\\u12G4"', at: 6 }],
		['{"a":01}', { what: 'a bad number "01"', at: 5 }],
		['{"a":1 "b":2}', { what: '"\\"" where a comma or } belongs', at: 7 }],
		['{"a" 1}', { what: '"1" where a colon belongs', at: 5 }],
		['{"a":"x', { what: 'a string that never ends', at: 5 }],
		['{"a":[1,]}', { what: '"]" where a value belongs', at: 8 }],
		['{"a":1} x', { what: 'text after the end: "x"', at: 8 }],
		[
			`${'['.repeat(100_000)}${']'.repeat(99_999)}`,
			{ what: 'the text ends too early', at: 199_999 },
		],
	])('says what is wrong in %j and where', (text, problem) => {
		expect(jsonProblem(text)).toEqual(problem);
	});
});
