// @ts-check
'use strict';

/** The spec's error table, with the spec's own texts. */
const ERROR_TEXT = {
	400: 'Bad Request',
	401: 'Unauthorized',
	403: 'Forbidden',
	404: 'Not Found',
	405: 'Method Not Allowed',
	406: 'Not Acceptable',
	410: 'Gone',
	429: 'Too Many Requests',
	500: 'Internal Server Error',
	503: 'Service Unavailable',
	2032: 'API Key is required',
	2034: 'Email is required',
	2036: 'Invalid API Key',
	2038: 'Provide valid API Key',
	2039: 'Email already exists',
	2040: 'Phone already exists',
	2041: 'Email Invalid',
};

/**
 * Sends an error in the configured form. The spec leaves open whether codes
 * come as the HTTP status or in a 200 body, and what the body looks like, so
 * each plausible form can be chosen.
 * @param {import('node:http').ServerResponse} res
 * @param {number} code
 * @param {{errorDelivery: 'http-status' | 'body', errorShape: 'status-code-msg' | 'successCode-message' | 'html'}} config
 * @param {string} [detail]
 * @param {Record<string, string>} [headers]
 */
function sendApiError(res, code, config, detail, headers = {}) {
	const text = /** @type {Record<number, string>} */ (ERROR_TEXT)[code] ?? 'Error';
	const message = detail ? `${text}: ${detail}` : text;
	const status = config.errorDelivery === 'body' ? 200 : code < 600 ? code : 400;
	if (config.errorShape === 'html') {
		const page = `<!DOCTYPE html><html><head><title>${code} ${text}</title></head><body><h1>Error ${code}</h1><p>${escapeHtml(message)}</p><hr><address>Apache Server</address></body></html>`;
		send(res, status, page, { 'Content-Type': 'text/html; charset=UTF-8', ...headers });
		return;
	}
	const body =
		config.errorShape === 'successCode-message'
			? { successCode: String(code), message }
			: { status: 'error', code, msg: message };
	sendJson(res, status, body, headers);
}

/**
 * @param {import('node:http').ServerResponse} res
 * @param {number} status
 * @param {unknown} body
 * @param {Record<string, string>} [headers]
 */
function sendJson(res, status, body, headers = {}) {
	send(res, status, JSON.stringify(body), {
		'Content-Type': 'application/json; charset=UTF-8',
		...headers,
	});
}

/**
 * @param {import('node:http').ServerResponse} res
 * @param {number} status
 * @param {string} text
 * @param {Record<string, string>} headers
 */
function send(res, status, text, headers) {
	if (res.headersSent || res.destroyed) return;
	res.writeHead(status, { 'Content-Length': String(Buffer.byteLength(text)), ...headers });
	res.end(text);
}

/** @param {string} text */
function escapeHtml(text) {
	return text.replace(
		/[&<>"]/g,
		(c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c] ?? c,
	);
}

module.exports = { ERROR_TEXT, sendApiError, sendJson, send };
