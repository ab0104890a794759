#!/usr/bin/env node
// @ts-check
'use strict';

/**
 * npm run demo: the package inside a real n8n, against the App Builder API
 * emulator seeded with a sample app whose Contact Us form receives a new
 * inquiry every minute. An active workflow routes each lead by its budget.
 * Ctrl-C stops everything.
 */
const { mkdtempSync, rmSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join } = require('node:path');
const { credentialDataFor, startEmulator, FIXTURE } = require('../emulator');
const { demoLeadFields } = require('../emulator/fixtures');
const { N8nInstance, OWNER, packPackage } = require('./n8nInstance');
const { APP_BUILDER_TRIGGER } = require('./workflows');

const N8N_PORT = Number(process.env.DEMO_N8N_PORT ?? 5678);
const NEW_INQUIRY_EVERY_MS = 60_000;

/** @param {{id: string, name: string}} credential */
function leadRoutingWorkflow(credential) {
	return {
		name: 'Route new leads by budget',
		nodes: [
			{
				id: 'trigger',
				name: 'New Contact Us Inquiry',
				type: APP_BUILDER_TRIGGER,
				typeVersion: 1,
				position: [0, 0],
				parameters: {
					pollTimes: { item: [{ mode: 'everyMinute' }] },
					event: 'new',
					appId: FIXTURE.appId,
					pageId: { __rl: true, mode: 'id', value: FIXTURE.formPageId },
					simplify: true,
					options: { firstPoll: 'latest', firstPollCount: 3 },
				},
				credentials: { appBuilderApi: credential },
			},
			{
				id: 'route',
				name: 'Budget Over 10k?',
				type: 'n8n-nodes-base.if',
				typeVersion: 2.2,
				position: [260, 0],
				parameters: {
					conditions: {
						options: { caseSensitive: true, leftValue: '', typeValidation: 'loose', version: 2 },
						conditions: [
							{
								id: 'budget',
								leftValue: "={{ ['10000-20000', '20000+'].includes($json.budget) }}",
								rightValue: '',
								operator: { type: 'boolean', operation: 'true', singleValue: true },
							},
						],
						combinator: 'and',
					},
					options: {},
				},
			},
			setNode('sales', 'To Sales Team', 520, -100, 'sales'),
			setNode('nurture', 'To Newsletter', 520, 100, 'newsletter'),
		],
		connections: {
			'New Contact Us Inquiry': { main: [[{ node: 'Budget Over 10k?', type: 'main', index: 0 }]] },
			'Budget Over 10k?': {
				main: [
					[{ node: 'To Sales Team', type: 'main', index: 0 }],
					[{ node: 'To Newsletter', type: 'main', index: 0 }],
				],
			},
		},
	};
}

/**
 * @param {string} id
 * @param {string} name
 * @param {number} x
 * @param {number} y
 * @param {string} route
 */
function setNode(id, name, x, y, route) {
	return {
		id,
		name,
		type: 'n8n-nodes-base.set',
		typeVersion: 3.4,
		position: [x, y],
		parameters: {
			assignments: {
				assignments: [{ id: `${id}-route`, name: 'route', value: route, type: 'string' }],
			},
			includeOtherFields: true,
			options: {},
		},
	};
}

async function main() {
	console.log('Building and packing n8n-nodes-appbuilder...');
	const tarball = packPackage(mkdtempSync(join(tmpdir(), 'appbuilder-demo-pack-')));
	const emu = await startEmulator({ seed: 'demo' });
	let count = 0;
	const timer = setInterval(() => {
		const record = emu.control.addInquiry({
			appId: FIXTURE.appId,
			pageId: FIXTURE.formPageId,
			fields: demoLeadFields(6 + count++),
		});
		console.log(`Emulator: new inquiry ${record._id} from ${record.formData[0][0]}`);
	}, NEW_INQUIRY_EVERY_MS);

	console.log(
		'Starting n8n (the first run installs it into ~/.cache/n8n-nodes-appbuilder, a few minutes)...',
	);
	const n8n = await N8nInstance.start({ packageTarball: tarball, port: N8N_PORT });
	const credentialId = await n8n.createCredential(
		'App Builder (demo emulator)',
		'appBuilderApi',
		credentialDataFor(emu, { connect: true }),
	);
	const workflowId = await n8n.createWorkflow(
		leadRoutingWorkflow({ id: credentialId, name: 'App Builder (demo emulator)' }),
	);
	await n8n.activate(workflowId);

	console.log('');
	console.log(`n8n editor:   ${n8n.url}/workflow/${workflowId}`);
	console.log(`Login:        ${OWNER.email} / ${OWNER.password}`);
	console.log(
		`Emulator:     ${emu.webUrl} (Connect ${emu.connectUrl}); a new lead arrives every minute`,
	);
	console.log("Executions appear under the workflow's Executions tab. Ctrl-C stops everything.");

	let stopping = false;
	const stop = async () => {
		if (stopping) return;
		stopping = true;
		console.log('\nStopping n8n and the emulator...');
		clearInterval(timer);
		await n8n.destroy();
		await emu.close();
		rmSync(tarball, { force: true });
		process.exit(0);
	};
	process.on('SIGINT', stop);
	process.on('SIGTERM', stop);
}

main().catch((error) => {
	console.error(error);
	process.exit(1);
});
