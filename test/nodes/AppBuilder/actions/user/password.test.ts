/* eslint-disable @n8n/community-nodes/no-hardcoded-secrets -- its secrets are made up, to check that none leaks */
import { createHash } from 'crypto';

import { preparePassword } from '../../../../../nodes/AppBuilder/actions/user/password';

describe('preparePassword', () => {
	it('sends a plain password with a blank passwordType', () => {
		expect(preparePassword('s3cret!', 'plain')).toEqual({
			ok: true,
			prepared: { password: 's3cret!', passwordType: '' },
		});
	});

	it('hashes with MD5 in n8n when asked', () => {
		const expected = createHash('md5').update('s3cret!').digest('hex');
		expect(preparePassword('s3cret!', 'hashInN8n')).toEqual({
			ok: true,
			prepared: { password: expected, passwordType: 'MD5' },
		});
	});

	it('accepts a value declared MD5 only if it looks like one', () => {
		expect(preparePassword('5F4DCC3B5AA765D61D8327DEB882CF99', 'md5')).toEqual({
			ok: true,
			prepared: { password: '5f4dcc3b5aa765d61d8327deb882cf99', passwordType: 'MD5' },
		});
		expect(preparePassword('password', 'md5')).toEqual({ ok: false, problem: 'notMd5' });
		expect(preparePassword('', 'plain')).toEqual({ ok: false, problem: 'empty' });
	});
});
