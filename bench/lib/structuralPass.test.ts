import { structuralPass } from './structuralPass';

const pass = (text: string) => structuralPass(Buffer.from(text, 'utf8'));

describe('the structural pass', () => {
	it('counts the strings and brackets of an answer', () => {
		expect(pass('{"data":[{"_id":"a","n":[1,2]},{"_id":"b"}],"msg":"ok"}')).toEqual({
			strings: 8,
			opened: 5,
			closed: 5,
		});
	});

	it('finds a string past its escaped quotes and backslashes, and counts no bracket inside it', () => {
		// "[{\"k\":\"v\\\\\"}]" is one string: its brackets and escaped quotes are text.
		expect(pass(String.raw`{"f":"[{\"k\":\"v\\\"}]","g":"\\"}`)).toEqual({
			strings: 4,
			opened: 1,
			closed: 1,
		});
	});

	it('matches JSON.parse on the emulator-shaped record it stands in for', () => {
		const record = {
			_id: '6b087c6471bfe4c91fd426f3',
			formData: [
				['Lead 0', 'a\\b "c"'],
				['Full Name', 'Note'],
				['name', 'note'],
			],
			formbuilderData: JSON.stringify([{ fieldName: 'name', fieldValue: 'Lead "0" {x}' }]),
			addedon: 1795718244,
		};
		const text = JSON.stringify({ data: [record, record], status: 'success' });
		// Per record: 4 keys, the _id, 6 formData strings and formbuilderData's one; then "data", "status", "success".
		// Per record: its brace, formData's bracket and its 3 rows'; then the answer's brace and data's bracket.
		expect(pass(text)).toEqual({ strings: 2 * 12 + 3, opened: 2 * 5 + 2, closed: 2 * 5 + 2 });
	});
});
