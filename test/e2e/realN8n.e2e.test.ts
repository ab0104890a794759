import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { startEmulator, FIXTURE } from '../emulator';
import { N8nInstance, packPackage } from './n8nInstance';
import { callWebhook, checkUserLifecycle } from './scenarios';
import { connectCallWorkflow, newInquiryWorkflow } from './workflows';

type Emulator = Awaited<ReturnType<typeof startEmulator>>;

const N8N_VERSION = process.env.E2E_N8N_VERSION ?? '2.40.7';
const form = { appId: FIXTURE.appId, pageId: FIXTURE.formPageId };
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The packed tarball installed into a real n8n the way n8n installs
 * community packages, workflows run through n8n itself against the emulator.
 */
describe(`the package in a real n8n ${N8N_VERSION}`, () => {
	let emu: Emulator;
	let n8n: N8nInstance;
	let credential: { id: string; name: string };

	beforeAll(async () => {
		emu = await startEmulator();
		const tarball = packPackage(mkdtempSync(join(tmpdir(), 'appbuilder-pack-')));
		n8n = await N8nInstance.start({ version: N8N_VERSION, packageTarball: tarball });
		const id = await n8n.createCredential('App Builder (emulator)', 'appBuilderApi', {
			accessToken: FIXTURE.accessToken,
			apiKey: FIXTURE.apiKey,
			baseUrl: emu.webUrl,
			useConnect: true,
			connectBaseUrl: emu.connectUrl,
			clientId: FIXTURE.clientId,
			clientSecret: FIXTURE.clientSecret,
			refreshToken: FIXTURE.refreshToken,
		});
		credential = { id, name: 'App Builder (emulator)' };
	}, 600_000);

	afterAll(async () => {
		if (n8n) await n8n.destroy();
		if (emu) await emu.close();
	}, 60_000);

	it('A: adds, updates and reads through n8n; a duplicate email ends in the node\'s clear error', async () => {
		await checkUserLifecycle(n8n, emu, credential);
	}, 180_000);

	it('B: each new inquiry starts exactly one execution, also across a restart of n8n', async () => {
		emu.control.addInquiry({ ...form, addedon: Date.now() - 3_600_000 });
		const workflowId = await n8n.createWorkflow(newInquiryWorkflow(credential, form));
		await n8n.activate(workflowId);
		await waitForPolls(emu, 1);

		const tie = Date.now();
		const batch1 = [
			emu.control.addInquiry({ ...form, addedon: tie }),
			emu.control.addInquiry({ ...form, addedon: tie }),
			emu.control.addInquiry({ ...form, addedon: tie + 1000 }),
		];
		await waitForPolls(emu, 1);
		expect(emittedIds(await n8n.executions(workflowId))).toEqual(batch1.map((r) => r._id).sort());

		await n8n.stop();
		const batch2 = [emu.control.addInquiry({ ...form }), emu.control.addInquiry({ ...form })];
		await n8n.restart();
		await waitForPolls(emu, 1);

		const executions = await n8n.executions(workflowId);
		const ids = emittedIds(executions);
		expect(ids).toEqual([...batch1, ...batch2].map((r) => r._id).sort());
		const first = executions[0].data.resultData.runData['New Inquiry'][0].data.main[0][0].json;
		expect(first).toMatchObject({ inquiryId: expect.any(String), formName: 'Contact Us', fieldLabels: expect.any(Object) });
		await n8n.api('POST', `/workflows/${workflowId}/deactivate`);
	}, 300_000);

	it('C: the HTTP Request node refreshes the Connect token after expiry, and n8n stores the rotated refresh token', async () => {
		const workflowId = await n8n.createWorkflow(connectCallWorkflow(credential, `${emu.connectUrl}/v1/profile`));
		await n8n.activate(workflowId);

		const first = await callWebhook(n8n, 'appbuilder-connect', {});
		expect(first.status).toBe(200);
		expect(JSON.parse(first.body)).toEqual([{ clientId: FIXTURE.clientId, name: expect.any(String) }]);
		emu.control.expireAccessTokens();
		emu.control.clearRequests();

		const second = await callWebhook(n8n, 'appbuilder-connect', {});
		expect(second.status).toBe(200);
		expect(emu.control.requests().map((r) => `${r.path} ${r.status}`)).toEqual([
			'/v1/profile 401',
			'/v1/oauth2/token 200',
			'/v1/profile 200',
		]);

		const stored = (await n8n.exportCredentials()).find((c) => c.id === credential.id);
		const storedRefreshToken = String(stored?.data.refreshToken);
		expect(storedRefreshToken).not.toBe(FIXTURE.refreshToken);
		expect(emu.control.refreshTokens.get(storedRefreshToken)).toBe(FIXTURE.clientId);
	}, 180_000);
});

/** Waits until the trigger has polled the emulator `count` more times. */
async function waitForPolls(emu: Emulator, count: number): Promise<void> {
	const polls = () => emu.control.requests().filter((r) => r.path === '/V4/webservices/FormBuilderApi.php' && r.status === 200).length;
	const target = polls() + count;
	// n8n polls at most once a minute; a restart can cost one more minute.
	const deadline = Date.now() + (count + 1) * 75_000;
	while (polls() < target) {
		if (Date.now() > deadline) throw new Error(`the trigger did not poll ${count} times in time`);
		await sleep(500);
	}
	// Let the execution that a poll started finish and be saved.
	await sleep(3000);
}

/** Every inquiry id emitted across the executions, sorted, duplicates kept. */
function emittedIds(executions: Array<{ data: { resultData: { runData: Record<string, any> } } }>): string[] {
	return executions
		.flatMap((execution) => execution.data.resultData.runData['New Inquiry']?.[0]?.data?.main?.[0] ?? [])
		.map((item: { json: { inquiryId: string } }) => item.json.inquiryId)
		.sort();
}
