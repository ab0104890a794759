/* eslint-disable @n8n/community-nodes/no-restricted-globals -- n8n Cloud's limits are for nodes; this runs on Node itself (process) */

import { FIXTURE } from '../emulator';
import { useRealN8n } from './useRealN8n';
import { N8N_VERSIONS } from './n8nVersions';
import {
	callWebhook,
	carrying,
	checkUserLifecycle,
	emittedIds,
	executionsOnce,
	waitForPolls,
} from './scenarios';
import {
	allFormsOfAnApp,
	lastingFailure,
	overlappingPolls,
	quietForm,
	watchSwitchedAcrossAnOutage,
	renamedTrigger,
	watchSwitchedToAFormNotReadYet,
} from './triggerScheduling';
import { connectCallWorkflow, newInquiryWorkflow } from './workflows';

const N8N_VERSION = process.env.E2E_N8N_VERSION ?? N8N_VERSIONS.newest;
const form = { appId: FIXTURE.appId, pageId: FIXTURE.formPageId };

/**
 * The packed tarball installed into a real n8n the way n8n installs
 * community packages, workflows run through n8n itself against the emulator.
 */
describe(`the package in a real n8n ${N8N_VERSION}`, () => {
	const real = useRealN8n({
		version: N8N_VERSION,
		credential: { name: 'App Builder (emulator)', connect: true },
	});

	it("A: adds, updates and reads through n8n; a duplicate email ends in the node's clear error", async () => {
		const { emu, n8n, credential } = real();
		await checkUserLifecycle(n8n, emu, credential);
	});

	it('B: each new inquiry starts exactly one execution, also across a restart of n8n', async () => {
		const { emu, n8n, credential } = real();
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
		const ids1 = batch1.map((r) => r._id);
		const afterBatch1 = await executionsOnce(n8n, workflowId, 'the first batch', carrying(ids1));
		expect(emittedIds(afterBatch1)).toEqual(ids1.sort());

		await n8n.stop();
		const batch2 = [emu.control.addInquiry({ ...form }), emu.control.addInquiry({ ...form })];
		await n8n.restart();
		await waitForPolls(emu, 1);

		const executions = await executionsOnce(
			n8n,
			workflowId,
			'both batches',
			carrying([...batch1, ...batch2].map((r) => r._id)),
		);
		const ids = emittedIds(executions);
		expect(ids).toEqual([...batch1, ...batch2].map((r) => r._id).sort());
		const first = executions[0].data.resultData.runData['New Inquiry'][0].data.main[0][0].json;
		expect(first).toMatchObject({
			inquiryId: expect.any(String),
			formName: 'Contact Us',
			fieldLabels: expect.any(Object),
		});
		await n8n.api('POST', `/workflows/${workflowId}/deactivate`);
	});

	it('D, E, F, G, H, I, J side by side: overlapping polls emit each lead once, a renamed trigger loses none, a lasting failure runs the error workflow once and loses none, one trigger watches every form of an app, a switch to One Form on a form not read yet emits its lead once, a quiet form is reported once, not by the poll that brings a late lead, and a form failing across a switch to One Form and back emits its waiting lead once and none of its time left out', async () => {
		const { n8n } = real();
		const outcomes = await Promise.allSettled([
			overlappingPolls(n8n),
			renamedTrigger(n8n),
			lastingFailure(n8n),
			allFormsOfAnApp(n8n),
			watchSwitchedToAFormNotReadYet(n8n),
			quietForm(n8n),
			watchSwitchedAcrossAnOutage(n8n),
		]);
		const failures = outcomes.flatMap((outcome, index) =>
			outcome.status === 'rejected'
				? [`${'DEFGHIJ'[index]}: ${String(outcome.reason?.stack ?? outcome.reason)}`]
				: [],
		);
		expect(failures).toEqual([]);
	}, 900_000);

	it('C: the HTTP Request node refreshes the Connect token after expiry, and n8n stores the rotated refresh token', async () => {
		const { emu, n8n, credential } = real();
		const workflowId = await n8n.createWorkflow(
			connectCallWorkflow(credential, `${emu.connectUrl}/v1/profile`),
		);
		await n8n.activate(workflowId);

		const first = await callWebhook(n8n, 'appbuilder-connect', {});
		expect(first.status).toBe(200);
		expect(JSON.parse(first.body)).toEqual([
			{ clientId: FIXTURE.clientId, name: expect.any(String) },
		]);
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
	});
});
