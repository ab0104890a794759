import { createHash } from 'crypto';

import { preparePassword } from '../../../../../nodes/AppBuilder/actions/user/password';
import { preparePhone } from '../../../../../nodes/AppBuilder/actions/user/phone';

describe('preparePhone (Update User sends an integer)', () => {
	it('sends digits as a number, removing only visual separators', () => {
		expect(preparePhone('555 123-4567', 'integer')).toEqual({ phone: 5551234567 });
		expect(preparePhone('(555) 123.4567', 'integer')).toEqual({ phone: 5551234567 });
	});

	it.each([
		['0044123456', 'leadingZero'],
		['+15551234567', 'plusSign'],
		['1234567890123456789', 'tooLong'],
		['555-CALL-NOW', 'notDigits'],
		['   ', 'empty'],
	])('refuses %s rather than change it (%s)', (value, problem) => {
		expect(preparePhone(value, 'integer')).toEqual({ problem });
	});

	it('sends the phone exactly as typed when the user chose text', () => {
		expect(preparePhone('+44 0123 456', 'text')).toEqual({ phone: '+44 0123 456' });
	});
});

describe('preparePassword', () => {
	it('sends a plain password with a blank passwordType', () => {
		expect(preparePassword('s3cret!', 'plain')).toEqual({ password: 's3cret!', passwordType: '' });
	});

	it('hashes with MD5 in n8n when asked', () => {
		const expected = createHash('md5').update('s3cret!').digest('hex');
		expect(preparePassword('s3cret!', 'hashInN8n')).toEqual({ password: expected, passwordType: 'MD5' });
	});

	it('accepts a value declared MD5 only if it looks like one', () => {
		expect(preparePassword('5F4DCC3B5AA765D61D8327DEB882CF99', 'md5')).toEqual({
			password: '5f4dcc3b5aa765d61d8327deb882cf99',
			passwordType: 'MD5',
		});
		expect(preparePassword('password', 'md5')).toEqual({ problem: 'notMd5' });
		expect(preparePassword('', 'plain')).toEqual({ problem: 'empty' });
	});
});
