import { AppBuilderApi } from '../../../credentials/AppBuilderApi.credentials';
import { destinationOf, type TokenDestination } from '../../../nodes/shared/hostRouting';

/** Which secret a request may carry, by the base URL it falls under. */
describe('destinationOf', () => {
	const separateHosts: Array<[string, string, string, TokenDestination]> = [
		['https://api.example', 'https://connect.example', 'https://api.example/V4/webservices/addUser.php', 'webService'],
		['https://api.example', 'https://connect.example', 'https://api.example/anything', 'webService'],
		['https://api.example', 'https://connect.example', 'https://connect.example/v1/profile', 'connect'],
		['https://api.example', 'https://connect.example', 'https://other.example/V4/webservices/addUser.php', 'other'],
		['https://api.example', 'https://connect.example', 'http://api.example/V4/webservices/addUser.php', 'other'],
		['https://api.example', 'https://connect.example', 'https://api.example:8443/x', 'other'],
		['https://api.example:443/', 'https://connect.example', 'https://api.example/x', 'webService'],
	];
	const oneHostSamePath: Array<[string, string, string, TokenDestination]> = [
		['http://127.0.0.1:8787', 'http://127.0.0.1:8787', 'http://127.0.0.1:8787/V4/webservices/addUser.php', 'webService'],
		['http://127.0.0.1:8787', 'http://127.0.0.1:8787/', 'http://127.0.0.1:8787/v4/webservices/x', 'webService'],
		['http://127.0.0.1:8787', 'http://127.0.0.1:8787', 'http://127.0.0.1:8787/v1/profile', 'connect'],
		['https://gw.example/api', 'https://gw.example/api', 'https://gw.example/api/V4/webservices/addUser.php', 'webService'],
		['https://gw.example/api', 'https://gw.example/api', 'https://gw.example/api/v1/profile', 'connect'],
		['https://gw.example/api', 'https://gw.example/api', 'https://gw.example/V4/webservices/addUser.php', 'other'],
	];
	const oneGatewayTwoPaths: Array<[string, string, string, TokenDestination]> = [
		['https://gw.example/appbuilder', 'https://gw.example/connect', 'https://gw.example/appbuilder/V4/webservices/addUser.php', 'webService'],
		['https://gw.example/appbuilder', 'https://gw.example/connect', 'https://gw.example/appbuilder', 'webService'],
		['https://gw.example/appbuilder/', 'https://gw.example/connect/', 'https://gw.example/appbuilder/', 'webService'],
		['https://gw.example/appbuilder', 'https://gw.example/connect', 'https://gw.example/connect/v1/profile', 'connect'],
		['https://gw.example/appbuilder', 'https://gw.example/connect', 'https://gw.example/connect/V4/webservices/addUser.php', 'connect'],
		['https://gw.example/appbuilder', 'https://gw.example/connect', 'https://gw.example/appbuilderx/V4/webservices/addUser.php', 'other'],
		['https://gw.example/appbuilder', 'https://gw.example/connect', 'https://gw.example/connectx/v1/profile', 'other'],
		['https://gw.example/appbuilder', 'https://gw.example/connect', 'https://gw.example/v1/profile', 'other'],
		['https://gw.example/appbuilder', 'https://gw.example/connect', 'https://gw.example/', 'other'],
		['https://gw.example/appbuilder', 'https://gw.example/connect', 'https://gw.example/appbuilder/../connect/v1/profile', 'connect'],
		['https://gw.example/appbuilder', 'https://gw.example/connect', 'https://gw.example/Appbuilder/V4/webservices/addUser.php', 'other'],
		// Nested bases: the longer, more specific one wins.
		['https://gw.example', 'https://gw.example/connect', 'https://gw.example/connect/v1/profile', 'connect'],
		['https://gw.example', 'https://gw.example/connect', 'https://gw.example/V4/webservices/addUser.php', 'webService'],
		['https://gw.example/connect/web', 'https://gw.example/connect', 'https://gw.example/connect/web/V4/webservices/addUser.php', 'webService'],
		['https://gw.example/connect/web', 'https://gw.example/connect', 'https://gw.example/connect/v1/profile', 'connect'],
	];

	it.each([...separateHosts, ...oneHostSamePath, ...oneGatewayTwoPaths])(
		'web %s, connect %s: %s -> %s',
		(web, connect, requestUrl, expected) => {
			expect(destinationOf(requestUrl, undefined, web, connect)).toBe(expected);
		},
	);

	it('resolves a relative URL against the request baseURL', () => {
		expect(destinationOf('/connect/v1/profile', 'https://gw.example', 'https://gw.example/appbuilder', 'https://gw.example/connect')).toBe('connect');
		expect(destinationOf('/elsewhere', 'https://gw.example', 'https://gw.example/appbuilder', 'https://gw.example/connect')).toBe('other');
	});

	it('sends nothing to the Connect base when Connect is not configured', () => {
		expect(destinationOf('https://connect.example/v1/profile', undefined, 'https://api.example', undefined)).toBe('other');
		expect(destinationOf('https://gw.example/connect/v1/profile', undefined, 'https://gw.example/appbuilder', undefined)).toBe('other');
	});

	it('sends nothing for a URL it cannot read or a scheme without an origin', () => {
		expect(destinationOf('not a url', undefined, 'https://api.example', 'https://connect.example')).toBe('other');
		expect(destinationOf('foo:bar', undefined, 'foo:bar', 'foo:baz')).toBe('other');
	});
});

describe('the credential authenticate behind one gateway', () => {
	const credentials = {
		accessToken: 'web-access-token',
		baseUrl: 'https://gw.example/appbuilder',
		useConnect: true,
		connectBaseUrl: 'https://gw.example/connect',
		clientId: 'client',
		clientSecret: 'client-secret',
		refreshToken: 'refresh-token',
		connectAccessToken: 'connect-bearer',
	};
	const headersFor = async (url: string) =>
		(await new AppBuilderApi().authenticate(credentials, { url, method: 'POST', headers: { Accept: 'application/json' } })).headers;

	it('adds ACCESSTOKEN under the web-service base, the bearer under the Connect base, and nothing elsewhere on that host', async () => {
		expect(await headersFor('https://gw.example/appbuilder/V4/webservices/FormBuilderApi.php')).toEqual({
			Accept: 'application/json',
			ACCESSTOKEN: 'web-access-token',
		});
		expect(await headersFor('https://gw.example/connect/v1/profile')).toEqual({
			Accept: 'application/json',
			Authorization: 'Bearer connect-bearer',
		});
		expect(await headersFor('https://gw.example/admin/v1/profile')).toEqual({ Accept: 'application/json' });
	});
});
