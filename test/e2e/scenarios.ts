import { FIXTURE } from '../emulator';
import type { N8nInstance } from './n8nInstance';
import { userLifecycleWorkflow } from './workflows';
import { sleep } from '../support/sleep';
import type { Emulator } from '../support/useEmulator';

/** Calls a production webhook; n8n registers it a moment after activation, so a 404 is retried briefly. */
export async function callWebhook(
	n8n: N8nInstance,
	path: string,
	body: unknown,
	headers: Record<string, string> = {},
): Promise<{ status: number; body: string }> {
	for (let attempt = 0; ; attempt++) {
		const { response, text } = await n8n.call('POST', `/webhook/${path}`, {
			headers: { 'Content-Type': 'application/json', ...headers },
			body: JSON.stringify(body),
		});
		if (response.status !== 404 || attempt >= 30) return { status: response.status, body: text };
		await sleep(1000);
	}
}

/**
 * Workflow A in a real n8n: a webhook adds a user, updates them and reads the
 * form's inquiries; the same person again ends in the node's 2039 error,
 * visible in the execution n8n stored.
 */
export async function checkUserLifecycle(
	n8n: N8nInstance,
	emu: Emulator,
	credential: { id: string; name: string },
): Promise<void> {
	const form = { appId: FIXTURE.appId, pageId: FIXTURE.formPageId };
	emu.control.addInquiry({ ...form, addedon: Date.parse('2026-01-05T10:00:00Z') });
	const workflowId = await n8n.createWorkflow(userLifecycleWorkflow(credential, form));
	await n8n.activate(workflowId);

	const person = {
		email: 'maria@example.com',
		name: 'Maria Garcia',
		password: 'Pa55word!',
		phone: '4155550132',
	};
	const first = await callWebhook(n8n, 'appbuilder-users', person);
	expect(first.status).toBe(200);
	const inquiries = JSON.parse(first.body);
	expect(inquiries).toHaveLength(1);
	expect(inquiries[0]).toMatchObject({
		name: 'Maria Garcia',
		formName: 'Contact Us',
		submittedAt: '2026-01-05T10:00:00.000Z',
	});

	expect(emu.control.users()).toEqual([
		expect.objectContaining({
			email: 'maria@example.com',
			name: 'Maria Garcia (customer)',
			group: 'Customers',
			phone: '4155550132',
			passwordType: 'MD5',
		}),
	]);
	expect(JSON.stringify(emu.control.requests())).not.toContain('Pa55word!');

	const duplicate = await callWebhook(n8n, 'appbuilder-users', person);
	expect(duplicate.status).toBeGreaterThanOrEqual(400);

	const executions = await executionsOnce(
		n8n,
		workflowId,
		'both runs of the user workflow',
		(stored) => stored.length >= 2,
	);
	expect(executions.map((e) => e.status)).toEqual(['success', 'error']);
	const okRun = executions[0].data.resultData.runData;
	expect(okRun['Add User'][0].data.main[0][0].json).toMatchObject({
		successCode: '200',
		email: 'maria@example.com',
	});
	expect(okRun['Update User'][0].data.main[0][0].json).toMatchObject({ successCode: '200' });
	const failed = executions[1].data.resultData;
	expect(failed.error.message).toMatch(/already belongs to an app user/);
	expect(failed.runData['Add User'][0].error.description).toMatch(/Update User/);
	expect(JSON.stringify(executions)).not.toContain(FIXTURE.apiKey);
	expect(JSON.stringify(executions)).not.toContain(FIXTURE.accessToken);
}

/** How long n8n may take to store an execution a test waits for: a bound on a hang (seconds on a quiet machine). */
const STORED_BOUND_MS = 5 * 60_000;

/**
 * The workflow's executions, oldest first, once `done` holds of them: n8n
 * stores an execution a moment after the poll or webhook call that started
 * it answered, later on a busy machine. Fails past STORED_BOUND_MS, naming
 * `what` it waited for and what n8n had stored.
 */
export async function executionsOnce(
	n8n: N8nInstance,
	workflowId: string,
	what: string,
	// eslint-disable-next-line @typescript-eslint/no-explicit-any -- executions as n8n's public API sends them; the callers check their shape
	done: (executions: any[]) => boolean,
	// eslint-disable-next-line @typescript-eslint/no-explicit-any -- as above
): Promise<any[]> {
	const deadline = Date.now() + STORED_BOUND_MS;
	for (;;) {
		const executions = await n8n.executions(workflowId);
		if (done(executions)) return executions;
		if (Date.now() > deadline)
			throw new Error(
				`n8n had not stored ${what} within ${STORED_BOUND_MS / 60_000} minutes; it had: ${JSON.stringify(executions.map((execution) => ({ id: execution.id, status: execution.status })))}`,
			);
		await sleep(1000);
	}
}

/** Whether the executions carry every one of `ids` (emittedIds). */
export const carrying =
	(ids: string[]) =>
	// eslint-disable-next-line @typescript-eslint/no-explicit-any -- as executionsOnce's
	(executions: any[]): boolean => {
		const emitted = new Set(emittedIds(executions));
		return ids.every((id) => emitted.has(id));
	};

/** Waits until the trigger has polled the emulator `count` more times. */
export async function waitForPolls(emu: Emulator, count: number): Promise<void> {
	const polls = () =>
		emu.control
			.requests()
			.filter((r) => r.path === '/V4/webservices/FormBuilderApi.php' && r.status === 200).length;
	const target = polls() + count;
	// n8n polls at most once a minute; a restart can cost one more minute.
	const deadline = Date.now() + (count + 1) * 75_000;
	while (polls() < target) {
		if (Date.now() > deadline) throw new Error(`the trigger did not poll ${count} times in time`);
		await sleep(500);
	}
	// A grace for an execution the poll should not have started (a lead emitted twice) to be stored; what
	// should be there is waited for by executionsOnce.
	await sleep(3000);
}

/** Every inquiry id emitted across the executions, sorted, duplicates kept. */
export function emittedIds(
	// eslint-disable-next-line @typescript-eslint/no-explicit-any -- an execution's run data as n8n's REST API sends it
	executions: Array<{ data: { resultData: { runData: Record<string, any> } } }>,
): string[] {
	return executions
		.flatMap(
			(execution) => execution.data.resultData.runData['New Inquiry']?.[0]?.data?.main?.[0] ?? [],
		)
		.map((item: { json: { inquiryId: string } }) => item.json.inquiryId)
		.sort();
}
