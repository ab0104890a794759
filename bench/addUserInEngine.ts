/* eslint-disable @n8n/community-nodes/no-restricted-globals, no-console -- n8n Cloud's limits are for nodes; this runs on Node itself (timers, process, built-in modules); it prints its progress and figures */
/**
 * Add User over many items through n8n-core's engine in this process, the
 * emulator in a process of its own answering after a fixed latency: a quick
 * figure against the ideal (items × latency ÷ concurrency) without starting
 * a real n8n, and the client's CPU time per item (what bounds a run once the
 * event loop is busy all the time).
 *
 * Next to it, the floor: a bare node doing only what any node must do for
 * the same calls in n8n (evaluate the four field expressions, hash the
 * password, one `helpers.httpRequest`), as many at a time.
 *
 * From the repository's root (for a CPU profile, `node --cpu-prof --import tsx` in place of `npx tsx`):
 *   npx tsx bench/addUserInEngine.ts [items] [latencyMs] [concurrency...]
 */
import { createHash } from 'node:crypto';

import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import { AppBuilderApi } from '../credentials/AppBuilderApi.credentials';
import { credentialDataFor, FIXTURE } from '../test/emulator';
import { MemoryCredentialsHelper, runNode, testNodeType, type NodeRun } from '../test/harness';
import { addUserParameters, runAppBuilder } from '../test/support/appBuilderRuns';
import { EmulatorProcess } from './lib/emulatorProcess';

const FIELDS = ['email', 'name', 'password', 'phone'] as const;

/** The floor: each item's four expressions, the hash, and one request, `concurrency` at a time. */
const floorNode = testNodeType({
	displayName: 'Floor',
	description: 'The least work an Add User node does in n8n',
	properties: [
		...FIELDS.map((name) => ({ displayName: name, name, type: 'string' as const, default: '' })),
		{ displayName: 'URL', name: 'url', type: 'string', default: '' },
		{ displayName: 'Concurrency', name: 'concurrency', type: 'number', default: 5 },
	],
	async execute() {
		const count = this.getInputData().length;
		const url = this.getNodeParameter('url', 0) as string;
		const concurrency = this.getNodeParameter('concurrency', 0) as number;
		const out = new Array<INodeExecutionData>(count);
		let next = 0;
		const slot = async () => {
			while (next < count) {
				const item = next++;
				const [email, name, password, phone] = FIELDS.map(
					(field) => this.getNodeParameter(field, item) as string,
				);
				const body = {
					method: 'addUser',
					apiKey: FIXTURE.apiKey,
					email,
					name,
					phone,
					password: createHash('md5').update(password).digest('hex'),
					passwordType: 'MD5',
					group: '',
					status: '',
				};
				const json = (await this.helpers.httpRequest({
					method: 'POST',
					url,
					body,
					json: true,
					headers: { ACCESSTOKEN: FIXTURE.accessToken },
				})) as IDataObject;
				out[item] = { json, pairedItem: { item } };
			}
		};
		await Promise.all(Array.from({ length: concurrency }, slot));
		return [out];
	},
});

const expressions = {
	email: '={{ $json.email }}',
	name: '={{ $json.name }}',
	password: '={{ $json.password }}',
	phone: '={{ $json.phone }}',
};

function people(items: number, run: string) {
	return Array.from({ length: items }, (_, i) => ({
		email: `bench-${run}-${i}@example.com`,
		name: `Bench Person ${i}`,
		password: `Pa55word-${i}`,
		phone: String(4_155_000_000 + i),
	}));
}

async function main(): Promise<void> {
	const [items = 1000, latencyMs = 50, ...given] = process.argv.slice(2).map(Number);
	const concurrencies = given.length > 0 ? given : [5, 20];
	const emulator = await EmulatorProcess.start(18_000 + Math.floor(Math.random() * 2000));
	const credentials = new MemoryCredentialsHelper({
		types: { appBuilderApi: new AppBuilderApi() },
		credentials: {
			appBuilderApi: {
				...credentialDataFor({ webUrl: emulator.webUrl, connectUrl: '' }),
				connectAccessToken: '',
			},
		},
	});
	const contenders: Array<{
		label: string;
		run: (concurrency: number, inputItems: IDataObject[]) => Promise<NodeRun>;
	}> = [
		{
			label: 'App Builder',
			run: async (concurrency, inputItems) =>
				await runAppBuilder(
					credentials,
					addUserParameters({
						...expressions,
						passwordFormat: 'hashInN8n',
						options: { concurrency },
					}),
					{ inputItems },
				),
		},
		{
			label: 'floor',
			run: async (concurrency, inputItems) =>
				await runNode({
					nodeType: floorNode,
					typeName: 'bench.floor',
					parameters: {
						...expressions,
						url: `${emulator.webUrl}/V4/webservices/addUser.php`,
						concurrency,
					},
					inputItems,
					credentialsHelper: credentials,
				}),
		},
	];
	let run = 0;
	try {
		for (const concurrency of concurrencies) {
			for (const contender of contenders) {
				run++;
				await emulator.control('POST', '/reset', { seed: 'test' });
				await emulator.control('POST', '/configure', { latencyMs, rateLimitPerSecond: null });
				const cpuBefore = process.cpuUsage();
				const outcome = await contender.run(concurrency, people(items, String(run)));
				const cpu = process.cpuUsage(cpuBefore);
				const nodeMs = outcome.run.data.resultData.runData['Under Test']?.[0]?.executionTime ?? NaN;
				const ideal = (items * latencyMs) / concurrency;
				const users = (await emulator.control('GET', '/users')) as unknown[];
				console.log(
					`${contender.label.padEnd(12)} Concurrency ${String(concurrency).padStart(2)}: ${nodeMs.toFixed(0).padStart(6)} ms, ${(nodeMs / ideal).toFixed(2)}x the ideal ${ideal} ms; ` +
						`CPU ${((cpu.user + cpu.system) / 1000 / items).toFixed(2)} ms per item; created ${users.length}/${items}${outcome.error ? `; error ${outcome.error.message}` : ''}`,
				);
			}
		}
	} finally {
		await emulator.stop();
	}
}

void main();
