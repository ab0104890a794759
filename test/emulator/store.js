// @ts-check
'use strict';

const { randomBytes } = require('node:crypto');
const { FIXTURE, DEMO_LEADS, demoLeadFields } = require('./fixtures');
const { objectId, renderInquiry, forgetRendered } = require('./records');

/**
 * @typedef {import('./records').StoredInquiry} StoredInquiry
 * @typedef {{
 *   errorDelivery: 'http-status' | 'body',
 *   errorShape: 'status-code-msg' | 'successCode-message' | 'html',
 *   timestampUnit: 's' | 'ms',
 *   rateLimitPerSecond: number | null,
 *   throttleEvery: number | null,
 *   throttleRetryAfter: string,
 *   tokenLifetimeSeconds: number,
 *   rotateRefreshTokens: boolean,
 *   connectRequiresAccessToken: boolean,
 *   latencyMs: number,
 *   compression: boolean | Array<'gzip' | 'br' | 'deflate'>,
 *   bandwidthBytesPerSecond: number | null,
 *   roundTripMs: number,
 *   reusedAnswerMaxInquiries: number,
 * }} EmulatorConfig
 * @typedef {'addUser' | 'editUser' | 'formBuilderInquiries' | 'getAppFeatures' | 'token' | 'profile' | '*'} FaultEndpoint
 * @typedef {{endpoint: FaultEndpoint, kind: 'latency' | 'held' | 'status' | 'hang' | 'truncate' | 'drop' | 'stall' | 'reset' | 'redirect' | 'drip' | 'endless' | 'noList', times: number, status?: number, ms?: number, location?: string, pageId?: string}} Fault
 * @typedef {{server: 'web' | 'connect', httpMethod: string, path: string, headers: Record<string, string | string[] | undefined>, query: Record<string, string>, body: any, receivedAt: number, status?: number, finishedAt?: number, acceptEncoding?: string, contentEncoding?: 'gzip' | 'br' | 'deflate', bodyBytes?: number, wireBytes?: number, codedBytesReused?: boolean}} LoggedRequest
 * @typedef {{name: string, email: string, phone: string, password: string, passwordType: string, group: string, status: string}} AppUser
 */

/** @returns {EmulatorConfig} */
function defaultConfig() {
	return {
		errorDelivery: 'http-status',
		errorShape: 'status-code-msg',
		timestampUnit: 's',
		rateLimitPerSecond: null,
		throttleEvery: null,
		throttleRetryAfter: '1',
		tokenLifetimeSeconds: 3600,
		rotateRefreshTokens: true,
		connectRequiresAccessToken: false,
		latencyMs: 0,
		compression: false,
		bandwidthBytesPerSecond: null,
		roundTripMs: 0,
		// A form's answer is built whole and kept, its coded bytes too, up to this many inquiries (webService.js).
		reusedAnswerMaxInquiries: 20_000,
	};
}

/** All of the emulator's state, and the operations tests use to shape it. */
class EmulatorStore {
	/** @type {EmulatorConfig} */
	config = defaultConfig();
	clockOffsetMs = 0;
	throttleCount = 0;
	/** @type {Map<string, {apiKey: string, users: AppUser[]}>} accessToken -> account */
	accounts = new Map();
	/** @type {Map<string, {accessToken: string, pages: Array<{pageId: string, pageName: string}>}>} */
	apps = new Map();
	/** @type {Map<string, StoredInquiry[]>} "appId/pageId" -> inquiries in insertion order */
	inquiriesByForm = new Map();
	/** @type {Map<string, StoredInquiry>} */
	inquiriesById = new Map();
	/** @type {Map<string, {clientSecret: string}>} */
	connectClients = new Map();
	/** @type {Map<string, string>} refresh token -> clientId */
	refreshTokens = new Map();
	/** @type {Map<string, {clientId: string, expiresAtMs: number}>} */
	accessTokens = new Map();
	/** @type {Fault[]} */
	faults = [];
	/** @type {Array<() => void>} The answers a `held` fault holds, each let go by releaseHeld(). */
	held = [];
	/** @type {LoggedRequest[]} */
	requestLog = [];
	/** @type {Map<string, {windowStart: number, count: number}>} */
	rateWindows = new Map();
	bulkSeq = 0;
	/** Raised on every change to any form's inquiries, so an answer built from them can be reused until then. */
	inquiriesVersion = 0;

	/** @param {'test' | 'demo' | false} seed */
	constructor(seed = 'test') {
		if (seed) this.seedFixture(seed);
	}

	/** Back to a fresh emulator, optionally seeded. @param {'test' | 'demo' | false} [seed] */
	reset(seed = 'test') {
		Object.assign(this, new EmulatorStore(false));
		if (seed) this.seedFixture(seed);
	}

	/** @param {'test' | 'demo'} seed */
	seedFixture(seed) {
		this.addAccount({ accessToken: FIXTURE.accessToken, apiKey: FIXTURE.apiKey });
		this.addApp({
			appId: FIXTURE.appId,
			accessToken: FIXTURE.accessToken,
			pages: FIXTURE.pages.map((p) => ({ ...p })),
		});
		this.addConnectClient({
			clientId: FIXTURE.clientId,
			clientSecret: FIXTURE.clientSecret,
			refreshToken: FIXTURE.refreshToken,
		});
		if (seed === 'demo') {
			const now = this.now();
			for (let i = 0; i < 6; i++) {
				const addedon = now - (6 - i) * 7 * 3600 * 1000;
				this.addInquiry({
					appId: FIXTURE.appId,
					pageId: FIXTURE.formPageId,
					fields: demoLeadFields(i),
					addedon,
					updatedon: addedon,
					readStatus: i < 3 ? 1 : 0,
				});
			}
		}
	}

	/** @param {Partial<EmulatorConfig>} partial */
	configure(partial) {
		this.config = /** @type {EmulatorConfig} */ ({ ...this.config, ...partial });
		return this.config;
	}

	now() {
		return Date.now() + this.clockOffsetMs;
	}

	/** @param {number} ms */
	setClock(ms) {
		this.clockOffsetMs = ms - Date.now();
	}

	/** @param {number} ms */
	advanceClock(ms) {
		this.clockOffsetMs += ms;
	}

	/** @param {{accessToken: string, apiKey: string}} account */
	addAccount({ accessToken, apiKey }) {
		this.accounts.set(accessToken, { apiKey, users: [] });
	}

	/** @param {{appId: string, accessToken: string, pages: Array<{pageId: string, pageName: string}>}} app */
	addApp({ appId, accessToken, pages }) {
		this.apps.set(appId, { accessToken, pages });
	}

	/** @param {{clientId: string, clientSecret: string, refreshToken: string}} client */
	addConnectClient({ clientId, clientSecret, refreshToken }) {
		this.connectClients.set(clientId, { clientSecret });
		this.refreshTokens.set(refreshToken, clientId);
	}

	/**
	 * Adds one inquiry. addedon and updatedon are epoch milliseconds; any other
	 * record field given (formData, formbuilderData, readStatus, ...) replaces the generated one.
	 * @param {{appId: string, pageId: string, fields?: Array<{name: string, label: string, value: string}>, addedon?: number, updatedon?: number, [key: string]: unknown}} input
	 */
	addInquiry(input) {
		const { appId, pageId, fields, addedon, updatedon, ...rest } = input;
		const addedMs = typeof addedon === 'number' ? addedon : this.now();
		const {
			_id,
			requestId,
			formName,
			subject,
			requestPage,
			paymentStatus,
			mailStatus,
			status,
			readStatus,
			...overrides
		} = rest;
		const index = this.formInquiries(appId, pageId).length;
		/** @type {StoredInquiry} */
		const record = {
			_id: typeof _id === 'string' ? _id : objectId(addedMs),
			appId,
			pageId,
			requestId:
				typeof requestId === 'string'
					? requestId
					: `REQ${String(Math.floor(Math.random() * 1e9)).padStart(9, '0')}`,
			addedMs,
			updatedMs: typeof updatedon === 'number' ? updatedon : addedMs,
			fields: fields ?? demoLeadFields(index),
			formName: typeof formName === 'string' ? formName : this.pageName(appId, pageId),
			subject: typeof subject === 'string' ? subject : 'New inquiry',
			requestPage: typeof requestPage === 'string' ? requestPage : this.pageName(appId, pageId),
			paymentStatus: typeof paymentStatus === 'string' ? paymentStatus : 'free',
			mailStatus: typeof mailStatus === 'number' ? mailStatus : 1,
			status: typeof status === 'number' ? status : 1,
			readStatus: typeof readStatus === 'number' ? readStatus : 0,
			...(Object.keys(overrides).length > 0 ? { overrides } : {}),
		};
		this.formInquiries(appId, pageId).push(record);
		this.inquiriesById.set(record._id, record);
		this.inquiriesVersion++;
		return renderInquiry(record, this.config.timestampUnit);
	}

	/**
	 * Adds one record as raw text, served verbatim in the form's answer: for
	 * records the real API sends broken (a bare word, a raw control character,
	 * a bad escape). `_id` only names it for deleteInquiry.
	 * @param {{appId: string, pageId: string, json: string, _id?: string}} input
	 */
	addRawInquiry({ appId, pageId, json, _id }) {
		const addedMs = this.now();
		/** @type {StoredInquiry} */
		const record = {
			_id: typeof _id === 'string' ? _id : objectId(addedMs),
			appId,
			pageId,
			requestId: '',
			addedMs,
			updatedMs: addedMs,
			formName: '',
			subject: '',
			requestPage: '',
			paymentStatus: '',
			mailStatus: 0,
			status: 0,
			readStatus: 0,
			rawJson: String(json),
		};
		this.formInquiries(appId, pageId).push(record);
		this.inquiriesById.set(record._id, record);
		this.inquiriesVersion++;
		return { _id: record._id };
	}

	/**
	 * Many inquiries at once, for load tests and benchmarks; fields are derived from a sequence number.
	 * @param {{appId: string, pageId: string, count: number, fieldsPerRecord?: number, startTime?: number, spacingMs?: number}} input
	 */
	addInquiries({ appId, pageId, count, fieldsPerRecord = 10, startTime, spacingMs = 1000 }) {
		const list = this.formInquiries(appId, pageId);
		const start = startTime ?? this.now() - count * spacingMs;
		const formName = this.pageName(appId, pageId);
		for (let i = 0; i < count; i++) {
			const seq = this.bulkSeq++;
			const addedMs = start + i * spacingMs;
			/** @type {StoredInquiry} */
			const record = {
				_id: objectId(addedMs),
				appId,
				pageId,
				requestId: `BULK${seq}`,
				addedMs,
				updatedMs: addedMs,
				bulkSeq: seq,
				bulkFieldCount: fieldsPerRecord,
				formName,
				subject: 'New inquiry',
				requestPage: formName,
				paymentStatus: 'free',
				mailStatus: 1,
				status: 1,
				readStatus: 0,
			};
			list.push(record);
			this.inquiriesById.set(record._id, record);
		}
		this.inquiriesVersion++;
		return count;
	}

	/**
	 * Deletes a form's oldest inquiries (the first added) until `keep` are
	 * left: a form that keeps its size while new inquiries arrive.
	 * @param {{appId: string, pageId: string, keep: number}} input
	 * @returns {number} how many were deleted
	 */
	trimForm({ appId, pageId, keep }) {
		const list = this.formInquiries(appId, pageId);
		const excess = Math.max(0, list.length - Math.max(0, Math.floor(keep)));
		for (const record of list.splice(0, excess)) this.inquiriesById.delete(record._id);
		this.inquiriesVersion++;
		return excess;
	}

	/**
	 * Makes forms hold the very same inquiries as another form of the same
	 * app: one list, so an inquiry added to any of them is in all of them.
	 * Many forms then cost the memory of one (benchmarks with hundreds of
	 * forms); each is still asked for by its own page ID.
	 * @param {{appId: string, from: string, pageIds: string[]}} input
	 * @returns {number} how many forms now share the list
	 */
	shareForm({ appId, from, pageIds }) {
		const list = this.formInquiries(appId, from);
		for (const pageId of pageIds) this.inquiriesByForm.set(`${appId}/${pageId}`, list);
		this.inquiriesVersion++;
		return pageIds.length;
	}

	/**
	 * @param {string} id
	 * @param {Record<string, unknown>} patch
	 */
	updateInquiry(id, patch) {
		const record = this.inquiriesById.get(id);
		if (!record) return undefined;
		forgetRendered(record);
		this.inquiriesVersion++;
		const { updatedon, addedon, fields, ...rest } = patch;
		record.updatedMs = typeof updatedon === 'number' ? updatedon : this.now();
		if (typeof addedon === 'number') record.addedMs = addedon;
		if (Array.isArray(fields)) {
			record.fields = /** @type {any} */ (fields);
			delete record.bulkSeq;
		}
		for (const [key, value] of Object.entries(rest)) {
			if (['readStatus', 'mailStatus', 'status'].includes(key) && typeof value === 'number') {
				/** @type {any} */ (record)[key] = value;
			} else {
				record.overrides = { ...(record.overrides ?? {}), [key]: value };
			}
		}
		return renderInquiry(record, this.config.timestampUnit);
	}

	/** @param {string} id */
	deleteInquiry(id) {
		const record = this.inquiriesById.get(id);
		if (!record) return false;
		this.inquiriesById.delete(id);
		const list = this.formInquiries(record.appId, record.pageId);
		const index = list.indexOf(record);
		if (index >= 0) list.splice(index, 1);
		this.inquiriesVersion++;
		return true;
	}

	/**
	 * @param {string} appId
	 * @param {string} pageId
	 */
	listInquiries(appId, pageId) {
		return this.formInquiries(appId, pageId).map((record) =>
			record.rawJson === undefined
				? renderInquiry(record, this.config.timestampUnit)
				: { _id: record._id, rawJson: record.rawJson },
		);
	}

	/**
	 * @param {string} appId
	 * @param {string} pageId
	 */
	formInquiries(appId, pageId) {
		const key = `${appId}/${pageId}`;
		let list = this.inquiriesByForm.get(key);
		if (!list) {
			list = [];
			this.inquiriesByForm.set(key, list);
		}
		return list;
	}

	/**
	 * @param {string} appId
	 * @param {string} pageId
	 */
	pageName(appId, pageId) {
		return (
			this.apps.get(appId)?.pages.find((page) => page.pageId === pageId)?.pageName ?? 'Contact Us'
		);
	}

	/** Registered app users of every account, for assertions. */
	users() {
		return [...this.accounts.values()].flatMap((account) =>
			account.users.map((user) => ({ ...user })),
		);
	}

	/** @param {Omit<Fault, 'times'> & {times?: number}} fault */
	injectFault(fault) {
		this.faults.push({ times: 1, ...fault });
	}

	clearFaults() {
		this.faults = [];
		this.releaseHeld();
	}

	/** An answer a `held` fault holds: it goes on once releaseHeld() is called. @returns {Promise<void>} */
	holdAnswer() {
		return new Promise((release) => this.held.push(() => release()));
	}

	/** Lets every answer a `held` fault holds go on, as they were going to be. */
	releaseHeld() {
		for (const release of this.held.splice(0)) release();
	}

	/**
	 * The next fault for an endpoint, used up as it is taken.
	 * @param {FaultEndpoint} endpoint
	 * @param {string} [pageId] the form a FormBuilderApi request asks for
	 */
	takeFault(endpoint, pageId) {
		// A fault with a pageId hits only that form's requests.
		const index = this.faults.findIndex(
			(fault) =>
				(fault.endpoint === endpoint || fault.endpoint === '*') &&
				(fault.pageId === undefined || fault.pageId === pageId),
		);
		if (index < 0) return undefined;
		const fault = this.faults[index];
		fault.times -= 1;
		if (fault.times <= 0) this.faults.splice(index, 1);
		return fault;
	}

	requests() {
		return this.requestLog.map((entry) => ({ ...entry }));
	}

	clearRequests() {
		this.requestLog = [];
	}

	/** @param {string} clientId */
	issueTokens(clientId) {
		const accessToken = randomBytes(24).toString('base64url');
		const refreshToken = randomBytes(24).toString('base64url');
		const expiresAtMs = this.now() + this.config.tokenLifetimeSeconds * 1000;
		this.accessTokens.set(accessToken, { clientId, expiresAtMs });
		this.refreshTokens.set(refreshToken, clientId);
		return { accessToken, refreshToken, expiresAtMs };
	}

	expireAccessTokens() {
		for (const token of this.accessTokens.values()) token.expiresAtMs = 0;
	}

	/**
	 * Whether a request may pass the per-token fixed one-second window; if not, seconds to wait.
	 * @param {string} accessToken
	 * @returns {number | undefined}
	 */
	rateLimited(accessToken) {
		const limit = this.config.rateLimitPerSecond;
		if (!limit) return undefined;
		const now = Date.now();
		const windowStart = Math.floor(now / 1000) * 1000;
		const window = this.rateWindows.get(accessToken);
		if (!window || window.windowStart !== windowStart) {
			this.rateWindows.set(accessToken, { windowStart, count: 1 });
			return undefined;
		}
		window.count += 1;
		return window.count > limit
			? Math.max(1, Math.ceil((windowStart + 1000 - now) / 1000))
			: undefined;
	}

	/**
	 * With throttleEvery N, every N-th web-service request is refused with 429 and
	 * Retry-After throttleRetryAfter, whoever sends it: a limit that items in flight
	 * together keep running into.
	 * @returns {string | undefined} the Retry-After value when this request is refused
	 */
	throttled() {
		const every = this.config.throttleEvery;
		if (!every) return undefined;
		this.throttleCount += 1;
		return this.throttleCount % every === 0 ? this.config.throttleRetryAfter : undefined;
	}

	state() {
		return {
			config: this.config,
			now: this.now(),
			accounts: [...this.accounts.entries()].map(([accessToken, account]) => ({
				accessToken,
				apiKey: account.apiKey,
				users: account.users,
			})),
			apps: [...this.apps.entries()].map(([appId, app]) => ({ appId, ...app })),
			forms: [...this.inquiriesByForm.entries()].map(([form, list]) => ({
				form,
				inquiries: list.length,
			})),
			faults: this.faults,
			connectClients: [...this.connectClients.keys()],
		};
	}
}

module.exports = { EmulatorStore, defaultConfig, DEMO_LEADS };
