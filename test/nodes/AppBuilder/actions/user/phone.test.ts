import { preparePhone } from '../../../../../nodes/AppBuilder/actions/user/phone';

describe('preparePhone (Update User sends an integer)', () => {
	it('sends digits as a number, removing only visual separators', () => {
		expect(preparePhone('555 123-4567', 'integer')).toEqual({ ok: true, phone: 5551234567 });
		expect(preparePhone('(555) 123.4567', 'integer')).toEqual({ ok: true, phone: 5551234567 });
	});

	it.each([
		['0044123456', 'leadingZero'],
		['+15551234567', 'plusSign'],
		['1234567890123456789', 'tooLong'],
		['555-CALL-NOW', 'notDigits'],
		['   ', 'empty'],
	])('refuses %s rather than change it (%s)', (value, problem) => {
		expect(preparePhone(value, 'integer')).toEqual({ ok: false, problem });
	});

	it('sends the phone exactly as typed when the user chose text', () => {
		expect(preparePhone('+44 0123 456', 'text')).toEqual({ ok: true, phone: '+44 0123 456' });
	});
});
