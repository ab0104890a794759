import { credentialDataFor, FIXTURE, startEmulator } from '../emulator';
import type { N8nInstance } from './n8nInstance';
import { newInquiryWorkflow, withTriggerOptions } from './workflows';
import { sleep } from '../support/sleep';
import type { Emulator } from '../support/useEmulator';

interface Execution {
	id: string;
	status: string;
	data: {
		resultData: {
			runData: Record<
				string,
				Array<{
					source?: unknown[];
					data?: { main?: Array<Array<{ json: Record<string, unknown> }>> };
				}>
			>;
		};
	};
}

const INQUIRIES_PATH = '/V4/webservices/FormBuilderApi.php';
const LIST_PATH = '/V4/webservices/AppFeatures.php';

/**
 * The trigger in a real n8n as n8n really schedules it: polls of one node
 * that overlap, a trigger renamed while it is active, and a poll that keeps
 * failing with an error workflow set. Each scenario has an emulator of its
 * own (a slow one, a failing one), so the three can run side by side in one
 * n8n, and checks every lead against the executions n8n stored.
 */

/** Every lead the trigger emitted, over the executions, duplicates kept, whatever the trigger's name was. */
export function triggeredIds(executions: Execution[]): string[] {
	const ids: string[] = [];
	for (const execution of executions) {
		for (const runs of Object.values(execution.data.resultData.runData)) {
			// The trigger's run is the one fed by no other node.
			const run = runs[0];
			if (run?.source !== undefined && run.source.length > 0 && run.source[0] !== null) continue;
			for (const item of run?.data?.main?.[0] ?? []) ids.push(String(item.json.inquiryId));
		}
	}
	return ids.sort();
}

/** Answers of an endpoint (the inquiries one unless said) the emulator finished sending (any status), so far. */
function inquiryAnswers(emu: Emulator, path = INQUIRIES_PATH): number {
	return emu.control
		.requests()
		.filter((request) => request.path === path && request.finishedAt !== undefined).length;
}

async function waitForAnswers(
	emu: Emulator,
	count: number,
	timeoutMs: number,
	path = INQUIRIES_PATH,
): Promise<void> {
	const target = inquiryAnswers(emu, path) + count;
	const deadline = Date.now() + timeoutMs;
	while (inquiryAnswers(emu, path) < target) {
		if (Date.now() > deadline)
			throw new Error(`the trigger did not call ${path} ${count} times in ${timeoutMs / 1000} s`);
		await sleep(500);
	}
	// Let the execution a poll started be stored.
	await sleep(3000);
}

/** Waits until the executions hold every one of `ids`, then returns them; fails naming the leads missing past `timeoutMs`. */
async function waitForLeads(
	n8n: N8nInstance,
	workflowId: string,
	ids: string[],
	timeoutMs: number,
): Promise<Execution[]> {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		const executions = (await n8n.executions(workflowId)) as Execution[];
		const emitted = new Set(triggeredIds(executions));
		const missing = ids.filter((id) => !emitted.has(id));
		if (missing.length === 0) {
			// A grace for a lead emitted twice to be stored too.
			await sleep(3000);
			return (await n8n.executions(workflowId)) as Execution[];
		}
		if (Date.now() > deadline)
			throw new Error(
				`leads ${missing.join(', ')} were in no execution ${timeoutMs / 1000} s after the wait began`,
			);
		await sleep(1000);
	}
}

/** n8n's first poll of a workflow may come a moment after activate() answers (workflow publication). */
async function waitForFirstAnswer(emu: Emulator): Promise<void> {
	const deadline = Date.now() + 150_000;
	while (inquiryAnswers(emu) === 0) {
		if (Date.now() > deadline) throw new Error('the trigger did not poll after its activation');
		await sleep(250);
	}
	await sleep(1000);
}

async function ownEmulator(
	n8n: N8nInstance,
	label: string,
): Promise<{ emu: Emulator; credential: { id: string; name: string } }> {
	const emu = await startEmulator();
	const name = `App Builder (${label})`;
	const id = await n8n.createCredential(name, 'appBuilderApi', credentialDataFor(emu));
	return { emu, credential: { id, name } };
}

const form = { appId: FIXTURE.appId, pageId: FIXTURE.formPageId };

/**
 * Item: a poll that takes longer than the interval. The form's answer is
 * let out slowly enough to take about 80 s (bytes keep coming, so no idle
 * timeout ends it) while n8n polls every minute: each tick starts while the
 * previous poll still reads its answer. Leads arrive all along. Every lead
 * is in exactly one execution.
 */
export async function overlappingPolls(
	n8n: N8nInstance,
): Promise<{ leads: number; skipped: number }> {
	const { emu, credential } = await ownEmulator(n8n, 'slow');
	try {
		// A form large enough that a few more leads barely change how long its answer takes.
		for (let i = 0; i < 200; i++)
			emu.control.addInquiry({ ...form, addedon: Date.now() - 3_600_000 + i });
		const base = newInquiryWorkflow(credential, form);
		const workflowId = await n8n.createWorkflow({
			...base,
			name: 'E2E D: overlapping polls',
			nodes: withTriggerOptions(base, { timeout: 600 }).nodes,
		});
		const logsBefore = n8n.logs().length;
		await n8n.activate(workflowId);
		await waitForFirstAnswer(emu);

		const answerBytes = Math.max(
			...emu.control
				.requests()
				.filter((r) => r.path === INQUIRIES_PATH)
				.map((r) => Number(r.wireBytes ?? 0)),
		);
		emu.control.configure({ bandwidthBytesPerSecond: Math.ceil(answerBytes / 80) });
		const leads: string[] = [];
		for (let i = 0; i < 8; i++) {
			leads.push(emu.control.addInquiry({ ...form })._id);
			await sleep(20_000);
		}
		emu.control.configure({ bandwidthBytesPerSecond: null });
		const executions = await waitForLeads(n8n, workflowId, leads, 300_000);
		await n8n.api('POST', `/workflows/${workflowId}/deactivate`);

		expect(triggeredIds(executions)).toEqual([...leads].sort());
		// n8n did start polls while another ran: each of those stepped aside.
		const skipped =
			n8n
				.logs()
				.slice(logsBefore)
				.split('skipped a poll: the previous poll of this trigger is still running').length - 1;
		expect(skipped).toBeGreaterThan(0);
		return { leads: leads.length, skipped };
	} finally {
		await emu.close();
	}
}

/**
 * Item: the trigger of an active workflow renamed through n8n's API while
 * leads arrive, then published again. The lead submitted between the last
 * poll under the old name and the rename, and the one after it, each come
 * out once.
 */
export async function renamedTrigger(n8n: N8nInstance): Promise<void> {
	const { emu, credential } = await ownEmulator(n8n, 'rename');
	try {
		emu.control.addInquiry({ ...form, addedon: Date.now() - 3_600_000 });
		const workflowId = await n8n.createWorkflow({
			...newInquiryWorkflow(credential, form),
			name: 'E2E E: renamed trigger',
		});
		await n8n.activate(workflowId);
		await waitForFirstAnswer(emu);
		const before = [emu.control.addInquiry({ ...form })._id];
		await waitForAnswers(emu, 1, 150_000);

		const meanwhile = emu.control.addInquiry({ ...form })._id;
		const stored = (await n8n.api('GET', `/workflows/${workflowId}`)) as {
			name: string;
			nodes: Array<{ name: string }>;
			connections: Record<string, unknown>;
			settings: unknown;
		};
		const renamed = 'New Contact Us Lead';
		const nodes = stored.nodes.map((node) =>
			node.name === 'New Inquiry' ? { ...node, name: renamed } : node,
		);
		const { ['New Inquiry']: outgoing, ...otherConnections } = stored.connections;
		await n8n.api('PUT', `/workflows/${workflowId}`, {
			name: stored.name,
			nodes,
			connections: { ...otherConnections, [renamed]: outgoing },
			settings: { executionOrder: 'v1' },
		});
		await n8n.activate(workflowId);
		const after = emu.control.addInquiry({ ...form })._id;

		const leads = [...before, meanwhile, after];
		const executions = await waitForLeads(n8n, workflowId, leads, 200_000);
		await waitForAnswers(emu, 1, 150_000);
		const final = (await n8n.executions(workflowId)) as Execution[];
		await n8n.api('POST', `/workflows/${workflowId}/deactivate`);

		expect(executions.length).toBeGreaterThan(0);
		expect(triggeredIds(final)).toEqual([...leads].sort());
		const runNames = new Set(
			final.flatMap((execution) => Object.keys(execution.data.resultData.runData)),
		);
		expect(runNames.has(renamed)).toBe(true);
	} finally {
		await emu.close();
	}
}

/**
 * Item: the API answers 401 for several polls. With Error After Failed
 * Polls 2 and Error After Minutes 0 the second failed poll reports the
 * failure: n8n stores a failed execution and runs the error workflow, once
 * for the whole outage. When the API is back every lead of the outage
 * comes out once.
 */
export async function lastingFailure(n8n: N8nInstance): Promise<void> {
	const { emu, credential } = await ownEmulator(n8n, 'failing');
	try {
		const errorWorkflowId = await errorWorkflow(n8n, 'E2E F: error workflow');
		emu.control.addInquiry({ ...form, addedon: Date.now() - 3_600_000 });
		const base = newInquiryWorkflow(credential, form);
		const workflow = {
			...base,
			name: 'E2E F: a lasting failure',
			nodes: withTriggerOptions(base, { errorAfterPolls: 2, errorAfterMinutes: 0 }).nodes,
			settings: { executionOrder: 'v1', errorWorkflow: errorWorkflowId },
		};
		// n8n runs only a published (active) error workflow.
		await n8n.activate(errorWorkflowId);
		const workflowId = await n8n.createWorkflow(workflow);
		await n8n.activate(workflowId);
		await waitForFirstAnswer(emu);

		emu.control.injectFault({
			endpoint: 'formBuilderInquiries',
			kind: 'status',
			status: 401,
			times: 1000,
		});
		const outage = [emu.control.addInquiry({ ...form })._id];
		// A 401 is not tried again within a poll: one answer per failed poll. The second reports; two more stay quiet.
		await waitForAnswers(emu, 1, 150_000);
		outage.push(emu.control.addInquiry({ ...form })._id);
		await waitForAnswers(emu, 3, 300_000);
		emu.control.clearFaults();

		const executions = await waitForLeads(n8n, workflowId, outage, 200_000);
		const errorRuns = (await n8n.executions(errorWorkflowId)) as Execution[];
		await n8n.api('POST', `/workflows/${workflowId}/deactivate`);

		expect(triggeredIds(executions)).toEqual([...outage].sort());
		const failed = executions.filter((execution) => execution.status === 'error');
		expect(failed).toHaveLength(1);
		expect(JSON.stringify(failed[0].data.resultData)).toMatch(
			/has not been able to read the inquiries/,
		);
		expect(errorRuns).toHaveLength(1);
		expect(JSON.stringify(errorRuns[0].data.resultData.runData['Error Trigger'])).toMatch(
			/did not accept the access token/,
		);
		expect(JSON.stringify([...executions, ...errorRuns])).not.toContain(FIXTURE.accessToken);
	} finally {
		await emu.close();
	}
}

/**
 * Item: one trigger watching every form of an app with three forms. At
 * activation every form's read fails; the leads submitted after it come out
 * once the forms answer. Then one answer of the app's list comes without a
 * list: a late arrival and an undated lead submitted after it still come
 * out. A fourth form is added while the workflow runs, and leads go into
 * all four. Every lead is in exactly one execution, with its form, and n8n
 * stores the trigger's position once, under the node's ID.
 */
export async function allFormsOfAnApp(n8n: N8nInstance): Promise<void> {
	const { emu, credential } = await ownEmulator(n8n, 'forms');
	const pages = [
		{ pageId: 'formbuilder_1001_1', pageName: 'Contact Us' },
		{ pageId: 'formbuilder_1001_2', pageName: 'Quote Request' },
		{ pageId: 'formbuilder_1001_3', pageName: 'Booking' },
	];
	const fourth = { pageId: 'formbuilder_1001_4', pageName: 'Newsletter' };
	const list = (forms: typeof pages) =>
		emu.control.addApp({
			appId: FIXTURE.appId,
			accessToken: FIXTURE.accessToken,
			pages: [{ pageId: 'home_1001', pageName: 'Home' }, ...forms],
		});
	const lead = (page: { pageId: string }, addedon?: number) =>
		emu.control.addInquiry({
			appId: FIXTURE.appId,
			pageId: page.pageId,
			...(addedon === undefined ? {} : { addedon, updatedon: addedon }),
		})._id;
	try {
		list(pages);
		for (const page of pages) lead(page, Date.now() - 3_600_000);
		// Every form's first read fails (a status the transport does not retry).
		emu.control.injectFault({
			endpoint: 'formBuilderInquiries',
			kind: 'status',
			status: 404,
			times: pages.length,
		});
		const base = newInquiryWorkflow(credential, form);
		const workflowId = await n8n.createWorkflow({
			...base,
			name: 'E2E G: every form of an app',
			nodes: base.nodes.map((node) => {
				if (node.name !== 'New Inquiry') return node;
				const parameters: Record<string, unknown> = { ...node.parameters, watch: 'allForms' };
				delete parameters.pageId;
				return { ...node, parameters };
			}),
		});
		await n8n.activate(workflowId);
		await waitForFirstAnswer(emu);
		await sleep(2000);
		const atActivation = await storedStaticData(n8n, workflowId);
		// No form was read: the record of the forms not named yet holds where the watch began.
		const watchBegan = triggerPosition(atActivation)?.others?.cursor.floor.time;
		if (typeof watchBegan !== 'number') {
			throw new Error(
				`n8n stored no start of the watch after an activation where every form failed: ${JSON.stringify(atActivation)}`,
			);
		}

		const expected = new Map<string, string>();
		const afterActivation = Date.now();
		for (const page of pages) expected.set(lead(page, afterActivation), page.pageId);
		await waitForAnswers(emu, pages.length, 150_000);

		// One answer of the list without a list; meanwhile a late arrival (older than the leads emitted) and an undated lead.
		emu.control.injectFault({ endpoint: 'getAppFeatures', kind: 'noList', times: 1 });
		await waitForAnswers(emu, 1, 150_000, LIST_PATH);
		expected.set(lead(pages[0], Math.min(watchBegan + 1000, afterActivation - 1)), pages[0].pageId);
		const undatedId = 'undated-after-glitch';
		emu.control.addRawInquiry({
			appId: FIXTURE.appId,
			pageId: pages[1].pageId,
			_id: undatedId,
			json: JSON.stringify({ _id: undatedId, name: 'Undated' }),
		});
		expected.set(undatedId, pages[1].pageId);

		list([...pages, fourth]);
		expected.set(lead(fourth), fourth.pageId);
		for (const page of pages) expected.set(lead(page), page.pageId);

		const executions = await waitForLeads(n8n, workflowId, [...expected.keys()], 200_000);
		await n8n.api('POST', `/workflows/${workflowId}/deactivate`);

		expect(triggeredIds(executions)).toEqual([...expected.keys()].sort());
		const items = executions.flatMap(
			(execution) => execution.data.resultData.runData['New Inquiry']?.[0]?.data?.main?.[0] ?? [],
		);
		for (const item of items)
			expect(item.json.pageId).toBe(expected.get(String(item.json.inquiryId)));
		expect(new Set(items.map((item) => item.json.formName))).toEqual(
			new Set(['Contact Us', 'Quote Request', 'Booking', 'Newsletter']),
		);

		// What n8n stored, read back: the position once, under the node's ID; nothing under the node's name.
		const stored = await storedStaticData(n8n, workflowId);
		const position = triggerPosition(stored);
		expect(Object.keys(position?.forms ?? {}).sort()).toEqual(
			[...pages, fourth].map((page) => page.pageId).sort(),
		);
		expect(JSON.stringify(stored['node:New Inquiry'] ?? {})).not.toContain('inquiryCursor');
		expect(JSON.stringify(stored).length).toBeLessThan(JSON.stringify(position).length + 300);
	} finally {
		await emu.close();
	}
}

/**
 * Item: Watch switched from All Forms of the App to One Form on a form the
 * trigger could not read yet. The form was watched all along, so its lead
 * submitted meanwhile comes out once after the switch (a first poll would
 * take it as handled).
 */
export async function watchSwitchedToAFormNotReadYet(n8n: N8nInstance): Promise<void> {
	const { emu, credential } = await ownEmulator(n8n, 'switch');
	const contact = { pageId: 'formbuilder_1001_1', pageName: 'Contact Us' };
	const quote = { pageId: 'formbuilder_1001_2', pageName: 'Quote Request' };
	const lead = (pageId: string, addedon: number) =>
		emu.control.addInquiry({ appId: FIXTURE.appId, pageId, addedon, updatedon: addedon })._id;
	try {
		emu.control.addApp({
			appId: FIXTURE.appId,
			accessToken: FIXTURE.accessToken,
			pages: [{ pageId: 'home_1001', pageName: 'Home' }, contact, quote],
		});
		const old = lead(quote.pageId, Date.now() - 3_600_000);
		emu.control.injectFault({
			endpoint: 'formBuilderInquiries',
			kind: 'status',
			status: 404,
			times: 1000,
			pageId: quote.pageId,
		});
		const switchable = switchableWatch(
			n8n,
			credential,
			'E2E H: All Forms, then One Form on a form not read yet',
		);
		const workflowId = await switchable.create({ watch: 'allForms', pageId: undefined });
		await waitForFirstAnswer(emu);
		const meanwhile = lead(quote.pageId, Date.now());
		await waitForAnswers(emu, 2, 150_000);

		emu.control.clearFaults();
		await switchable.watch({
			watch: 'form',
			pageId: { __rl: true, mode: 'id', value: quote.pageId },
		});
		await waitForLeads(n8n, workflowId, [meanwhile], 200_000);
		await waitForAnswers(emu, 1, 150_000);
		const executions = (await n8n.executions(workflowId)) as Execution[];
		await n8n.api('POST', `/workflows/${workflowId}/deactivate`);

		expect(triggeredIds(executions)).toEqual([meanwhile]);
		expect(triggeredIds(executions)).not.toContain(old);
	} finally {
		await emu.close();
	}
}

/**
 * Item: Watch switched from All Forms to One Form and back while a form
 * fails across the switch. The failing form's lead submitted before the
 * switch waits for it and comes out once when it recovers; its lead dated
 * while One Form left it out never does.
 */
export async function watchSwitchedAcrossAnOutage(n8n: N8nInstance): Promise<void> {
	const { emu, credential } = await ownEmulator(n8n, 'switch and back');
	const contact = { pageId: 'formbuilder_1001_1', pageName: 'Contact Us' };
	const quote = { pageId: 'formbuilder_1001_2', pageName: 'Quote Request' };
	const lead = (page: { pageId: string }) =>
		emu.control.addInquiry({ appId: FIXTURE.appId, pageId: page.pageId })._id;
	/** Until the clock is past the second of `time`: a lead then is dated apart from a change at `time`. */
	const pastTheSecondOf = async (time: number) => {
		while (Math.floor(Date.now() / 1000) <= Math.floor(time / 1000)) await sleep(100);
	};
	try {
		emu.control.addApp({
			appId: FIXTURE.appId,
			accessToken: FIXTURE.accessToken,
			pages: [{ pageId: 'home_1001', pageName: 'Home' }, contact, quote],
		});
		const switchable = switchableWatch(
			n8n,
			credential,
			'E2E J: All Forms, One Form and back, a form failing across the switch',
		);
		const allForms = { watch: 'allForms', pageId: undefined };
		const workflowId = await switchable.create(allForms);
		await waitForFirstAnswer(emu);

		// Quote fails from now on; its lead waits.
		emu.control.injectFault({
			endpoint: 'formBuilderInquiries',
			kind: 'status',
			status: 500,
			times: 100_000,
			pageId: quote.pageId,
		});
		const waiting = lead(quote);
		await waitForAnswers(emu, 2, 150_000);

		// One Form on Contact: Quote is left out; a lead of Quote dated now is not of the watch.
		await switchable.watch({
			watch: 'form',
			pageId: { __rl: true, mode: 'id', value: contact.pageId },
		});
		// Seconds after the poll that made the switch read Contact: dated after the switch.
		await waitForAnswers(emu, 1, 150_000);
		const leftOut = lead(quote);
		const contactLead = lead(contact);
		await waitForLeads(n8n, workflowId, [contactLead], 150_000);
		await pastTheSecondOf(Date.now());

		// All Forms again, Quote still failing for a poll, then healthy: its waiting lead comes out once.
		await switchable.watch(allForms);
		await waitForAnswers(emu, 2, 150_000);
		emu.control.clearFaults();
		const executions = await waitForLeads(n8n, workflowId, [waiting], 200_000);
		await waitForAnswers(emu, 2, 150_000);
		const after = (await n8n.executions(workflowId)) as Execution[];
		await n8n.api('POST', `/workflows/${workflowId}/deactivate`);

		expect(triggeredIds(executions)).toEqual([contactLead, waiting].sort());
		expect(triggeredIds(after)).toEqual([contactLead, waiting].sort());
		expect(triggeredIds(after)).not.toContain(leftOut);
	} finally {
		await emu.close();
	}
}

/** A workflow whose trigger's Watch (and Form) the test changes, as a user does in the editor: saved, then published. */
function switchableWatch(n8n: N8nInstance, credential: { id: string; name: string }, name: string) {
	const base = newInquiryWorkflow(credential, form);
	const trigger = base.nodes.find((node) => node.name === 'New Inquiry');
	const nodes = (parameters: Record<string, unknown>) =>
		base.nodes.map((node) =>
			node === trigger ? { ...node, parameters: { ...node.parameters, ...parameters } } : node,
		);
	let workflowId = '';
	return {
		async create(parameters: Record<string, unknown>): Promise<string> {
			workflowId = await n8n.createWorkflow({ ...base, name, nodes: nodes(parameters) });
			await n8n.activate(workflowId);
			return workflowId;
		},
		async watch(parameters: Record<string, unknown>): Promise<void> {
			await n8n.api('PUT', `/workflows/${workflowId}`, {
				name,
				nodes: nodes(parameters),
				connections: base.connections,
				settings: { executionOrder: 'v1' },
			});
			await n8n.activate(workflowId);
		},
	};
}

/**
 * Item: Alert When Quiet (After a Fixed Time, 0.05 hours: 3 minutes) in a
 * real n8n polling every minute. Two polls after activation a lead shows up
 * that was submitted three hours before: the spell counts from the poll that
 * brought it, so the form is reported three polls later (counted from its
 * leads' own times, it would be one poll later), once, through the error
 * workflow, and not again.
 */
export async function quietForm(n8n: N8nInstance): Promise<void> {
	const { emu, credential } = await ownEmulator(n8n, 'quiet');
	try {
		const errorWorkflowId = await errorWorkflow(n8n, 'E2E I: error workflow');
		emu.control.addInquiry({ ...form, addedon: Date.now() - 3_600_000 });
		const base = newInquiryWorkflow(credential, form);
		const workflowId = await n8n.createWorkflow({
			...base,
			name: 'E2E I: a form that goes quiet',
			nodes: withTriggerOptions(base, { quietAlert: 'fixed', quietHours: 0.05 }).nodes,
			settings: { executionOrder: 'v1', errorWorkflow: errorWorkflowId },
		});
		await n8n.activate(errorWorkflowId);
		await n8n.activate(workflowId);
		await waitForFirstAnswer(emu);
		// Dated once the watch began (a lead dated before it is never sent), listed two polls late.
		const watchBegan = Date.now();
		await waitForAnswers(emu, 2, 200_000);
		const late = emu.control.addInquiry({ ...form, addedon: watchBegan })._id;
		await waitForLeads(n8n, workflowId, [late], 150_000);
		await waitForAnswers(emu, 4, 400_000);
		const executions = (await n8n.executions(workflowId)) as Array<
			Execution & { startedAt?: string | null; stoppedAt?: string | null }
		>;
		const errorRuns = (await n8n.executions(errorWorkflowId)) as Execution[];
		await n8n.api('POST', `/workflows/${workflowId}/deactivate`);

		expect(triggeredIds(executions)).toEqual([late]);
		const alerts = executions.filter((execution) => execution.status === 'error');
		expect(alerts).toHaveLength(1);
		expect(JSON.stringify(alerts[0].data.resultData)).toMatch(/has had no new lead for/);
		const emitted = executions.find((execution) => execution.status !== 'error');
		// Three polls after the one that brought the late lead, not one.
		const at = (execution: (typeof executions)[number] | undefined) =>
			Date.parse(execution?.startedAt ?? execution?.stoppedAt ?? '');
		expect(Number(alerts[0].id)).toBeGreaterThan(Number(emitted?.id));
		expect(at(alerts[0])).toBeGreaterThan(at(emitted) + 150_000);
		expect(errorRuns).toHaveLength(1);
		expect(JSON.stringify(errorRuns[0].data.resultData.runData['Error Trigger'])).toMatch(
			/has had no new lead for/,
		);
	} finally {
		await emu.close();
	}
}

/** An error workflow: an Error Trigger, so each of its runs is an error n8n reported for a workflow. */
async function errorWorkflow(n8n: N8nInstance, name: string): Promise<string> {
	return await n8n.createWorkflow({
		name,
		nodes: [
			{
				id: 'error-trigger',
				name: 'Error Trigger',
				type: 'n8n-nodes-base.errorTrigger',
				typeVersion: 1,
				position: [0, 0],
				parameters: {},
			},
			{
				id: 'noted',
				name: 'Noted',
				type: 'n8n-nodes-base.noOp',
				typeVersion: 1,
				position: [250, 0],
				parameters: {},
			},
		],
		connections: { 'Error Trigger': { main: [[{ node: 'Noted', type: 'main', index: 0 }]] } },
	});
}

interface StoredPosition {
	others?: { cursor: { floor: { time: number } } };
	forms?: Record<string, unknown>;
}
type StaticData = Record<string, unknown> & {
	global?: Record<string, { state?: StoredPosition } | undefined>;
};

/** The workflow's static data as n8n stored it in its database. */
async function storedStaticData(n8n: N8nInstance, workflowId: string): Promise<StaticData> {
	const stored = (await n8n.api('GET', `/workflows/${workflowId}`)) as {
		staticData?: StaticData | string | null;
	};
	const data =
		typeof stored.staticData === 'string'
			? (JSON.parse(stored.staticData) as StaticData)
			: stored.staticData;
	return data ?? {};
}

/** The trigger's position in the workflow's global static data, under its node ID ("trigger" in these workflows). */
function triggerPosition(staticData: StaticData): StoredPosition | undefined {
	return staticData.global?.['appBuilderTrigger:trigger']?.state;
}
