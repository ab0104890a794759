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
		},
	});
	const webPort = Number(values.port);
	const connectPort = values['connect-port'] === undefined ? webPort + 1 : Number(values['connect-port']);
	const seed = values.seed === 'none' ? false : values.seed === 'test' ? 'test' : 'demo';
	const emu = await startEmulator({
		webPort,
		connectPort,
		seed,
		timestampUnit: values['timestamp-unit'] === 'ms' ? 'ms' : 's',
	});
	console.log(`App Builder emulator: web services at ${emu.webUrl}`);
	console.log(`App Builder emulator: Connect API at ${emu.connectUrl}`);
	console.log(`Access token ${FIXTURE.accessToken}, API key ${FIXTURE.apiKey}, app ${FIXTURE.appId}, form ${FIXTURE.formPageId}`);
	console.log(`Connect client ${FIXTURE.clientId} / ${FIXTURE.clientSecret}, refresh token ${FIXTURE.refreshToken}`);

	/** @type {NodeJS.Timeout | undefined} */
	let timer;
	const every = Number(values['new-inquiry-every']);
	if (every > 0) {
		let count = 100;
		timer = setInterval(() => {
			const record = emu.control.addInquiry({ appId: FIXTURE.appId, pageId: FIXTURE.formPageId, fields: demoLeadFields(count++) });
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

main().catch((error) => {
	console.error(error);
	process.exit(1);
});
