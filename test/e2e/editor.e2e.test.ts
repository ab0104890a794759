/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- n8n Cloud's limits are for nodes; this runs on Node itself (timers, process, built-in modules) */
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { chromium, type Browser, type Locator, type Page } from 'playwright-core';

import { FIXTURE } from '../emulator';
import { CHROMIUM_ARGS, ensureChromium } from './browser';
import { OWNER } from './n8nInstance';
import { useRealN8n } from './useRealN8n';
import {
	APP_BUILDER_TOOL,
	APP_BUILDER_TRIGGER,
	firstLeadWorkflow,
	mcpToolWorkflow,
	newInquiryWorkflow,
	userLifecycleWorkflow,
	withTriggerOptions,
} from './workflows';

/** How long any wait for the editor may take: a bound on a hang (n8n answers in seconds, a busy machine in tens). */
const EDITOR_WAIT_BOUND_MS = 5 * 60_000;

// The README's pictures are refreshed only on request, so a test run leaves the tree clean.
const SCREENSHOTS = resolve(
	__dirname,
	'../..',
	process.env.UPDATE_SCREENSHOTS ? 'docs' : 'test-results/screenshots',
);

/**
 * The editor as a person meets it, in headless Chromium: the nodes are
 * found by search, the trigger fetches a flattened test event, the
 * operations and the credential form open, and the package logs no error
 * in the browser. UPDATE_SCREENSHOTS=1 writes the screenshots to docs/ for the README.
 */
async function expectCount(locator: Locator, count: number): Promise<void> {
	await locator.nth(count - 1).waitFor();
	expect(await locator.count()).toBe(count);
}

/** Waits until `target` has kept its place on the page for half a second (an animation has ended). */
async function settled(target: Locator): Promise<void> {
	let last = '';
	for (let still = 0, tries = 0; still < 5 && tries < 100; tries++) {
		await target.page().waitForTimeout(100);
		const box = JSON.stringify(await target.boundingBox());
		still = box === last ? still + 1 : 0;
		last = box;
	}
}

describe('the n8n editor with the package installed', () => {
	let browser: Browser;
	let page: Page;
	let triggerWorkflowId: string;
	let actionWorkflowId: string;
	let toolWorkflowId: string;
	let allFormsWorkflowId: string;
	let sinceHiddenWorkflowId: string;
	let firstLeadWorkflowId: string;
	const packageErrors: string[] = [];
	let executablePath: string;

	// Before n8n starts: a first install takes minutes, and nothing should wait on n8n meanwhile.
	beforeAll(() => {
		executablePath = ensureChromium();
	}, 900_000);

	const real = useRealN8n({
		emulator: { seed: 'demo' },
		async setUp({ n8n, credential }) {
			const form = { appId: FIXTURE.appId, pageId: FIXTURE.formPageId };
			triggerWorkflowId = await n8n.createWorkflow({
				...newInquiryWorkflow(credential, form),
				name: 'New lead from Contact Us',
			});
			actionWorkflowId = await n8n.createWorkflow({
				...userLifecycleWorkflow(credential, form),
				name: 'Give new customers an app account',
			});
			toolWorkflowId = await n8n.createWorkflow(
				mcpToolWorkflow(credential, form, 'appbuilder-tools'),
			);
			// The README's first lead workflow only renders, so its Slack credential holds a dummy token.
			const slackCredentialId = await n8n.createCredential('Slack account', 'slackApi', {
				accessToken: 'dummy-slack-token',
			});
			firstLeadWorkflowId = await n8n.createWorkflow(
				firstLeadWorkflow(credential, { id: slackCredentialId, name: 'Slack account' }, form),
			);
			const trigger = newInquiryWorkflow(credential, form);
			allFormsWorkflowId = await n8n.createWorkflow({
				...trigger,
				name: 'Every lead of the app',
				nodes: trigger.nodes.map((node) => {
					if (node.name !== 'New Inquiry') return node;
					const parameters: Record<string, unknown> = {
						...node.parameters,
						watch: 'allForms',
						options: {
							firstPoll: 'since',
							firstPollSince: '2026-11-01T00:00:00',
							maxItemsPerPoll: 500,
							errorAfterPolls: 3,
							errorAfterMinutes: 15,
						},
					};
					delete parameters.pageId;
					return { ...node, name: 'New Lead', parameters };
				}),
				connections: { 'New Lead': trigger.connections['New Inquiry'] },
			});

			// Saved with a Since date but On First Poll left at Only New Leads: Since is not shown, and the trigger runs.
			sinceHiddenWorkflowId = await n8n.createWorkflow({
				...trigger,
				name: 'New lead, Since left over',
				nodes: withTriggerOptions(trigger, {
					firstPoll: 'none',
					firstPollSince: '2026-11-01T00:00:00',
				}).nodes,
			});

			browser = await chromium.launch({ executablePath, args: CHROMIUM_ARGS });
			page = await browser.newPage({ viewport: { width: 1400, height: 850 } });
			// Every wait for the page is bounded by this, not by a guess at how fast a busy machine draws it; Playwright's error names what it waited for.
			page.setDefaultTimeout(EDITOR_WAIT_BOUND_MS);
			const record = (text: string) => {
				if (/app ?builder|appbuilder/i.test(text)) packageErrors.push(text);
			};
			page.on('console', (message) => {
				if (message.type() === 'error') record(message.text());
			});
			page.on('pageerror', (error) => record(`${error.message}\n${error.stack ?? ''}`));
			mkdirSync(SCREENSHOTS, { recursive: true });

			await page.goto(`${n8n.url}/signin`);
			await page.fill('input[name="emailOrLdapLoginId"]', OWNER.email);
			await page.fill('input[name="password"]', OWNER.password);
			await page.click('[data-test-id="form-submit-button"]');
			await page.waitForURL((url) => !url.pathname.includes('signin'));
		},
		async teardown() {
			await browser?.close();
		},
	});

	afterEach(() => {
		expect(packageErrors).toEqual([]);
	});

	/** Opens the trigger of the workflow that watches every form, saved with its options set. */
	async function openAllFormsTrigger(): Promise<Locator> {
		const { n8n } = real();
		await page.goto(`${n8n.url}/workflow/${allFormsWorkflowId}`);
		await page.waitForSelector('[data-test-id="canvas-node"]');
		await page.locator('[data-test-id="canvas-node"]', { hasText: 'New Lead' }).first().dblclick();
		return page.locator('[data-test-id="ndv"]');
	}

	/** The values the open node's fields show (a select shows its choice's name). */
	async function shownValues(ndv: Locator): Promise<string[]> {
		return await ndv
			.locator('input')
			.evaluateAll((inputs) => inputs.map((input) => (input as HTMLInputElement).value));
	}

	it('shows the trigger workflow and fetches a flattened test event', async () => {
		const { n8n } = real();
		await page.goto(`${n8n.url}/workflow/${triggerWorkflowId}`);
		await page.waitForSelector('[data-test-id="canvas-node"]');

		await page.locator('[data-test-id="canvas-node"]').first().dblclick();
		await page.locator('[data-test-id="node-execute-button"]').first().click();
		const output = page.locator('[data-test-id="output-panel"]');
		await output.getByText('inquiryId').first().waitFor();
		await page.locator('[data-test-id="radio-button-json"]').first().click();
		await page.mouse.move(5, 5);
		await page.waitForTimeout(800);
		const text = await output.innerText();
		expect(text).toContain('fieldLabels');
		expect(text).toContain('Contact Us');
		await page.screenshot({ path: join(SCREENSHOTS, 'trigger-output.png') });
		await page.keyboard.press('Escape');
	});

	it("shows the trigger's parameters watching every form of the app", async () => {
		const { n8n } = real();
		await page.goto(`${n8n.url}/workflow/${allFormsWorkflowId}`);
		await page.waitForSelector('[data-test-id="canvas-node"]');
		await page.locator('[data-test-id="canvas-node"]', { hasText: 'New Lead' }).first().dblclick();
		const ndv = page.locator('[data-test-id="ndv"]');
		for (const field of [
			'Watch',
			'Event',
			'On First Check',
			'Since',
			'Error After Failed Checks',
		]) {
			await ndv.getByText(field, { exact: true }).first().waitFor();
		}
		// The notice that outages and quiet forms reach the user only through an Error Workflow.
		await ndv.getByText(/only through an Error Workflow: set one in Workflow Settings/).waitFor();
		// The choice shows as the select's value; the Form picker is hidden while every form is watched.
		expect(
			await ndv
				.locator('input')
				.evaluateAll((inputs) => inputs.map((input) => (input as HTMLInputElement).value)),
		).toContain('All Forms of the App');
		expect(await ndv.getByText('Form', { exact: true }).count()).toBe(0);
		await page.mouse.move(5, 5);
		await page.waitForTimeout(500);
		await page.screenshot({ path: join(SCREENSHOTS, 'trigger-parameters.png') });
		await page.locator('[data-test-id="ndv-close-button"]').click();
	});

	it('shows Since only when On First Check is Send Leads Since a Date; a trigger saved with Since set still loads and fetches its test event', async () => {
		const { n8n } = real();
		await page.goto(`${n8n.url}/workflow/${sinceHiddenWorkflowId}`);
		await page.waitForSelector('[data-test-id="canvas-node"]');
		await page.locator('[data-test-id="canvas-node"]').first().dblclick();
		const ndv = page.locator('[data-test-id="ndv"]');
		await ndv.getByText('On First Check', { exact: true }).first().waitFor();
		expect(await ndv.getByText('Since', { exact: true }).count()).toBe(0);
		await page.locator('[data-test-id="node-execute-button"]').first().click();
		const output = page.locator('[data-test-id="output-panel"]');
		await output.getByText('inquiryId').first().waitFor();
		await page.locator('[data-test-id="ndv-close-button"]').click();

		await page.goto(`${n8n.url}/workflow/${allFormsWorkflowId}`);
		await page.waitForSelector('[data-test-id="canvas-node"]');
		await page.locator('[data-test-id="canvas-node"]', { hasText: 'New Lead' }).first().dblclick();
		await ndv.getByText('Since', { exact: true }).first().waitFor();
		await page.locator('[data-test-id="node-execute-button"]').first().click();
		await output.getByText('inquiryId').first().waitFor();
		await page.locator('[data-test-id="ndv-close-button"]').click();
	});

	it('shows the options a workflow saved before their renaming under their new labels, with their saved values, and still fetches its test event', async () => {
		// Saved with firstPoll, maxItemsPerPoll and errorAfterPolls set: their names stay, only the labels change.
		const ndv = await openAllFormsTrigger();
		const renamed = {
			'On First Check': 'On First Poll',
			'Max Leads per Check': 'Max Leads per Poll',
			'Error After Failed Checks': 'Error After Failed Polls',
		};
		for (const label of Object.keys(renamed)) {
			await ndv.getByText(label, { exact: true }).first().waitFor();
		}
		for (const old of Object.values(renamed)) {
			expect(await ndv.getByText(old, { exact: true }).count()).toBe(0);
		}
		expect(await shownValues(ndv)).toEqual(
			expect.arrayContaining(['Send Leads Since a Date', '500', '3', '15']),
		);
		await page.locator('[data-test-id="node-execute-button"]').first().click();
		await page
			.locator('[data-test-id="output-panel"]')
			.getByText('inquiryId')
			.first()
			.waitFor({ timeout: 30_000 });
		await page.locator('[data-test-id="ndv-close-button"]').click();
	});

	it('finds App Builder by search, with its three actions and two triggers', async () => {
		const { n8n } = real();
		await page.goto(`${n8n.url}/workflow/${actionWorkflowId}`);
		await page.waitForSelector('[data-test-id="canvas-node"]');
		await page.locator('[data-test-id="node-creator-plus-button"]').click();
		await page.keyboard.type('App Builder');
		const creator = page.locator('[data-test-id="node-creator"]');
		// n8n lists a node and its trigger as one entry, with the actions and the trigger events inside.
		await creator
			.locator('[data-test-id="node-creator-item-name"]', { hasText: 'App Builder' })
			.first()
			.click();
		for (const text of [
			'Add an app user',
			'Update an app user',
			'Get many leads of one form or every form',
			'Actions (3)',
			'Triggers (2)',
		]) {
			await creator.getByText(text).first().waitFor();
		}
		// The panel slides in: the screenshot waits until it stands still.
		await settled(creator.getByText('Update an app user').first());
		await page.mouse.move(5, 5);
		await page.screenshot({ path: join(SCREENSHOTS, 'node-actions.png') });
		await page.keyboard.press('Escape');
		await page.keyboard.press('Escape');
	});

	it("opens each operation's parameters", async () => {
		const { n8n } = real();
		await page.goto(`${n8n.url}/workflow/${actionWorkflowId}`);
		for (const [node, fields] of [
			['Add User', ['Email', 'Password Format', 'Phone', 'Additional Fields']],
			['Update User', ['Phone Format', 'Group']],
			['Get Many Inquiries', ['App ID', 'Form', 'Return All', 'Simplify', 'Filters']],
		] as const) {
			await page.locator('[data-test-id="canvas-node"]', { hasText: node }).first().dblclick();
			const ndv = page.locator('[data-test-id="ndv"]');
			for (const field of fields) await ndv.getByText(field, { exact: true }).first().waitFor();
			if (node === 'Add User') await page.screenshot({ path: join(SCREENSHOTS, 'add-user.png') });
			await page.locator('[data-test-id="ndv-close-button"]').click();
		}
	});

	it('shows App Builder as three tools connected to an MCP Server Trigger', async () => {
		const { n8n } = real();
		await page.goto(`${n8n.url}/workflow/${toolWorkflowId}`);
		await page.waitForSelector('[data-test-id="canvas-node"]');
		const tools = page.locator(
			`[data-test-id="canvas-node"][data-node-type="${APP_BUILDER_TOOL}"]`,
		);
		await expectCount(tools, 3);
		// n8n draws a tool's ai_tool connection as an edge into the trigger's Tools input.
		for (const tool of ['Add app user', 'Update app user', 'Get form inquiries']) {
			await page
				.locator(
					`[data-test-id="edge"][data-source-node-name="${tool}"][data-target-node-name="MCP Server Trigger"]`,
				)
				.first()
				.waitFor({ state: 'attached' });
		}
		await page.mouse.move(5, 5);
		await page.waitForTimeout(800);
		await page.screenshot({ path: join(SCREENSHOTS, 'agent-tool.png') });
	});

	it("shows the README's first lead workflow: App Builder Trigger connected to Slack", async () => {
		const { n8n } = real();
		await page.goto(`${n8n.url}/workflow/${firstLeadWorkflowId}`);
		await page.waitForSelector('[data-test-id="canvas-node"]');
		await expectCount(page.locator('[data-test-id="canvas-node"]'), 2);
		for (const type of [APP_BUILDER_TRIGGER, 'n8n-nodes-base.slack']) {
			await page
				.locator(`[data-test-id="canvas-node"][data-node-type="${type}"]`)
				.first()
				.waitFor();
		}
		await page
			.locator(
				'[data-test-id="edge"][data-source-node-name="App Builder Trigger"][data-target-node-name="Send a message"]',
			)
			.first()
			.waitFor({ state: 'attached' });
		await page.mouse.move(5, 5);
		await page.waitForTimeout(800);
		await page.screenshot({ path: join(SCREENSHOTS, 'first-lead-workflow.png') });
	});

	it('opens the credential form, whose test passes against the emulator', async () => {
		const { n8n } = real();
		await page.goto(`${n8n.url}/workflow/${actionWorkflowId}`);
		await page.locator('[data-test-id="canvas-node"]', { hasText: 'Add User' }).first().dblclick();
		await page.locator('[data-test-id="credential-edit-button"]').first().click();
		const modal = page.locator('[data-test-id="editCredential-modal"]');
		for (const field of ['accessToken', 'apiKey', 'baseUrl', 'useConnect']) {
			await modal.locator(`[data-test-id="parameter-input-${field}"]`).first().waitFor();
		}
		// n8n runs the credential's test (the node's credentialTest method) when the form opens.
		await modal.getByText('Connection tested successfully').waitFor();
	});

	it('opens a new credential form with the default Web Service Base URL, as the README shows it', async () => {
		const { n8n } = real();
		await page.goto(`${n8n.url}/workflow/${actionWorkflowId}`);
		await page.locator('[data-test-id="canvas-node"]', { hasText: 'Add User' }).first().dblclick();
		await page.locator('[data-test-id="node-credentials-select"]').first().click();
		await page.locator('[data-test-id="node-credentials-select-item-new"]').first().click();
		const modal = page.locator('[data-test-id="editCredential-modal"]');
		const input = (field: string) =>
			modal.locator(`[data-test-id="parameter-input-${field}"] input`).first();
		await input('baseUrl').waitFor();
		// The README's Credentials step 3 says to leave this value; the picture shows it, unsaved and without secrets.
		expect(await input('baseUrl').inputValue()).toBe('https://api.appexecutable.com');
		expect(await input('accessToken').inputValue()).toBe('');
		expect(await input('apiKey').inputValue()).toBe('');
		// This n8n already has the emulator's credential, so n8n suggests "App Builder account 2"; a new user's first is named as below.
		await modal.locator('[data-test-id="credential-name"]').click();
		await page.keyboard.press('ControlOrMeta+A');
		await page.keyboard.type('App Builder account');
		await page.keyboard.press('Enter');
		const shownName = modal.locator(
			'[data-test-id="credential-name"] [data-test-id="inline-edit-preview"]',
		);
		expect(await shownName.innerText()).toBe('App Builder account');
		await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
		await page.mouse.move(5, 5);
		await page.waitForTimeout(500);
		await page.screenshot({ path: join(SCREENSHOTS, 'credential.png') });
	});
});
