// @ts-check
'use strict';

const http = require('node:http');
const { FIXTURE, credentialDataFor } = require('./fixtures');
const { EmulatorStore } = require('./store');
const { handleWebService, sendTruncated, ENDPOINTS } = require('./webService');
const { handleConnect } = require('./connect');
const { handleControl } = require('./control');
const { sendApiError, sendJson } = require('./errors');
const { negotiateEncoding, shapeAnswer } = require('./wire');

/**
 * An emulator of the App Builder API: two loopback HTTP servers (web services
 * and Connect) over one shared state, so tests can see which host received
 * which header.
 *
 * @typedef {import('./store').EmulatorConfig} EmulatorConfig
 * @typedef {{webPort?: number, connectPort?: number, host?: string, seed?: 'test' | 'demo' | false} & Partial<EmulatorConfig>} EmulatorOptions
 * @typedef {{webUrl: string, connectUrl: string, control: EmulatorStore, close: () => Promise<void>}} Emulator
 */

/**
 * @param {EmulatorOptions} [options]
 * @returns {Promise<Emulator>}
 */
async function startEmulator(options = {}) {
	const { webPort = 0, connectPort = 0, host = '127.0.0.1', seed = 'test', ...config } = options;
	const store = new EmulatorStore(seed);
	const initialConfig = { ...config };
	store.configure(initialConfig);
	// reset() restores the configuration the emulator was started with.
	const reset = store.reset.bind(store);
	store.reset = (nextSeed = seed || 'test') => {
		reset(nextSeed);
		store.configure(initialConfig);
	};

	const web = await listen(createServer(store, 'web'), webPort, host);
	const connect = await listen(createServer(store, 'connect'), connectPort, host);
	return {
		webUrl: `http://${host}:${web.port}`,
		connectUrl: `http://${host}:${connect.port}`,
		control: store,
		close: async () => {
			await Promise.all([web.close(), connect.close()]);
		},
	};
}

const KEEP_ALIVE_MS = 10 * 60_000;

/**
 * @param {EmulatorStore} store
 * @param {'web' | 'connect'} kind
 */
function createServer(store, kind) {
	const server = http.createServer((req, res) => {
		handleRequest(store, kind, req, res).catch((error) => {
			if (!res.headersSent) sendJson(res, 500, { error: String(error) });
			else res.destroy();
		});
	});
	// An idle connection is kept 10 minutes, not Node's 5 s. A test runs the emulator in its own
	// process: one that held the event loop past 5 s (100,000 inquiries made at once, on a busy
	// machine) sent its next request on the kept connection as the emulator closed it, and read
	// ECONNRESET (2 in 5 tries with the loop held 6 s).
	server.keepAliveTimeout = KEEP_ALIVE_MS;
	return server;
}

/**
 * @param {EmulatorStore} store
 * @param {'web' | 'connect'} kind
 * @param {http.IncomingMessage} req
 * @param {http.ServerResponse} res
 */
async function handleRequest(store, kind, req, res) {
	const url = new URL(req.url ?? '/', 'http://emulator');
	const path = url.pathname;
	const query = Object.fromEntries(url.searchParams.entries());
	const raw = await readBody(req);

	if (path.startsWith('/__emulator/')) {
		const body = parseBody(raw, req.headers['content-type']);
		handleControl(
			store,
			req.method ?? 'GET',
			path,
			body.ok ? { ...query, ...body.value } : query,
			res,
		);
		return;
	}

	const body = parseBody(raw, req.headers['content-type']);
	const params = {
		...query,
		...(body.ok && body.value && typeof body.value === 'object' ? body.value : {}),
	};
	/** @type {import('./store').LoggedRequest} */
	const entry = {
		server: kind,
		httpMethod: req.method ?? '',
		path,
		headers: { ...req.headers },
		query,
		body: body.ok ? body.value : raw,
		receivedAt: Date.now(),
		acceptEncoding: headerText(req.headers['accept-encoding']),
	};
	store.requestLog.push(entry);
	res.on('finish', () => {
		entry.status = res.statusCode;
		entry.finishedAt = Date.now();
	});
	const { compression, bandwidthBytesPerSecond, roundTripMs } = store.config;
	shapeAnswer(res, {
		coding: negotiateEncoding(req.headers['accept-encoding'], compression),
		bytesPerSecond: bandwidthBytesPerSecond,
		record: entry,
	});
	// The round trip of a distant link, before anything else (a fault included) answers.
	if (roundTripMs > 0) await delay(roundTripMs);

	const faultEndpoint = faultEndpointOf(kind, path);
	if (faultEndpoint) {
		const fault = store.takeFault(
			faultEndpoint,
			typeof params.pageId === 'string' ? params.pageId : undefined,
		);
		if (fault) {
			switch (fault.kind) {
				case 'latency':
					await delay(fault.ms ?? 1000);
					break;
				case 'held':
					await store.holdAnswer();
					break;
				case 'hang':
					return;
				case 'reset':
					req.socket.destroy();
					return;
				case 'truncate':
				case 'drop':
				case 'stall':
					sendTruncated(store, res, path, params, fault.kind);
					return;
				case 'redirect':
					res.writeHead(fault.status ?? 302, { Location: fault.location ?? '/' });
					res.end();
					return;
				case 'drip':
					dripForever(res, fault.ms ?? 500);
					return;
				case 'endless':
					sendEndlessInquiries(res);
					return;
				case 'noList':
					// A success without a list, as the API answers an app or form with nothing in it.
					sendJson(res, 200, { status: 'success', msg: 'No record found', data: null });
					return;
				case 'status':
					if (kind === 'web') sendApiError(res, fault.status ?? 500, store.config);
					else sendJson(res, fault.status ?? 500, { error: 'server_error' });
					return;
			}
		}
	}
	if (store.config.latencyMs > 0) await delay(store.config.latencyMs);

	if (kind === 'web' && !body.ok && ENDPOINTS[/** @type {keyof typeof ENDPOINTS} */ (path)]) {
		sendApiError(res, 400, store.config, 'the body is not valid JSON');
		return;
	}
	const handled =
		kind === 'web'
			? handleWebService(store, req, res, path, params)
			: handleConnect(store, req, res, path, params);
	if (!handled) sendJson(res, 404, { error: `nothing at ${path} on the ${kind} server` });
}

/**
 * @param {'web' | 'connect'} kind
 * @param {string} path
 * @returns {import('./store').FaultEndpoint | undefined}
 */
function faultEndpointOf(kind, path) {
	if (kind === 'web') return ENDPOINTS[/** @type {keyof typeof ENDPOINTS} */ (path)]?.fault;
	if (path === '/v1/oauth2/token') return 'token';
	if (path === '/v1/profile') return 'profile';
	return undefined;
}

/** @param {http.IncomingMessage} req */
function readBody(req) {
	return new Promise((resolve, reject) => {
		/** @type {Buffer[]} */
		const chunks = [];
		req.on('data', (chunk) => chunks.push(chunk));
		req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
		req.on('error', reject);
	});
}

/**
 * JSON or form-urlencoded, whichever the body is.
 * @param {string} raw
 * @param {string | undefined} contentType
 * @returns {{ok: true, value: any} | {ok: false}}
 */
function parseBody(raw, contentType) {
	if (raw.trim() === '') return { ok: true, value: {} };
	const type = String(contentType ?? '').toLowerCase();
	if (type.includes('application/x-www-form-urlencoded')) {
		return { ok: true, value: Object.fromEntries(new URLSearchParams(raw).entries()) };
	}
	try {
		return { ok: true, value: JSON.parse(raw) };
	} catch {
		if (type.includes('json')) return { ok: false };
		return { ok: true, value: Object.fromEntries(new URLSearchParams(raw).entries()) };
	}
}

/**
 * The start of an inquiries answer, then one byte of white space every `ms`
 * for as long as the client listens: valid JSON so far, never finished, and
 * never quiet long enough for an idle timeout.
 * @param {http.ServerResponse} res
 * @param {number} ms
 */
function dripForever(res, ms) {
	res.writeHead(200, { 'Content-Type': 'application/json; charset=UTF-8' });
	res.write('{"status":"success","msg":"Record found","data":[');
	const timer = setInterval(() => res.write(' '), ms);
	res.on('close', () => clearInterval(timer));
}

/**
 * An inquiries answer whose list never ends: new records as fast as the
 * client reads them, until it hangs up.
 * @param {http.ServerResponse} res
 */
function sendEndlessInquiries(res) {
	res.writeHead(200, { 'Content-Type': 'application/json; charset=UTF-8' });
	res.write('{"status":"success","msg":"Record found","data":[');
	let next = 0;
	const batch = () => {
		const records = [];
		for (let i = 0; i < 1000; i++, next++) {
			records.push(
				`${next === 0 ? '' : ','}{"_id":"endless${next}","addedon":${1700000000 + next},"formName":"Contact Us","formData":[["Ann"],["Name"],["name"]]}`,
			);
		}
		return records.join('');
	};
	const pump = () => {
		while (!res.destroyed && res.write(batch()));
	};
	res.on('drain', pump);
	pump();
}

/** @param {string | string[] | undefined} value */
function headerText(value) {
	return Array.isArray(value) ? value.join(', ') : value;
}

/** @param {number} ms */
function delay(ms) {
	return new Promise((resolve) => setTimeout(resolve, ms));
}

/**
 * @param {http.Server} server
 * @param {number} port
 * @param {string} host
 * @returns {Promise<{port: number, close: () => Promise<void>}>}
 */
function listen(server, port, host) {
	/** @type {Set<import('node:net').Socket>} */
	const sockets = new Set();
	server.on('connection', (socket) => {
		sockets.add(socket);
		socket.on('close', () => sockets.delete(socket));
	});
	return new Promise((resolve, reject) => {
		server.once('error', reject);
		server.listen(port, host, () => {
			const address = /** @type {import('node:net').AddressInfo} */ (server.address());
			resolve({
				port: address.port,
				close: () =>
					new Promise((done) => {
						for (const socket of sockets) socket.destroy();
						server.close(() => done(undefined));
					}),
			});
		});
	});
}

module.exports = { startEmulator, FIXTURE, credentialDataFor };
