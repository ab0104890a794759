import { destinationOf, type TokenDestination } from '../../../nodes/shared/hostRouting';

/** Which secret a request may carry, by the base URL it falls under. */
describe('destinationOf', () => {
	const separateHosts: Array<[string, string, string, TokenDestination]> = [
		[
			'https://api.example',
			'https://connect.example',
			'https://api.example/V4/webservices/addUser.php',
			'webService',
		],
		[
			'https://api.example',
			'https://connect.example',
			'https://api.example/anything',
			'webService',
		],
		[
			'https://api.example',
			'https://connect.example',
			'https://connect.example/v1/profile',
			'connect',
		],
		[
			'https://api.example',
			'https://connect.example',
			'https://other.example/V4/webservices/addUser.php',
			'other',
		],
		[
			'https://api.example',
			'https://connect.example',
			'http://api.example/V4/webservices/addUser.php',
			'other',
		],
		['https://api.example', 'https://connect.example', 'https://api.example:8443/x', 'other'],
		['https://api.example:443/', 'https://connect.example', 'https://api.example/x', 'webService'],
	];
	const oneHostSamePath: Array<[string, string, string, TokenDestination]> = [
		[
			'http://127.0.0.1:8787',
			'http://127.0.0.1:8787',
			'http://127.0.0.1:8787/V4/webservices/addUser.php',
			'webService',
		],
		[
			'http://127.0.0.1:8787',
			'http://127.0.0.1:8787/',
			'http://127.0.0.1:8787/v4/webservices/x',
			'webService',
		],
		[
			'http://127.0.0.1:8787',
			'http://127.0.0.1:8787',
			'http://127.0.0.1:8787/v1/profile',
			'connect',
		],
		[
			'https://gw.example/api',
			'https://gw.example/api',
			'https://gw.example/api/V4/webservices/addUser.php',
			'webService',
		],
		[
			'https://gw.example/api',
			'https://gw.example/api',
			'https://gw.example/api/v1/profile',
			'connect',
		],
		[
			'https://gw.example/api',
			'https://gw.example/api',
			'https://gw.example/V4/webservices/addUser.php',
			'other',
		],
	];
	const oneGatewayTwoPaths: Array<[string, string, string, TokenDestination]> = [
		[
			'https://gw.example/appbuilder',
			'https://gw.example/connect',
			'https://gw.example/appbuilder/V4/webservices/addUser.php',
			'webService',
		],
		[
			'https://gw.example/appbuilder',
			'https://gw.example/connect',
			'https://gw.example/appbuilder',
			'webService',
		],
		[
			'https://gw.example/appbuilder/',
			'https://gw.example/connect/',
			'https://gw.example/appbuilder/',
			'webService',
		],
		[
			'https://gw.example/appbuilder',
			'https://gw.example/connect',
			'https://gw.example/connect/v1/profile',
			'connect',
		],
		[
			'https://gw.example/appbuilder',
			'https://gw.example/connect',
			'https://gw.example/connect/V4/webservices/addUser.php',
			'connect',
		],
		[
			'https://gw.example/appbuilder',
			'https://gw.example/connect',
			'https://gw.example/appbuilderx/V4/webservices/addUser.php',
			'other',
		],
		[
			'https://gw.example/appbuilder',
			'https://gw.example/connect',
			'https://gw.example/connectx/v1/profile',
			'other',
		],
		[
			'https://gw.example/appbuilder',
			'https://gw.example/connect',
			'https://gw.example/v1/profile',
			'other',
		],
		['https://gw.example/appbuilder', 'https://gw.example/connect', 'https://gw.example/', 'other'],
		[
			'https://gw.example/appbuilder',
			'https://gw.example/connect',
			'https://gw.example/appbuilder/../connect/v1/profile',
			'connect',
		],
		[
			'https://gw.example/appbuilder',
			'https://gw.example/connect',
			'https://gw.example/Appbuilder/V4/webservices/addUser.php',
			'other',
		],
		// Nested bases: the longer, more specific one wins.
		[
			'https://gw.example',
			'https://gw.example/connect',
			'https://gw.example/connect/v1/profile',
			'connect',
		],
		[
			'https://gw.example',
			'https://gw.example/connect',
			'https://gw.example/V4/webservices/addUser.php',
			'webService',
		],
		[
			'https://gw.example/connect/web',
			'https://gw.example/connect',
			'https://gw.example/connect/web/V4/webservices/addUser.php',
			'webService',
		],
		[
			'https://gw.example/connect/web',
			'https://gw.example/connect',
			'https://gw.example/connect/v1/profile',
			'connect',
		],
	];

	it.each([...separateHosts, ...oneHostSamePath, ...oneGatewayTwoPaths])(
		'web %s, connect %s: %s -> %s',
		(web, connect, requestUrl, expected) => {
			expect(destinationOf(requestUrl, undefined, web, connect)).toBe(expected);
		},
	);

	it('resolves a relative URL against the request baseURL', () => {
		expect(
			destinationOf(
				'/connect/v1/profile',
				'https://gw.example',
				'https://gw.example/appbuilder',
				'https://gw.example/connect',
			),
		).toBe('connect');
		expect(
			destinationOf(
				'/elsewhere',
				'https://gw.example',
				'https://gw.example/appbuilder',
				'https://gw.example/connect',
			),
		).toBe('other');
	});

	it('sends nothing to the Connect base when Connect is not configured', () => {
		expect(
			destinationOf(
				'https://connect.example/v1/profile',
				undefined,
				'https://api.example',
				undefined,
			),
		).toBe('other');
		expect(
			destinationOf(
				'https://gw.example/connect/v1/profile',
				undefined,
				'https://gw.example/appbuilder',
				undefined,
			),
		).toBe('other');
	});

	it('sends nothing for a URL it cannot read or a scheme without an origin', () => {
		expect(
			destinationOf('not a url', undefined, 'https://api.example', 'https://connect.example'),
		).toBe('other');
		expect(destinationOf('foo:bar', undefined, 'foo:bar', 'foo:baz')).toBe('other');
	});
});

describe('which host gets which secret', () => {
	const web = 'https://api.appexecutable.com';
	const connect = 'https://connectcloud.appypie.com';

	it('sends the access token only to the web-service origin', () => {
		expect(destinationOf(`${web}/V4/webservices/addUser.php`, undefined, web, connect)).toBe(
			'webService',
		);
		expect(destinationOf(`${connect}/v1/profile`, undefined, web, connect)).toBe('connect');
		expect(
			destinationOf('https://evil.example.com/V4/webservices/addUser.php', undefined, web, connect),
		).toBe('other');
		// Same host name, other port or scheme: another origin.
		expect(
			destinationOf(
				'http://api.appexecutable.com/V4/webservices/addUser.php',
				undefined,
				web,
				connect,
			),
		).toBe('other');
	});

	it('treats the Connect host as unknown when Connect is not configured', () => {
		expect(destinationOf(`${connect}/v1/profile`, undefined, web, undefined)).toBe('other');
	});

	it('resolves relative URLs against the request base URL, and tells services apart by path on a shared host', () => {
		expect(destinationOf('/v1/profile', connect, web, connect)).toBe('connect');
		const shared = 'http://127.0.0.1:9000';
		expect(destinationOf(`${shared}/V4/webservices/editUser.php`, undefined, shared, shared)).toBe(
			'webService',
		);
		expect(destinationOf(`${shared}/v1/profile`, undefined, shared, shared)).toBe('connect');
		expect(destinationOf('not a url', undefined, web, connect)).toBe('other');
	});
});
