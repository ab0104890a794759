// @ts-check
'use strict';

const { sendJson } = require('./errors');

/**
 * The Connect API's token endpoint (spec operation 1) with OAuth 2 errors
 * (RFC 6749 section 5.2), and one emulator-only protected endpoint,
 * GET /v1/profile, that answers 401 to a missing, unknown or expired bearer
 * token so a client's refresh-on-401 can be tested.
 * @param {import('./store').EmulatorStore} store
 * @param {import('node:http').IncomingMessage} req
 * @param {import('node:http').ServerResponse} res
 * @param {string} path
 * @param {Record<string, any>} params
 * @returns {boolean} whether the path is a Connect endpoint
 */
function handleConnect(store, req, res, path, params) {
	if (path === '/v1/oauth2/token') {
		if (req.method !== 'POST')
			return (
				sendJson(res, 405, { error: 'invalid_request', error_description: 'use POST' }),
				true
			);
		handleToken(store, req, res, params);
		return true;
	}
	if (path === '/v1/profile') {
		handleProfile(store, req, res);
		return true;
	}
	return false;
}

/**
 * @param {import('./store').EmulatorStore} store
 * @param {import('node:http').IncomingMessage} req
 * @param {import('node:http').ServerResponse} res
 * @param {Record<string, any>} params
 */
function handleToken(store, req, res, params) {
	// The spec leaves open whether the token endpoint checks the ACCESSTOKEN its sample sends.
	if (
		store.config.connectRequiresAccessToken &&
		!store.accounts.has(String(req.headers.accesstoken ?? ''))
	) {
		return sendJson(
			res,
			401,
			{
				error: 'invalid_token',
				error_description: 'the ACCESSTOKEN header is missing or not valid',
			},
			{ 'WWW-Authenticate': 'Bearer error="invalid_token"' },
		);
	}
	let clientId = params.client_id === undefined ? '' : String(params.client_id);
	let clientSecret = params.client_secret === undefined ? '' : String(params.client_secret);
	const basic = /^Basic\s+(.+)$/i.exec(String(req.headers.authorization ?? ''));
	if (basic) {
		const [id, ...secret] = Buffer.from(basic[1], 'base64').toString('utf8').split(':');
		clientId = decodeURIComponent(id ?? '');
		clientSecret = decodeURIComponent(secret.join(':'));
	}
	const grantType = params.grant_type === undefined ? '' : String(params.grant_type);
	const refreshToken = params.refresh_token === undefined ? '' : String(params.refresh_token);

	if (grantType === '' || clientId === '' || refreshToken === '') {
		return sendJson(res, 400, {
			error: 'invalid_request',
			error_description: 'grant_type, client_id, client_secret and refresh_token are required',
		});
	}
	if (grantType !== 'refresh_token') {
		return sendJson(res, 400, {
			error: 'unsupported_grant_type',
			error_description: 'only refresh_token is supported',
		});
	}
	const client = store.connectClients.get(clientId);
	if (!client || client.clientSecret !== clientSecret) {
		return sendJson(
			res,
			401,
			{ error: 'invalid_client', error_description: 'client authentication failed' },
			{ 'WWW-Authenticate': 'Basic' },
		);
	}
	if (store.refreshTokens.get(refreshToken) !== clientId) {
		return sendJson(res, 400, {
			error: 'invalid_grant',
			error_description: 'the refresh token is invalid, expired or already used',
		});
	}
	const issued = store.issueTokens(clientId);
	if (store.config.rotateRefreshTokens) {
		store.refreshTokens.delete(refreshToken);
	} else {
		store.refreshTokens.delete(issued.refreshToken);
	}
	return sendJson(res, 200, {
		access_token: issued.accessToken,
		refresh_token: store.config.rotateRefreshTokens ? issued.refreshToken : refreshToken,
		expires_at: Math.floor(issued.expiresAtMs / 1000),
		type: 'bearer',
	});
}

/**
 * @param {import('./store').EmulatorStore} store
 * @param {import('node:http').IncomingMessage} req
 * @param {import('node:http').ServerResponse} res
 */
function handleProfile(store, req, res) {
	const bearer = /^Bearer\s+(.+)$/i.exec(String(req.headers.authorization ?? ''));
	const token = bearer ? store.accessTokens.get(bearer[1].trim()) : undefined;
	if (!token || token.expiresAtMs <= store.now()) {
		return sendJson(
			res,
			401,
			{ error: 'invalid_token' },
			{ 'WWW-Authenticate': 'Bearer error="invalid_token"' },
		);
	}
	return sendJson(res, 200, { clientId: token.clientId, name: 'Emulator Connect Account' });
}

module.exports = { handleConnect };
