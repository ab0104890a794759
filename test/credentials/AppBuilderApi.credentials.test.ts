import { AppBuilderApi } from '../../credentials/AppBuilderApi.credentials';

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
		(
			await new AppBuilderApi().authenticate(credentials, {
				url,
				method: 'POST',
				headers: { Accept: 'application/json' },
			})
		).headers;

	it('adds ACCESSTOKEN under the web-service base, the bearer under the Connect base, and nothing elsewhere on that host', async () => {
		expect(
			await headersFor('https://gw.example/appbuilder/V4/webservices/FormBuilderApi.php'),
		).toEqual({
			Accept: 'application/json',
			ACCESSTOKEN: 'web-access-token',
		});
		expect(await headersFor('https://gw.example/connect/v1/profile')).toEqual({
			Accept: 'application/json',
			Authorization: 'Bearer connect-bearer',
		});
		expect(await headersFor('https://gw.example/admin/v1/profile')).toEqual({
			Accept: 'application/json',
		});
	});
});
