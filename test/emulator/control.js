// @ts-check
'use strict';

const { sendJson } = require('./errors');

/**
 * The control interface tests, the demo and the benchmarks use to shape the
 * emulator over HTTP. It lives under /__emulator/, outside anything the real
 * API has, and mirrors the in-process `emu.control` methods.
 * @param {import('./store').EmulatorStore} store
 * @param {string} method
 * @param {string} path
 * @param {any} body
 * @param {import('node:http').ServerResponse} res
 */
function handleControl(store, method, path, body, res) {
	const route = `${method} ${path.replace(/^\/__emulator/, '')}`;
	const inquiry = /^(PATCH|DELETE) \/inquiries\/([^/]+)$/.exec(route);
	const input = body && typeof body === 'object' ? body : {};
	if (inquiry) {
		const id = decodeURIComponent(inquiry[2]);
		if (inquiry[1] === 'PATCH') {
			const updated = store.updateInquiry(id, input);
			return updated
				? sendJson(res, 200, updated)
				: sendJson(res, 404, { error: 'no such inquiry' });
		}
		return store.deleteInquiry(id)
			? sendJson(res, 200, { deleted: id })
			: sendJson(res, 404, { error: 'no such inquiry' });
	}
	switch (route) {
		case 'GET /state':
			return sendJson(res, 200, store.state());
		case 'POST /configure':
			return sendJson(res, 200, store.configure(input));
		case 'POST /reset':
			store.reset(input.seed ?? 'test');
			return sendJson(res, 200, store.state());
		case 'POST /accounts':
			store.addAccount(input);
			return sendJson(res, 200, { ok: true });
		case 'POST /apps':
			store.addApp(input);
			return sendJson(res, 200, { ok: true });
		case 'POST /connect-clients':
			store.addConnectClient(input);
			return sendJson(res, 200, { ok: true });
		case 'POST /inquiries':
			return sendJson(res, 200, store.addInquiry(input));
		case 'POST /inquiries/raw':
			return sendJson(res, 200, store.addRawInquiry(/** @type {any} */ (input)));
		case 'POST /inquiries/bulk':
			return sendJson(res, 200, { added: store.addInquiries(input) });
		case 'POST /inquiries/trim':
			return sendJson(res, 200, { deleted: store.trimForm(input) });
		case 'POST /forms/share':
			return sendJson(res, 200, { shared: store.shareForm(input) });
		case 'GET /inquiries':
			return sendJson(
				res,
				200,
				store.listInquiries(String(input.appId ?? ''), String(input.pageId ?? '')),
			);
		case 'GET /users':
			return sendJson(res, 200, store.users());
		case 'GET /requests':
			return sendJson(res, 200, store.requests());
		case 'DELETE /requests':
			store.clearRequests();
			return sendJson(res, 200, { ok: true });
		case 'POST /clock':
			if (typeof input.now === 'number') store.setClock(input.now);
			if (typeof input.advanceMs === 'number') store.advanceClock(input.advanceMs);
			return sendJson(res, 200, { now: store.now() });
		case 'POST /faults':
			store.injectFault(input);
			return sendJson(res, 200, { faults: store.faults });
		case 'DELETE /faults':
			store.clearFaults();
			return sendJson(res, 200, { ok: true });
		case 'POST /expire-tokens':
			store.expireAccessTokens();
			return sendJson(res, 200, { ok: true });
		default:
			return sendJson(res, 404, { error: `unknown control route ${route}` });
	}
}

module.exports = { handleControl };
