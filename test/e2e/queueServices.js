// @ts-check
'use strict';

const { execFileSync, spawn } = require('node:child_process');
const { chmodSync, existsSync, mkdtempSync, readdirSync, rmSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join } = require('node:path');
const { aptInstall } = require('./debianPackages');
const { freePort } = require('./n8nInstance');

/**
 * Redis and PostgreSQL from Debian's packages, started on loopback in
 * temporary folders for n8n's queue mode (main + worker). Installed with
 * apt-get on first use; CI runs as root.
 */
function ensureInstalled() {
	const missing = [];
	if (!existsSync('/usr/bin/redis-server')) missing.push('redis-server');
	if (!postgresBin()) missing.push('postgresql');
	if (missing.length === 0) return;
	aptInstall(missing);
}

function postgresBin() {
	const root = '/usr/lib/postgresql';
	if (!existsSync(root)) return undefined;
	const versions = readdirSync(root).sort((a, b) => Number(b) - Number(a));
	for (const version of versions) {
		const bin = join(root, version, 'bin');
		if (existsSync(join(bin, 'postgres'))) return bin;
	}
	return undefined;
}

/**
 * @param {string} command
 * @param {string[]} args
 * @param {(text: string) => boolean} ready
 */
function startProcess(command, args, ready) {
	return new Promise((resolve, reject) => {
		const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
		let output = '';
		const timer = setTimeout(
			() => reject(new Error(`${command} did not start:\n${output}`)),
			60_000,
		);
		/** @param {Buffer} chunk */
		const onData = (chunk) => {
			output += chunk.toString();
			if (ready(output)) {
				clearTimeout(timer);
				resolve(child);
			}
		};
		child.stdout?.on('data', onData);
		child.stderr?.on('data', onData);
		child.on('exit', (code) => {
			clearTimeout(timer);
			reject(new Error(`${command} exited (${code}):\n${output}`));
		});
	});
}

/** Starts Redis and PostgreSQL; returns n8n's environment for them and a stop function. */
async function startQueueServices() {
	ensureInstalled();
	const redisPort = await freePort();
	/** @type {import('node:child_process').ChildProcess} */
	const redis = /** @type {any} */ (
		await startProcess(
			'/usr/bin/redis-server',
			['--port', String(redisPort), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
			(out) => out.includes('Ready to accept connections'),
		)
	);

	const bin = /** @type {string} */ (postgresBin());
	const dataDir = mkdtempSync(join(tmpdir(), 'n8n-pg-'));
	chmodSync(dataDir, 0o700);
	execFileSync('chown', ['postgres:postgres', dataDir]);
	const asPostgres = (/** @type {string[]} */ args) => ['-u', 'postgres', '--', ...args];
	execFileSync(
		'runuser',
		asPostgres([join(bin, 'initdb'), '-D', dataDir, '--auth=trust', '-U', 'postgres']),
		{ stdio: 'ignore' },
	);
	const pgPort = await freePort();
	/** @type {import('node:child_process').ChildProcess} */
	const postgres = /** @type {any} */ (
		await startProcess(
			'runuser',
			asPostgres([
				join(bin, 'postgres'),
				'-D',
				dataDir,
				'-p',
				String(pgPort),
				'-k',
				dataDir,
				'-c',
				'listen_addresses=127.0.0.1',
			]),
			(out) => out.includes('ready to accept connections'),
		)
	);

	return {
		env: {
			DB_TYPE: 'postgresdb',
			DB_POSTGRESDB_HOST: '127.0.0.1',
			DB_POSTGRESDB_PORT: String(pgPort),
			DB_POSTGRESDB_DATABASE: 'postgres',
			DB_POSTGRESDB_USER: 'postgres',
			DB_POSTGRESDB_PASSWORD: '',
			// A connection may take a minute to open on a busy machine (n8n's default: 20 s).
			DB_POSTGRESDB_CONNECTION_TIMEOUT: '60000',
			EXECUTIONS_MODE: 'queue',
			QUEUE_BULL_REDIS_HOST: '127.0.0.1',
			QUEUE_BULL_REDIS_PORT: String(redisPort),
		},
		async stop() {
			for (const child of [postgres, redis]) {
				if (child.exitCode !== null) continue;
				const exited = new Promise((r) => child.once('exit', r));
				child.kill('SIGTERM');
				await exited;
			}
			rmSync(dataDir, { recursive: true, force: true });
		},
	};
}

module.exports = { startQueueServices };
