import { joinUrl } from '../../../nodes/shared/appBuilderApi';
import { cpuMsOf } from '../../support/cpuTime';

describe('joinUrl', () => {
	it('joins a base URL with or without trailing slashes and spaces to an absolute path', () => {
		expect(joinUrl('https://api.example.com', '/V4/x.php')).toBe(
			'https://api.example.com/V4/x.php',
		);
		expect(joinUrl(' https://api.example.com/// ', '/V4/x.php')).toBe(
			'https://api.example.com/V4/x.php',
		);
		expect(joinUrl('https://api.example.com/base/', '/V4/x.php')).toBe(
			'https://api.example.com/base/V4/x.php',
		);
		expect(joinUrl('', '/V4/x.php')).toBe('/V4/x.php');
		expect(joinUrl('///', '/V4/x.php')).toBe('/V4/x.php');
	});

	it('joins a base URL with 100,000 slashes in its middle in well under a second', () => {
		const base = `https://a${'/'.repeat(100_000)}b`;
		expect(cpuMsOf(() => expect(joinUrl(base, '/p')).toBe(`${base}/p`))).toBeLessThan(500);
	});
});
