import { createHash } from 'crypto';

import { preparePassword } from '../../nodes/AppBuilder/helpers/password';
import { preparePhone } from '../../nodes/AppBuilder/helpers/phone';
import { mapWithConcurrency } from '../../nodes/AppBuilder/helpers/mapWithConcurrency';

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

describe('mapWithConcurrency', () => {
	it('keeps input order and never runs more than the limit at once', async () => {
		let running = 0;
		let peak = 0;
		const results = await mapWithConcurrency(20, 3, async (index) => {
			running++;
			peak = Math.max(peak, running);
			await new Promise((resolve) => setImmediate(resolve));
			await new Promise((resolve) => setImmediate(resolve));
			running--;
			return index * 2;
		});
		expect(results).toEqual(Array.from({ length: 20 }, (_, i) => i * 2));
		expect(peak).toBe(3);
	});

	it('starts nothing new after a failure and throws the lowest failed index', async () => {
		const started: number[] = [];
		await expect(
			mapWithConcurrency(50, 2, async (index) => {
				started.push(index);
				await new Promise((resolve) => setImmediate(resolve));
				if (index === 3 || index === 4) throw new Error(`item ${index}`);
				return index;
			}),
		).rejects.toThrow('item 3');
		expect(Math.max(...started)).toBeLessThan(8);
	});
});
