#!/usr/bin/env node
// @ts-check
'use strict';

const { parseArgs } = require('node:util');
const { startEmulator, FIXTURE } = require('./index');
const { demoLeadFields } = require('./fixtures');

/** Starts the App Builder API emulator on loopback, for a demo or for manual testing. */
async function main() {
	const { values } = parseArgs({
		options: {
			port: { type: 'string', default: '8787' },
			'connect-port': { type: 'string' },
			seed: { type: 'string', default: 'demo' },
			'timestamp-unit': { type: 'string', default: 's' },
			'new-inquiry-every': { type: 'string' },
			// on, off, or the codings allowed: gzip,br,deflate
			compression: { type: 'string', default: 'off' },
			'bandwidth-bytes-per-second': { type: 'string' },
			'round-trip-ms': { type: 'string', default: '0' },
		},
	});
	const webPort = Number(values.port);
	const connectPort =
		values['connect-port'] === undefined ? webPort + 1 : Number(values['connect-port']);
	const seed = values.seed === 'none' ? false : values.seed === 'test' ? 'test' : 'demo';
	const emu = await startEmulator({
		webPort,
		connectPort,
		seed,
		timestampUnit: values['timestamp-unit'] === 'ms' ? 'ms' : 's',
		compression: compressionOption(values.compression),
		bandwidthBytesPerSecond:
			values['bandwidth-bytes-per-second'] === undefined
				? null
				: Number(values['bandwidth-bytes-per-second']),
		roundTripMs: Number(values['round-trip-ms']),
	});
	console.log(`App Builder emulator: web services at ${emu.webUrl}`);
	console.log(`App Builder emulator: Connect API at ${emu.connectUrl}`);
	console.log(
		`Access token ${FIXTURE.accessToken}, API key ${FIXTURE.apiKey}, app ${FIXTURE.appId}, form ${FIXTURE.formPageId}`,
	);
	console.log(
		`Connect client ${FIXTURE.clientId} / ${FIXTURE.clientSecret}, refresh token ${FIXTURE.refreshToken}`,
	);

	/** @type {NodeJS.Timeout | undefined} */
	let timer;
	const every = Number(values['new-inquiry-every']);
	if (every > 0) {
		let count = 100;
		timer = setInterval(() => {
			const record = emu.control.addInquiry({
				appId: FIXTURE.appId,
				pageId: FIXTURE.formPageId,
				fields: demoLeadFields(count++),
			});
			console.log(`New inquiry ${record._id} on ${FIXTURE.formPageId}`);
		}, every * 1000);
	}
	const stop = async () => {
		if (timer) clearInterval(timer);
		await emu.close();
		process.exit(0);
	};
	process.on('SIGINT', stop);
	process.on('SIGTERM', stop);
}

/**
 * @param {string} value on, off, or a comma-separated list of codings
 * @returns {boolean | Array<'gzip' | 'br' | 'deflate'>}
 */
function compressionOption(value) {
	if (value === 'on' || value === 'true') return true;
	if (value === 'off' || value === 'false' || value === '') return false;
	const codings = value.split(',').map((coding) => coding.trim());
	for (const coding of codings) {
		if (coding !== 'gzip' && coding !== 'br' && coding !== 'deflate')
			throw new Error(`--compression: unknown coding ${coding}`);
	}
	return /** @type {Array<'gzip' | 'br' | 'deflate'>} */ (codings);
}

main().catch((error) => {
	console.error(error);
	process.exit(1);
});
