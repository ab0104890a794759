// @ts-check
'use strict';

const { sendApiError, sendJson, send } = require('./errors');
const { renderInquiryJson } = require('./records');
const { reusableBody } = require('./wire');

/**
 * The App Builder web services (spec operations 2 to 4, plus AppFeatures).
 * Checks run in a fixed order so that each code of the spec's error table
 * has a request that produces it.
 */
const ENDPOINTS = {
	'/V4/webservices/addUser.php': { method: 'addUser', fault: /** @type {const} */ ('addUser') },
	'/V4/webservices/editUser.php': { method: 'editUser', fault: /** @type {const} */ ('editUser') },
	'/V4/webservices/FormBuilderApi.php': {
		method: 'formBuilderInquiries',
		fault: /** @type {const} */ ('formBuilderInquiries'),
	},
	'/V4/webservices/AppFeatures.php': {
		method: 'getAppFeatures',
		fault: /** @type {const} */ ('getAppFeatures'),
	},
};

/** Methods the service reserves for administrators (403) and methods it retired (410). */
const ADMIN_METHODS = new Set(['getAllUsers', 'deleteUser', 'deleteAllUsers']);
const RETIRED_METHODS = new Set(['addUserV3', 'editUserV3', 'formInquiries']);
const API_KEY_SHAPE = /^[A-Za-z0-9_-]{6,64}$/;
const EMAIL_SHAPE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
/** Inquiries written to the socket per chunk when a form's list is streamed. */
const STREAM_CHUNK = 500;
/** @type {WeakMap<import('./records').StoredInquiry[], {version: number, unit: string, body: Buffer}>} */
const reusedAnswers = new WeakMap();

/**
 * @param {import('./store').EmulatorStore} store
 * @param {import('node:http').IncomingMessage} req
 * @param {import('node:http').ServerResponse} res
 * @param {string} path
 * @param {Record<string, any>} params
 * @returns {boolean} whether the path is a web-service endpoint
 */
function handleWebService(store, req, res, path, params) {
	const endpoint =
		/** @type {Record<string, {method: string, fault: import('./store').FaultEndpoint}>} */ (
			ENDPOINTS
		)[path];
	if (!endpoint) return false;
	const config = store.config;

	if (req.method !== 'POST') return (sendApiError(res, 405, config), true);
	const accept = String(req.headers.accept ?? '');
	if (accept && !/json|\*\/\*|application\/\*/i.test(accept))
		return (sendApiError(res, 406, config, 'only JSON is served'), true);

	const accessToken = String(req.headers.accesstoken ?? '');
	const account = store.accounts.get(accessToken);
	if (!account) return (sendApiError(res, 401, config, 'ACCESSTOKEN is missing or wrong'), true);

	const method = params.method;
	if (method === undefined || method === '')
		return (sendApiError(res, 400, config, 'method is required'), true);
	if (ADMIN_METHODS.has(method)) return (sendApiError(res, 403, config), true);
	if (RETIRED_METHODS.has(method)) return (sendApiError(res, 410, config), true);
	if (method !== endpoint.method)
		return (sendApiError(res, 404, config, `unknown method ${String(method)}`), true);

	const throttledFor = store.throttled();
	if (throttledFor !== undefined)
		return (sendApiError(res, 429, config, undefined, { 'Retry-After': throttledFor }), true);

	const waitSeconds = store.rateLimited(accessToken);
	if (waitSeconds !== undefined) {
		return (
			sendApiError(res, 429, config, undefined, { 'Retry-After': String(waitSeconds) }),
			true
		);
	}

	switch (endpoint.method) {
		case 'addUser':
		case 'editUser':
			handleUser(store, res, account, endpoint.method, params);
			return true;
		case 'formBuilderInquiries':
			handleInquiries(store, res, accessToken, params);
			return true;
		default:
			handleAppFeatures(store, res, accessToken, params);
			return true;
	}
}

/**
 * @param {import('./store').EmulatorStore} store
 * @param {import('node:http').ServerResponse} res
 * @param {{apiKey: string, users: import('./store').AppUser[]}} account
 * @param {'addUser' | 'editUser'} method
 * @param {Record<string, any>} params
 */
function handleUser(store, res, account, method, params) {
	const config = store.config;
	const apiKey = text(params.apiKey);
	if (apiKey === '') return sendApiError(res, 2032, config);
	if (!API_KEY_SHAPE.test(apiKey)) return sendApiError(res, 2038, config);
	if (apiKey !== account.apiKey) return sendApiError(res, 2036, config);

	const email = text(params.email).trim();
	if (email === '') return sendApiError(res, 2034, config);
	if (!EMAIL_SHAPE.test(email)) return sendApiError(res, 2041, config);
	const existing = account.users.find((user) => user.email.toLowerCase() === email.toLowerCase());
	if (method === 'addUser' && existing) return sendApiError(res, 2039, config);
	if (method === 'editUser' && !existing) return sendApiError(res, 400, config, 'User not found');

	const phone = text(params.phone).trim();
	const phoneOwner = phone === '' ? undefined : account.users.find((user) => user.phone === phone);
	if (phoneOwner && phoneOwner !== existing) return sendApiError(res, 2040, config);

	const required =
		method === 'addUser' ? ['name', 'password', 'phone'] : ['name', 'password', 'phone'];
	for (const name of required) {
		if (text(params[name]).trim() === '')
			return sendApiError(res, 400, config, `${name} is required`);
	}

	const status = text(params.status);
	if (method === 'addUser') {
		account.users.push({
			name: text(params.name),
			email,
			phone,
			password: text(params.password),
			passwordType: text(params.passwordType),
			group: text(params.group),
			status: status === '' ? '1' : status,
		});
		return sendJson(res, 200, { successCode: '200', message: 'User registered successfully' });
	}
	const user = /** @type {import('./store').AppUser} */ (existing);
	user.name = text(params.name);
	user.phone = phone;
	user.password = text(params.password);
	user.passwordType = text(params.passwordType);
	user.group = text(params.group);
	if (status !== '') user.status = status;
	return sendJson(res, 200, { successCode: '200', message: 'User updated successfully' });
}

/**
 * Every inquiry of one form. The list is streamed in chunks so forms with a
 * very large history are served without building one huge string.
 * @param {import('./store').EmulatorStore} store
 * @param {import('node:http').ServerResponse} res
 * @param {string} accessToken
 * @param {Record<string, any>} params
 */
function handleInquiries(store, res, accessToken, params) {
	const appId = text(params.appId);
	const pageId = text(params.pageId);
	if (appId === '') return sendApiError(res, 400, store.config, 'appId is required');
	if (pageId === '') return sendApiError(res, 400, store.config, 'pageId is required');
	const app = store.apps.get(appId);
	const list = app && app.accessToken === accessToken ? store.formInquiries(appId, pageId) : [];
	if (list.length === 0)
		return sendJson(res, 200, { data: [], status: 'success', msg: 'No record found' });

	const unit = store.config.timestampUnit;
	const whole = reusedAnswer(store, list);
	if (whole) {
		res.writeHead(200, { 'Content-Type': 'application/json; charset=UTF-8' });
		res.end(whole);
		return;
	}
	const snapshot = list.slice();
	res.writeHead(200, { 'Content-Type': 'application/json; charset=UTF-8' });
	let index = 0;
	const writeMore = () => {
		while (index < snapshot.length) {
			const end = Math.min(snapshot.length, index + STREAM_CHUNK);
			let chunk = index === 0 ? '{"data":[' : ',';
			const parts = [];
			for (let i = index; i < end; i++) parts.push(renderInquiryJson(snapshot[i], unit));
			chunk += parts.join(',');
			index = end;
			if (index === snapshot.length) chunk += '],"status":"success","msg":"Record found"}';
			if (!res.write(chunk)) {
				res.once('drain', writeMore);
				return;
			}
		}
		res.end();
	};
	writeMore();
}

/**
 * A form's whole answer, built on the first request and kept while no
 * inquiry of the emulator changes (store.inquiriesVersion); forms that share
 * their inquiries (store.shareForm) share it too. Undefined for a form of
 * more than `reusedAnswerMaxInquiries` (by default 20,000, about 40 MB): that
 * one is streamed in chunks on every request, never held whole.
 * @param {import('./store').EmulatorStore} store
 * @param {import('./records').StoredInquiry[]} list
 */
function reusedAnswer(store, list) {
	if (list.length > store.config.reusedAnswerMaxInquiries) return undefined;
	const unit = store.config.timestampUnit;
	const kept = reusedAnswers.get(list);
	if (kept && kept.version === store.inquiriesVersion && kept.unit === unit) return kept.body;
	const text = `{"data":[${list.map((record) => renderInquiryJson(record, unit)).join(',')}],"status":"success","msg":"Record found"}`;
	const body = reusableBody(Buffer.from(text, 'utf8'));
	reusedAnswers.set(list, { version: store.inquiriesVersion, unit, body });
	return body;
}

/**
 * The app's pages with their names (AppFeatures.php, method getAppFeatures).
 * @param {import('./store').EmulatorStore} store
 * @param {import('node:http').ServerResponse} res
 * @param {string} accessToken
 * @param {Record<string, any>} params
 */
function handleAppFeatures(store, res, accessToken, params) {
	const appId = text(params.appId);
	if (appId === '') return sendApiError(res, 400, store.config, 'appId is required');
	const app = store.apps.get(appId);
	const pages = app && app.accessToken === accessToken ? app.pages : [];
	return sendJson(res, 200, {
		status: 'success',
		msg: pages.length ? 'Record found' : 'No record found',
		data: pages,
	});
}

/**
 * The first half of what the endpoint would send, then: the end of a
 * well-formed response ("truncate": the JSON is cut short), the connection
 * closed ("drop": the response itself is cut short), or nothing more while
 * the connection stays open ("stall").
 * @param {import('./store').EmulatorStore} store
 * @param {import('node:http').ServerResponse} res
 * @param {string} path
 * @param {Record<string, any>} params
 * @param {'truncate' | 'drop' | 'stall'} [then]
 */
function sendTruncated(store, res, path, params, then = 'truncate') {
	const endpoint = /** @type {Record<string, {method: string}>} */ (ENDPOINTS)[path];
	let full;
	if (endpoint?.method === 'formBuilderInquiries') {
		const list = store.formInquiries(text(params.appId), text(params.pageId)).slice(0, 50);
		full = `{"data":[${list.map((r) => renderInquiryJson(r, store.config.timestampUnit)).join(',')}],"status":"success","msg":"Record found"}`;
	} else {
		full = JSON.stringify({
			successCode: '200',
			message: 'User registered successfully',
			data: { padding: 'x'.repeat(64) },
		});
	}
	const half = full.slice(0, Math.max(1, Math.floor(full.length / 2)));
	res.writeHead(200, { 'Content-Type': 'application/json; charset=UTF-8' });
	if (then === 'truncate') res.end(half);
	else if (then === 'drop') res.write(half, () => res.socket?.destroy());
	else res.write(half);
}

/** @param {unknown} value */
function text(value) {
	if (value === undefined || value === null) return '';
	return String(value);
}

module.exports = { handleWebService, sendTruncated, ENDPOINTS, send };
