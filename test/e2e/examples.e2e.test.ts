/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- n8n Cloud's limits are for nodes; this runs on Node itself (timers, process, built-in modules) */
import { createHash, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

import {
	NodeHelpers,
	type INode,
	type INodeParameters,
	type INodeTypeDescription,
} from 'n8n-workflow';

import { credentialDataFor, FIXTURE } from '../emulator';
import { demoLeadFields } from '../emulator/fixtures';
import { useRealN8n } from './useRealN8n';
import { N8N_VERSIONS } from './n8nVersions';
import { FOUR_POLLS_A_MINUTE } from './durableCursors';
import { callWebhook, executionsOnce, waitForPolls } from './scenarios';
import { newInquiryWorkflow, withTriggerOptions } from './workflows';
import { sleep } from '../support/sleep';

interface Workflow {
	id: string;
	name: string;
	nodes: INode[];
	connections: unknown;
	settings?: unknown;
}

const N8N_VERSION = N8N_VERSIONS.newest;
const EXAMPLES = resolve(__dirname, '../../examples');
/**
 * Nodes that would reach a third-party service, and what each would send:
 * the test runs an Edit Fields (Set) node of the same name in their place,
 * which passes the item it received on and adds `sent`, the node's message
 * fields with their expressions evaluated (Slack's text, the email, the
 * sheet row), so a test can read what would have gone out.
 */
const THIRD_PARTY: Record<string, (parameters: INodeParameters) => Record<string, unknown>> = {
	'n8n-nodes-base.slack': (parameters) => ({ text: parameters.text }),
	'n8n-nodes-base.emailSend': (parameters) => ({
		toEmail: parameters.toEmail,
		subject: parameters.subject,
		text: parameters.text,
	}),
	'n8n-nodes-base.googleSheets': (parameters) =>
		Object.fromEntries(
			Object.entries(
				(parameters.columns as { value?: Record<string, unknown> } | undefined)?.value ?? {},
			).map(([column, value]) => [`row.${column}`, value]),
		),
};
const FORM_BUILDER_API = '/V4/webservices/FormBuilderApi.php';
const DAY_MS = 24 * 3_600_000;

const shortName = (type: string): string => type.slice(type.lastIndexOf('.') + 1);
const readExample = (file: string): Omit<Workflow, 'id'> =>
	JSON.parse(readFileSync(join(EXAMPLES, file), 'utf8'));

/**
 * The workflows in examples/, imported as they are into a real n8n with the
 * packed package installed, then run against the emulator with the App
 * Builder credential filled in, the third-party nodes swapped for stand-ins
 * of the same name that show what they would send, and a trigger whose
 * events come from a third-party service fed by the test.
 */
describe(`the examples in a real n8n ${N8N_VERSION}`, () => {
	const real = useRealN8n({ version: N8N_VERSION });

	/**
	 * Creates a workflow from an example file as it is, the way the editor's
	 * Import from File does (the file has no id, so n8n gives it one), through
	 * n8n's public API, whose schema refuses any field a workflow cannot hold.
	 */
	async function importExample(file: string): Promise<Workflow> {
		const { n8n } = real();
		const id = await n8n.createWorkflow(readExample(file));
		return await n8n.api('GET', `/workflows/${id}`);
	}

	/** The type descriptions n8n's editor works with, one per node of the workflow. */
	async function descriptionsOf(workflow: Workflow): Promise<INodeTypeDescription[]> {
		const { n8n } = real();
		const descriptions: INodeTypeDescription[] = await n8n.rest('POST', '/rest/node-types', {
			nodeInfos: workflow.nodes.map((node) => ({ name: node.type, version: node.typeVersion })),
		});
		workflow.nodes.forEach((node, index) => {
			// n8n answers with the type's description, named without the package prefix; an unknown type fails the request.
			expect({ node: node.name, type: shortName(descriptions[index]?.name ?? '') }).toEqual({
				node: node.name,
				type: shortName(node.type),
			});
		});
		return descriptions;
	}

	/** The parameter problems n8n's editor would flag on each node, by node name, with the node's defaults applied. */
	async function parameterIssues(workflow: Workflow): Promise<Record<string, string[]>> {
		const descriptions = await descriptionsOf(workflow);
		const issues: Record<string, string[]> = {};
		workflow.nodes.forEach((node, index) => {
			const description = descriptions[index];
			const parameters = NodeHelpers.getNodeParameters(
				description.properties,
				node.parameters,
				true,
				false,
				node,
				description,
			);
			const found = NodeHelpers.getNodeParametersIssues(
				description.properties,
				{ ...node, parameters: parameters ?? {} },
				description,
			);
			const names = Object.keys(found?.parameters ?? {});
			if (names.length > 0) issues[node.name] = names.sort();
		});
		return issues;
	}

	/**
	 * Parameters the file sets that the editor does not show, by node name. The
	 * editor drops such a parameter at the user's first change to the node: a
	 * Google Sheets mapping with the sheet still empty is hidden, and is gone
	 * once the user picks the spreadsheet.
	 */
	async function hiddenParameters(workflow: Workflow): Promise<Record<string, string[]>> {
		const descriptions = await descriptionsOf(workflow);
		const hidden: Record<string, string[]> = {};
		workflow.nodes.forEach((node, index) => {
			const shown = NodeHelpers.getNodeParameters(
				descriptions[index].properties,
				node.parameters,
				true,
				false,
				node,
				descriptions[index],
			);
			const names = Object.keys(node.parameters).filter((name) => !(name in (shown ?? {})));
			if (names.length > 0) hidden[node.name] = names.sort();
		});
		return hidden;
	}

	/** How long an execution may take to end and be stored: a bound on a hang (seconds on a quiet machine). */
	const SETTLE_BOUND_MS = 5 * 60_000;

	/** The workflow's executions once `count` of them are saved and done: Respond to Webhook answers before its execution ends. */
	// eslint-disable-next-line @typescript-eslint/no-explicit-any -- executions as n8n's REST API sends them; the assertions check their shape
	async function settledExecutions(workflowId: string, count: number): Promise<any[]> {
		const { n8n } = real();
		const deadline = Date.now() + SETTLE_BOUND_MS;
		for (;;) {
			const executions = await n8n.executions(workflowId);
			const settled =
				executions.length >= count &&
				executions.every((execution) => !['new', 'running'].includes(execution.status));
			if (settled || Date.now() > deadline) return executions;
			await sleep(500);
		}
	}

	/**
	 * Runs the workflow from a trigger as the editor's Execute workflow button
	 * does (the stored workflow, in manual mode), and returns the execution
	 * once it has ended.
	 */
	// eslint-disable-next-line @typescript-eslint/no-explicit-any -- an execution as n8n's public API sends it
	async function executeFrom(workflowId: string, trigger: string): Promise<any> {
		const { n8n } = real();
		const { executionId } = await n8n.rest('POST', `/rest/workflows/${workflowId}/run`, {
			triggerToStartFrom: { name: trigger },
		});
		const deadline = Date.now() + SETTLE_BOUND_MS;
		for (;;) {
			const execution = await n8n.api('GET', `/executions/${executionId}?includeData=true`);
			if (!['new', 'running'].includes(execution.status) || Date.now() > deadline) return execution;
			await sleep(500);
		}
	}

	/** Requests that read a form's inquiries (the trigger's polls, Get Many) so far. */
	const formReads = (pageId: string): number =>
		real()
			.emu.control.requests()
			.filter(
				(request) =>
					request.path === FORM_BUILDER_API &&
					request.status === 200 &&
					(request.body?.pageId ?? request.query.pageId) === pageId,
			).length;

	/** Waits until the form has been read `count` more times than `before`, and the execution a poll started has been saved. */
	async function waitForReads(pageId: string, before: number, count: number): Promise<void> {
		// n8n polls once a minute.
		const deadline = Date.now() + (count + 1) * 75_000;
		while (formReads(pageId) < before + count) {
			if (Date.now() > deadline) throw new Error(`form ${pageId} was not read ${count} times`);
			await sleep(250);
		}
		await sleep(3000);
	}

	/** An app of the emulator's account with one form of its own, so that a test reads only its own leads. */
	function addApp(appId: string, pageId: string, pageName: string) {
		const { emu } = real();
		emu.control.addApp({ appId, accessToken: FIXTURE.accessToken, pages: [{ pageId, pageName }] });
		return { appId, pageId, pageName };
	}

	interface Preparation {
		/** App Builder nodes' parameters to set, by node name (what the user types in). */
		parameters?: Record<string, INodeParameters>;
		/** Credentials of other nodes, by node name (the App Builder nodes get the App Builder credential). */
		credentials?: Record<string, Record<string, { id: string; name: string }>>;
		/**
		 * Triggers that wait for a third-party service's webhook (Typeform), by
		 * node name, with the path of the test's webhook that stands in for the
		 * service: see feedFor.
		 */
		feeds?: Record<string, string>;
		/** Nodes the test adds, and their connections. */
		add?: { nodes: INode[]; connections: Record<string, unknown> };
	}

	/**
	 * What the test runs in place of a trigger whose events come from a
	 * third-party service: an Edit Fields node of the same name that outputs the
	 * body posted to a Webhook node of the test, as it is. The test posts the
	 * item the service's trigger would emit (Typeform Trigger: the answers keyed
	 * by question title), so the nodes after it, and expressions that name it,
	 * run as they would on a real event.
	 */
	function feedFor(
		node: INode,
		path: string,
	): { nodes: INode[]; connections: Record<string, unknown> } {
		const feed = `${node.name} (test feed)`;
		return {
			nodes: [
				{
					id: node.id,
					name: node.name,
					position: node.position,
					type: 'n8n-nodes-base.set',
					typeVersion: 3.4,
					parameters: { mode: 'raw', jsonOutput: '={{ $json.body }}', options: {} },
				},
				{
					id: randomUUID(),
					name: feed,
					position: [node.position[0] - 220, node.position[1]],
					type: 'n8n-nodes-base.webhook',
					typeVersion: 2.1,
					webhookId: randomUUID(),
					parameters: { httpMethod: 'POST', path, responseMode: 'onReceived', options: {} },
				},
			],
			connections: { [feed]: { main: [[{ node: node.name, type: 'main', index: 0 }]] } },
		};
	}

	/** What the test runs in place of a third-party node: see THIRD_PARTY. */
	function standInFor(node: INode): INode {
		const sent = THIRD_PARTY[node.type](node.parameters);
		return {
			id: node.id,
			name: node.name,
			position: node.position,
			type: 'n8n-nodes-base.set',
			typeVersion: 3.4,
			parameters: {
				assignments: {
					assignments: Object.entries(sent).map(([name, value]) => ({
						id: randomUUID(),
						name: `sent.${name}`,
						value: typeof value === 'string' ? value : '',
						type: 'string',
					})),
				},
				includeOtherFields: true,
				options: {},
			},
		};
	}

	/**
	 * Stores what the test runs, and activates it: the workflow with the
	 * credentials set, stand-ins for the nodes that need a third-party service,
	 * and the nodes the test adds. Returns the names of the third-party nodes
	 * replaced.
	 */
	async function prepare(workflow: Workflow, preparation: Preparation = {}): Promise<string[]> {
		const { n8n, credential } = real();
		const { parameters = {}, credentials = {}, feeds = {}, add } = preparation;
		const swapped: string[] = [];
		const connections: Record<string, unknown> = {
			...(workflow.connections as Record<string, unknown>),
			...add?.connections,
		};
		const nodes = workflow.nodes.flatMap((node): INode[] => {
			if (feeds[node.name] !== undefined) {
				const fed = feedFor(node, feeds[node.name]);
				Object.assign(connections, fed.connections);
				return fed.nodes;
			}
			if (THIRD_PARTY[node.type] !== undefined) {
				swapped.push(node.name);
				return [standInFor(node)];
			}
			if (credentials[node.name] !== undefined)
				return [{ ...node, credentials: credentials[node.name] }];
			if (!node.type.startsWith('n8n-nodes-appbuilder.')) return [node];
			return [
				{
					...node,
					parameters: { ...node.parameters, ...parameters[node.name] },
					credentials: { appBuilderApi: credential },
				},
			];
		});
		await n8n.api('PUT', `/workflows/${workflow.id}`, {
			name: workflow.name,
			nodes: [...nodes, ...(add?.nodes ?? [])],
			connections,
			settings: workflow.settings,
		});
		await n8n.activate(workflow.id);
		return swapped;
	}

	/** The items a node output in a run, by output. */
	// eslint-disable-next-line @typescript-eslint/no-explicit-any -- run data as n8n's REST API sends it
	const outputOf = (execution: any, node: string, output = 0): Array<Record<string, any>> =>
		(execution.data.resultData.runData[node]?.[0]?.data?.main?.[output] ?? []).map(
			(item: { json: unknown }) => item.json,
		);

	it('lead-to-slack-and-sheet.json: watches every form of the app; each new lead of two forms with different field names goes once to Slack and the sheet, Submitted At in the workflow’s time zone; the notes’ expressions fill the other form’s name and read the lead after a step; the resend part reads every form and sends last Tuesday, in the workflow’s zone, to the sheet alone', async () => {
		const { emu, n8n } = real();
		const file = 'lead-to-slack-and-sheet.json';
		const sheetNode = 'Add or Update Lead in Sheet';
		const workflow = await importExample(file);
		expect(workflow.nodes.map((node) => node.name)).toEqual(
			readExample(file).nodes.map((node) => node.name),
		);
		// Every form: no Form to pick, in the trigger or in the resend part.
		expect(await parameterIssues(workflow)).toEqual({
			'App Builder Trigger': ['appId'],
			[sheetNode]: ['documentId'],
			'Get Leads of the Period': ['appId'],
		});
		expect(await hiddenParameters(workflow)).toEqual({});
		const parametersOf = (name: string) =>
			workflow.nodes.find((node) => node.name === name)?.parameters ?? {};
		expect(parametersOf('App Builder Trigger').watch).toBe('allForms');
		expect(parametersOf('Get Leads of the Period').readFrom).toBe('allForms');

		const notes = workflow.nodes
			.filter((node) => node.type === 'n8n-nodes-base.stickyNote')
			.map((node) => String(node.parameters.content))
			.join('\n');
		// The note's expression for a step placed after another one, run as written in such a step.
		const afterAStep = notes.match(/\{\{ \$\('App Builder Trigger'\)[^`]*\}\}/)?.[0] ?? '';
		expect(afterAStep).toBe("{{ $('App Builder Trigger').item.json.email }}");
		// For resent leads the note names the node that reads them instead.
		expect(notes).toContain("`$('Get Leads of the Period')` instead");
		// The note's expression for a form that names its field otherwise.
		const [eitherName, otherName] =
			/`(\{\{ \$json\.name \|\| \$json\.(\w+) \}\})`/.exec(notes)?.slice(1) ?? [];
		expect(otherName).toBe('full_name');
		// The note's last Tuesday: a Tuesday, and the next day, read in the workflow's time zone.
		const [tuesday, wednesday] =
			/`(\d{4}-\d{2}-\d{2}) 00:00` and `(\d{4}-\d{2}-\d{2}) 00:00`/.exec(notes)?.slice(1) ?? [];
		expect(new Date(`${tuesday}T12:00:00Z`).getUTCDay()).toBe(2);
		expect(Date.parse(`${wednesday}T00:00:00Z`) - Date.parse(`${tuesday}T00:00:00Z`)).toBe(DAY_MS);

		const stepAfterTheSheet = (name: string, expression: string, y: number): INode => ({
			id: randomUUID(),
			name,
			type: 'n8n-nodes-base.set',
			typeVersion: 3.4,
			position: [900, y],
			// A step that reads the wrong source fails; the other run still goes on.
			onError: 'continueRegularOutput',
			parameters: {
				assignments: {
					assignments: [
						{ id: randomUUID(), name: 'email', value: `=${expression}`, type: 'string' },
					],
				},
				options: {},
			},
		});
		const readers = {
			trigger: 'Step After the Sheet (reads App Builder Trigger)',
			getMany: 'Step After the Sheet (reads Get Leads of the Period)',
		};

		// An app with two forms; the second names its name field full_name.
		const appId = '7000001';
		const quote = { appId, pageId: 'formbuilder_7001_1', pageName: 'Quote Request' };
		const signUp = { appId, pageId: 'formbuilder_7001_2', pageName: 'Event Sign-up' };
		emu.control.addApp({ appId, accessToken: FIXTURE.accessToken, pages: [quote, signUp] });
		const signUpFields = (index: number) =>
			demoLeadFields(index)
				.filter((field) => ['name', 'email', 'phone'].includes(field.name))
				.map((field) =>
					field.name === 'name' ? { ...field, name: 'full_name', label: 'Full Name' } : field,
				);

		// The workflow's time zone, set in Workflow Settings; Berlin is UTC+1 in November.
		const zone = 'Europe/Berlin';
		const wallClock = (iso: string): string => {
			const part = Object.fromEntries(
				new Intl.DateTimeFormat('en-CA', {
					timeZone: zone,
					year: 'numeric',
					month: '2-digit',
					day: '2-digit',
					hour: '2-digit',
					minute: '2-digit',
					hourCycle: 'h23',
				})
					.formatToParts(new Date(iso))
					.map(({ type, value }) => [type, value]),
			);
			return `${part.year}-${part.month}-${part.day} ${part.hour}:${part.minute}`;
		};
		const tuesdayStart = Date.parse(`${tuesday}T00:00:00+01:00`);
		const wednesdayStart = Date.parse(`${wednesday}T00:00:00+01:00`);
		expect(wallClock(new Date(tuesdayStart).toISOString())).toBe(`${tuesday} 00:00`);
		// Already in the forms before publishing: not sent as new leads. Around last Tuesday in Berlin.
		const minutes = 60_000;
		emu.control.addInquiry({
			...quote,
			fields: demoLeadFields(4),
			addedon: tuesdayStart - minutes,
		});
		const tuesdayEarly = emu.control.addInquiry({
			...quote,
			fields: demoLeadFields(5),
			addedon: tuesdayStart + 30 * minutes,
		});
		const tuesdayLate = emu.control.addInquiry({
			...signUp,
			fields: signUpFields(2),
			addedon: wednesdayStart - 30 * minutes,
		});
		emu.control.addInquiry({
			...signUp,
			fields: signUpFields(3),
			addedon: wednesdayStart + 30 * minutes,
		});

		const before = { quote: formReads(quote.pageId), signUp: formReads(signUp.pageId) };
		const app = { appId };
		const swapped = await prepare(
			{ ...workflow, settings: { ...(workflow.settings as object), timezone: zone } },
			{
				parameters: { 'App Builder Trigger': app, 'Get Leads of the Period': app },
				add: {
					nodes: [
						stepAfterTheSheet(readers.trigger, afterAStep, 200),
						stepAfterTheSheet(
							readers.getMany,
							afterAStep.replace('App Builder Trigger', 'Get Leads of the Period'),
							400,
						),
					],
					connections: {
						[sheetNode]: {
							main: [
								[
									{ node: readers.trigger, type: 'main', index: 0 },
									{ node: readers.getMany, type: 'main', index: 0 },
								],
							],
						},
					},
				},
			},
		);
		expect(swapped.sort()).toEqual([sheetNode, 'Post Lead to Slack']);
		await waitForReads(quote.pageId, before.quote, 1);

		// Submitted while the workflow is published: Maria through the quote form, then Kenji through the sign-up form.
		const maria = emu.control.addInquiry({ ...quote, fields: demoLeadFields(0) });
		await sleep(1500);
		const kenji = emu.control.addInquiry({ ...signUp, fields: signUpFields(1) });
		await waitForReads(signUp.pageId, formReads(signUp.pageId), 1);
		await n8n.api('POST', `/workflows/${workflow.id}/deactivate`);

		const executions = await n8n.executions(workflow.id);
		expect(executions.map((execution) => execution.status)).toEqual(
			executions.map(() => 'success'),
		);
		const across = (node: string) => executions.flatMap((execution) => outputOf(execution, node));
		const emitted = across('App Builder Trigger');
		expect(emitted.map((item) => item.inquiryId).sort()).toEqual([maria._id, kenji._id].sort());
		const localTime = (inquiryId: string): string => {
			const submittedAt = String(emitted.find((item) => item.inquiryId === inquiryId)?.submittedAt);
			// The zone the sheet is written in is not UTC's, so the column shows which it is.
			expect(wallClock(submittedAt)).not.toBe(submittedAt.slice(0, 16).replace('T', ' '));
			return wallClock(submittedAt);
		};
		// Both branches receive each lead once; the sign-up form's lead has no `name`, as the note warns.
		expect(
			across('Post Lead to Slack')
				.map((item) => item.sent.text)
				.sort(),
		).toEqual(
			[
				`New lead from Quote Request: Maria Garcia, maria.garcia@example.com, +1 415 555 0132 (submitted ${localTime(maria._id)})`,
				`New lead from Event Sign-up: , kenji.tanaka@example.jp, +81 3 5555 0199 (submitted ${localTime(kenji._id)})`,
			].sort(),
		);
		const rows = (items: ReturnType<typeof outputOf>) =>
			items.map((item) => item.sent.row as Record<string, string>);
		expect(rows(across(sheetNode))).toEqual(
			expect.arrayContaining([
				{
					'Lead ID': maria._id,
					Name: 'Maria Garcia',
					Email: 'maria.garcia@example.com',
					Phone: '+1 415 555 0132',
					Form: 'Quote Request',
					'Submitted At': localTime(maria._id),
				},
				{
					'Lead ID': kenji._id,
					// An expression that finds nothing: the stand-in holds null where Google Sheets leaves the cell empty.
					Name: null,
					Email: 'kenji.tanaka@example.jp',
					Phone: '+81 3 5555 0199',
					Form: 'Event Sign-up',
					'Submitted At': localTime(kenji._id),
				},
			]),
		);
		expect(across(sheetNode)).toHaveLength(2);
		// The sheet's columns are the ones its note asks for, in that order.
		const columns = Object.keys(
			(parametersOf(sheetNode).columns as { value: Record<string, string> }).value,
		);
		expect(notes).toContain(`in row 1: ${columns.map((column) => `**${column}**`).join(', ')}.`);
		expect(
			across(readers.trigger)
				.map((item) => item.email)
				.sort(),
		).toEqual(['kenji.tanaka@example.jp', 'maria.garcia@example.com'].sort());

		// Then what the notes say: both names in the Name column, and last Tuesday as Fixed dates.
		const stored = await n8n.api('GET', `/workflows/${workflow.id}`);
		const edited = stored.nodes.map((node: INode) => {
			if (node.name === sheetNode) {
				// The stand-in's assignment of the Name column, as the note has the sheet's edited.
				const set = node.parameters.assignments as {
					assignments: Array<{ name: string; value: string }>;
				};
				const assignments = set.assignments.map((assignment) =>
					assignment.name === 'sent.row.Name'
						? { ...assignment, value: `=${eitherName}` }
						: assignment,
				);
				return { ...node, parameters: { ...node.parameters, assignments: { assignments } } };
			}
			if (node.name === 'Get Leads of the Period') {
				const filters = node.parameters.filters as Record<string, unknown>;
				return {
					...node,
					parameters: {
						...node.parameters,
						filters: {
							...filters,
							submittedAfter: `${tuesday}T00:00:00`,
							submittedBefore: `${wednesday}T00:00:00`,
						},
					},
				};
			}
			return node;
		});
		await n8n.api('PUT', `/workflows/${workflow.id}`, {
			name: stored.name,
			nodes: edited,
			connections: stored.connections,
			settings: stored.settings,
		});

		// The resend part, run by hand: Tuesday in Berlin, of both forms, oldest first, to the sheet alone.
		const resent = await executeFrom(workflow.id, 'Resend Leads of a Period');
		expect(resent.status).toBe('success');
		expect(outputOf(resent, 'Get Leads of the Period').map((item) => item.inquiryId)).toEqual([
			tuesdayEarly._id,
			tuesdayLate._id,
		]);
		expect(rows(outputOf(resent, sheetNode))).toEqual([
			{
				'Lead ID': tuesdayEarly._id,
				Name: 'Sophie Martin',
				Email: 'sophie.martin@example.fr',
				Phone: '+33 1 55 55 01 45',
				Form: 'Quote Request',
				'Submitted At': `${tuesday} 00:30`,
			},
			{
				'Lead ID': tuesdayLate._id,
				Name: 'Amara Okafor',
				Email: 'amara@okafor-studio.example',
				Phone: '+234 80 5555 0101',
				Form: 'Event Sign-up',
				'Submitted At': `${tuesday} 23:30`,
			},
		]);
		expect(outputOf(resent, 'Post Lead to Slack')).toEqual([]);
		expect(outputOf(resent, readers.getMany).map((item) => item.email)).toEqual([
			'sophie.martin@example.fr',
			'amara@okafor-studio.example',
		]);
		expect(outputOf(resent, 'App Builder Trigger')).toEqual([]);

		// What the first note says of Execute workflow from the trigger: a test with the app's latest lead.
		const tried = await executeFrom(workflow.id, 'App Builder Trigger');
		expect(tried.status).toBe('success');
		expect({
			trigger: outputOf(tried, 'App Builder Trigger').map((item) => item.inquiryId),
			triedSlack: outputOf(tried, 'Post Lead to Slack').map((item) => item.email),
			triedSheet: rows(outputOf(tried, sheetNode)).map((row) => row.Name),
		}).toEqual({
			trigger: [kenji._id],
			triedSlack: ['kenji.tanaka@example.jp'],
			triedSheet: ['Kenji Tanaka'],
		});
		expect(notes).toContain("is a test: it sends the app's latest lead");
		expect(JSON.stringify([executions, resent, tried])).not.toContain(FIXTURE.accessToken);
	});

	it('new-lead-routing.json: imports whole, leaves only the form, sheet and credentials to fill in, and routes each new lead by its budget', async () => {
		const { emu, n8n } = real();
		const workflow = await importExample('new-lead-routing.json');
		expect(workflow.nodes.map((node) => node.name)).toEqual(
			readExample('new-lead-routing.json').nodes.map((node) => node.name),
		);
		expect(await parameterIssues(workflow)).toEqual({
			'New Lead': ['appId', 'pageId'],
			'Add to Leads Sheet': ['documentId'],
		});
		expect(await hiddenParameters(workflow)).toEqual({});

		const form = { appId: FIXTURE.appId, pageId: FIXTURE.formPageId };
		emu.control.addInquiry({ ...form, fields: demoLeadFields(3), addedon: Date.now() - 3_600_000 });
		const swapped = await prepare(workflow, {
			parameters: {
				'New Lead': {
					appId: form.appId,
					pageId: { __rl: true, mode: 'list', value: form.pageId, cachedResultName: 'Contact Us' },
				},
			},
		});
		expect(swapped.sort()).toEqual(['Add to Leads Sheet', 'Email the Lead', 'Tell Sales on Slack']);
		await waitForPolls(emu, 1);

		// Kenji: 20000+, Maria: 5000-10000, Amara: 1000-5000 (test/emulator/fixtures.js).
		const leads = [1, 0, 2].map((index) =>
			emu.control.addInquiry({ ...form, fields: demoLeadFields(index) }),
		);
		await waitForPolls(emu, 1);

		const executions = await executionsOnce(
			n8n,
			workflow.id,
			'the execution of the new leads',
			(stored) => stored.length >= 1 && stored.every((e) => !['new', 'running'].includes(e.status)),
		);
		expect(executions.map((execution) => execution.status)).toEqual(['success']);
		const runData = executions[0].data.resultData.runData;
		const emailsAt = (node: string): string[] =>
			(runData[node]?.[0]?.data?.main?.[0] ?? []).map(
				(item: { json: { email: string } }) => item.json.email,
			);
		expect(emailsAt('New Lead')).toEqual([
			'kenji.tanaka@example.jp',
			'maria.garcia@example.com',
			'amara@okafor-studio.example',
		]);
		expect({
			slack: emailsAt('Tell Sales on Slack'),
			email: emailsAt('Email the Lead'),
			sheet: emailsAt('Add to Leads Sheet'),
		}).toEqual({
			slack: ['kenji.tanaka@example.jp'],
			email: ['maria.garcia@example.com'],
			sheet: ['amara@okafor-studio.example'],
		});
		expect(
			runData['New Lead'][0].data.main[0].map(
				(item: { json: { inquiryId: string } }) => item.json.inquiryId,
			),
		).toEqual(leads.map((lead) => lead._id));
		await n8n.api('POST', `/workflows/${workflow.id}/deactivate`);
	});

	it('webhook-add-user.json: imports whole, refuses a caller without its header key, adds the user the webhook names and answers 201, answers 400 with the API’s reason for the caller’s mistakes, and 500 only when App Builder fails', async () => {
		const { emu, n8n } = real();
		const workflow = await importExample('webhook-add-user.json');
		expect(await parameterIssues(workflow)).toEqual({});
		expect(await hiddenParameters(workflow)).toEqual({});
		const keyId = await n8n.createCredential('Sign-up key', 'httpHeaderAuth', {
			name: 'X-Signup-Key',
			value: 'a-long-random-sign-up-key',
		});
		expect(
			await prepare(workflow, {
				credentials: { 'Sign-up Webhook': { httpHeaderAuth: { id: keyId, name: 'Sign-up key' } } },
			}),
		).toEqual([]);
		const key = { 'X-Signup-Key': 'a-long-random-sign-up-key' };
		const usersNamed = (email: string) =>
			emu.control.users().filter((user) => user.email === email);

		const person = {
			email: 'ann.lee@example.com',
			name: 'Ann Lee',
			password: 'Pa55word!',
			phone: '5551234567',
		};
		const stranger = await callWebhook(n8n, 'appbuilder-add-user', person);
		expect(stranger.status).toBe(403);
		expect(usersNamed(person.email)).toEqual([]);

		const added = await callWebhook(n8n, 'appbuilder-add-user', person, key);
		expect({ status: added.status, body: JSON.parse(added.body) }).toEqual({
			status: 201,
			body: { ok: true, email: 'ann.lee@example.com', message: expect.any(String) },
		});
		expect(usersNamed(person.email)).toEqual([
			expect.objectContaining({
				name: 'Ann Lee',
				phone: '5551234567',
				group: 'Website sign-ups',
				passwordType: 'MD5',
			}),
		]);
		expect(JSON.stringify(emu.control.requests())).not.toContain('Pa55word!');

		// The caller's mistakes: 400 with the reason, in the node's words for the API's error.
		const refusals = [
			{ request: person, reason: 'This email already belongs to an app user' },
			{
				request: { ...person, email: 'ann.lee.2@example.com' },
				reason: 'This phone number already belongs to another app user',
			},
			{
				request: { ...person, email: 'ann.lee.example.com', phone: '5557654321' },
				reason: 'The App Builder API says the email is not valid',
			},
			{ request: { ...person, email: '' }, reason: 'Email is empty' },
		];
		for (const { request, reason } of refusals) {
			const refused = await callWebhook(n8n, 'appbuilder-add-user', request, key);
			expect({ status: refused.status, body: JSON.parse(refused.body) }).toEqual({
				status: 400,
				body: { ok: false, error: reason },
			});
		}

		// An outage: App Builder answers 500 to every attempt the node makes.
		emu.control.injectFault({ endpoint: 'addUser', kind: 'status', status: 500, times: 10 });
		const outage = await callWebhook(
			n8n,
			'appbuilder-add-user',
			{ ...person, email: 'ben.okafor@example.com', phone: '5550001111' },
			key,
		);
		emu.control.clearFaults();
		expect({ status: outage.status, body: JSON.parse(outage.body) }).toEqual({
			status: 500,
			body: {
				ok: false,
				error:
					'The user was not added: App Builder failed or could not be reached. Try again later.',
			},
		});
		expect(emu.control.users().map((user) => user.email)).not.toContain('ben.okafor@example.com');
		expect(usersNamed(person.email)).toHaveLength(1);

		const executions = await settledExecutions(workflow.id, 6);
		expect(executions.map((execution) => execution.status)).toEqual(Array(6).fill('success'));
		const ran = executions.map((execution) =>
			Object.keys(execution.data.resultData.runData).sort(),
		);
		const refusedPath = ['Add User', "Caller's Mistake?", 'Respond Refused', 'Sign-up Webhook'];
		expect(ran).toEqual([
			['Add User', 'Respond Added', 'Sign-up Webhook'],
			refusedPath,
			refusedPath,
			refusedPath,
			refusedPath,
			['Add User', "Caller's Mistake?", 'Respond Failed', 'Sign-up Webhook'],
		]);
		expect(JSON.stringify(executions)).not.toContain(FIXTURE.apiKey);
		expect(JSON.stringify(executions)).not.toContain(FIXTURE.accessToken);

		// What the sticky note warns of: the password the caller sent is in the saved executions,
		expect(JSON.stringify(executions[0])).toContain('Pa55word!');
		// and what it says to switch off keeps the next one out (Workflow Settings, as the API names them).
		const stored = await n8n.api('GET', `/workflows/${workflow.id}`);
		await n8n.api('PUT', `/workflows/${workflow.id}`, {
			name: stored.name,
			nodes: stored.nodes,
			connections: stored.connections,
			settings: {
				...stored.settings,
				saveDataSuccessExecution: 'none',
				saveExecutionProgress: false,
			},
		});
		const unsaved = await callWebhook(
			n8n,
			'appbuilder-add-user',
			{ ...person, email: 'cleo.ng@example.com', phone: '5552223333', password: 'Not-kept-pa55' },
			key,
		);
		expect(unsaved.status).toBe(201);
		expect(usersNamed('cleo.ng@example.com')).toHaveLength(1);
		await sleep(2000);
		const kept = await n8n.executions(workflow.id);
		expect(kept).toHaveLength(6);
		expect(JSON.stringify(kept)).not.toContain('Not-kept-pa55');
	});

	it('typeform-to-app-user.json: imports whole, leaves only the form and credentials to fill in, adds each sign-up with a generated password that no message shows, and tells a refused sign-up, an outage and a revoked access token apart by the error’s cause', async () => {
		const { emu, n8n, credential } = real();
		const file = 'typeform-to-app-user.json';
		const workflow = await importExample(file);
		expect(workflow.nodes.map((node) => node.name)).toEqual(
			readExample(file).nodes.map((node) => node.name),
		);
		expect(await parameterIssues(workflow)).toEqual({ 'Typeform Trigger': ['formId'] });
		expect(await hiddenParameters(workflow)).toEqual({});
		// The question titles the sticky note asks for are the keys Add App User reads.
		const addUser = workflow.nodes.find((node) => node.name === 'Add App User');
		const notes = workflow.nodes
			.filter((node) => node.type === 'n8n-nodes-base.stickyNote')
			.map((node) => String(node.parameters.content))
			.join('\n');
		for (const title of ['Name', 'Email', 'Phone']) {
			expect(notes).toContain(`**${title}**`);
			expect(JSON.stringify(addUser?.parameters)).toContain(`$json.${title} }}`);
		}

		// Typeform's servers cannot reach this n8n: the test posts what the Typeform Trigger would emit.
		expect(
			(await prepare(workflow, { feeds: { 'Typeform Trigger': 'typeform-sign-ups' } })).sort(),
		).toEqual([
			'Tell the Team: App Builder Unreachable',
			'Tell the Team: Check the Credential',
			'Tell the Team: Sign-up Refused',
		]);
		const signUp = async (answers: Record<string, string>, count: number) => {
			const fed = await callWebhook(n8n, 'typeform-sign-ups', answers);
			expect(fed.status).toBe(200);
			const executions = await settledExecutions(workflow.id, count);
			expect(executions).toHaveLength(count);
			return executions[count - 1];
		};
		const slackSteps = [
			'Tell the Team: Sign-up Refused',
			'Tell the Team: App Builder Unreachable',
			'Tell the Team: Check the Credential',
		];
		// eslint-disable-next-line @typescript-eslint/no-explicit-any -- an execution as n8n's REST API sends it
		const toldTheTeam = (execution: any) =>
			Object.fromEntries(
				slackSteps
					.map((step) => [step, outputOf(execution, step).map((item) => item.sent.text)])
					.filter(([, texts]) => texts.length > 0),
			);
		// eslint-disable-next-line @typescript-eslint/no-explicit-any -- an execution as n8n's REST API sends it
		const passwordOf = (execution: any): string =>
			outputOf(execution, 'Generate a Password')[0].generatedPassword;

		const ann = { Name: 'Ann Lee', Email: 'ann.typeform@example.com', Phone: '+15551230001' };
		const added = await signUp(ann, 1);
		expect(added.status).toBe('success');
		const password = passwordOf(added);
		expect(password).toMatch(/^[A-Za-z0-9]{24}$/);
		expect(emu.control.users().filter((user) => user.email === ann.Email)).toEqual([
			expect.objectContaining({
				name: 'Ann Lee',
				phone: '+15551230001',
				group: 'Typeform sign-ups',
				status: '1',
				passwordType: 'MD5',
				password: createHash('md5').update(password).digest('hex'),
			}),
		]);
		expect(outputOf(added, 'Add App User')).toEqual([
			expect.objectContaining({ email: ann.Email }),
		]);
		expect(toldTheTeam(added)).toEqual({});

		// The same email again: App Builder refuses it, and the team is told who and why.
		const again = await signUp({ ...ann, Phone: '+15551230002' }, 2);
		expect(toldTheTeam(again)).toEqual({
			'Tell the Team: Sign-up Refused': [
				`:no_entry: Ann Lee (${ann.Email}) could not be added to the app: This email already belongs to an app user.`,
			],
		});

		// An outage: App Builder answers 500 to every attempt.
		emu.control.injectFault({ endpoint: 'addUser', kind: 'status', status: 500, times: 10 });
		const ben = { Name: 'Ben Okafor', Email: 'ben.typeform@example.com', Phone: '+15551230003' };
		const outage = await signUp(ben, 3);
		emu.control.clearFaults();
		expect(toldTheTeam(outage)).toEqual({
			'Tell the Team: App Builder Unreachable': [
				expect.stringMatching(
					/^:warning: App Builder is unreachable, the sign-up will need to be added by hand: Ben Okafor, ben\.typeform@example\.com, \+15551230003\.\nWhat failed: The App Builder API had an internal error/,
				),
			],
		});
		expect(emu.control.users().map((user) => user.email)).not.toContain(ben.Email);

		// A revoked access token: the team is told to check the credential, not to wait for an outage.
		const addUserWith = async (appBuilder: { id: string; name: string }) => {
			const stored = await n8n.api('GET', `/workflows/${workflow.id}`);
			await n8n.api('PUT', `/workflows/${workflow.id}`, {
				name: stored.name,
				nodes: stored.nodes.map((node: INode) =>
					node.name === 'Add App User'
						? { ...node, credentials: { appBuilderApi: appBuilder } }
						: node,
				),
				connections: stored.connections,
				settings: stored.settings,
			});
			await n8n.activate(workflow.id);
		};
		const revoked = { name: 'App Builder (token revoked)' };
		const revokedId = await n8n.createCredential(revoked.name, 'appBuilderApi', {
			...credentialDataFor(emu),
			accessToken: 'a-revoked-access-token',
		});
		await addUserWith({ id: revokedId, ...revoked });
		const cleo = { Name: 'Cleo Ng', Email: 'cleo.typeform@example.com', Phone: '+15551230004' };
		const refusedCredential = await signUp(cleo, 4);
		await addUserWith(credential);
		expect(toldTheTeam(refusedCredential)).toEqual({
			'Tell the Team: Check the Credential': [
				`:key: App Builder did not accept the App Builder API credential, so Cleo Ng, cleo.typeform@example.com, +15551230004 was not added: The App Builder API did not accept the access token\nOpen the credential in n8n, fix it and click Test; then add the person by hand.`,
			],
		});
		expect(emu.control.users().map((user) => user.email)).not.toContain(cleo.Email);

		const runs = [added, again, outage, refusedCredential];
		expect(runs.map((run) => run.status)).toEqual(['success', 'success', 'success', 'success']);
		// Each generated password reached App Builder only as its hash, and no message shows one.
		const passwords = runs.map(passwordOf);
		expect(new Set(passwords).size).toBe(4);
		const requests = JSON.stringify(emu.control.requests());
		const messages = JSON.stringify(runs.map(toldTheTeam));
		for (const generated of passwords) {
			expect(requests).not.toContain(generated);
			expect(messages).not.toContain(generated);
		}
		await n8n.api('POST', `/workflows/${workflow.id}/deactivate`);
	});

	it('quiet-form-alert.json: as the error workflow of a lead workflow, tells the team once per quiet spell that the form went quiet, naming it; a lead ends the spell, and the next spell is told again', async () => {
		const { emu, n8n, credential } = real();
		const alerts = await importExample('quiet-form-alert.json');
		expect(await parameterIssues(alerts)).toEqual({});
		expect(await hiddenParameters(alerts)).toEqual({});
		expect((await prepare(alerts)).sort()).toEqual([
			'Email the Failure',
			'Tell the Team a Form Went Quiet',
		]);

		const form = { appId: FIXTURE.appId, pageId: FIXTURE.secondFormPageId };
		emu.control.addInquiry({ ...form, fields: demoLeadFields(0), addedon: Date.now() - 3_600_000 });
		const base = newInquiryWorkflow(credential, form, FOUR_POLLS_A_MINUTE);
		const leadWorkflowId = await n8n.createWorkflow({
			...base,
			name: 'Leads with Alert When Quiet',
			nodes: withTriggerOptions(base, { quietAlert: 'fixed', quietHours: 0.01 }).nodes,
			settings: { executionOrder: 'v1', errorWorkflow: alerts.id },
		});
		await n8n.activate(leadWorkflowId);

		/** The error workflow's runs, once there are `count` of them settled (a poll every 15 s, 36 s of quiet). */
		const alertRuns = async (count: number) => {
			const deadline = Date.now() + 150_000;
			let runs = await settledExecutions(alerts.id, count);
			while (runs.length < count && Date.now() < deadline) {
				await new Promise((resolveWait) => setTimeout(resolveWait, 2000));
				runs = await settledExecutions(alerts.id, count);
			}
			return runs;
		};
		const toldOf = (run: { data: { resultData: { runData: Record<string, unknown> } } }) =>
			JSON.stringify(run.data.resultData.runData['Tell the Team a Form Went Quiet'] ?? null);

		const first = await alertRuns(1);
		expect(first).toHaveLength(1);
		expect(toldOf(first[0])).toContain(`Form ${form.pageId} has had no new lead for`);
		expect(first[0].data.resultData.runData['Email the Failure']).toBeUndefined();
		// The same spell is not told again while it lasts.
		await new Promise((resolveWait) => setTimeout(resolveWait, 45_000));
		expect(await n8n.executions(alerts.id)).toHaveLength(1);

		const lead = emu.control.addInquiry({ ...form, fields: demoLeadFields(1) });
		const second = await alertRuns(2);
		await n8n.api('POST', `/workflows/${leadWorkflowId}/deactivate`);
		expect(second).toHaveLength(2);
		expect(second.map(toldOf).every((text) => text.includes(form.pageId))).toBe(true);
		const received = (await n8n.executions(leadWorkflowId)).filter(
			(execution: { status: string }) => execution.status === 'success',
		);
		expect(JSON.stringify(received)).toContain(lead._id);
		expect(JSON.stringify(second)).not.toContain(FIXTURE.accessToken);
	});

	it('a lead workflow unpublished for a while: the leads that arrived meanwhile come out at its next publishing, all in one execution, oldest first', async () => {
		const { emu, n8n, credential } = real();
		const form = addApp('7000005', 'formbuilder_7005_1', 'Waiting List');
		const workflowId = await n8n.createWorkflow({
			...newInquiryWorkflow(credential, form),
			name: 'Leads while unpublished',
		});
		const before = formReads(form.pageId);
		await n8n.activate(workflowId);
		await waitForReads(form.pageId, before, 1);
		await n8n.api('POST', `/workflows/${workflowId}/deactivate`);
		const whileUnpublished = formReads(form.pageId);

		const leads = [4, 5, 6].map((index) =>
			emu.control.addInquiry({ ...form, fields: demoLeadFields(index) }),
		);
		expect(await n8n.executions(workflowId)).toEqual([]);
		expect(formReads(form.pageId)).toBe(whileUnpublished);

		const publishedAt = Date.now();
		await n8n.activate(workflowId);
		await waitForReads(form.pageId, whileUnpublished, 1);
		const executions = await settledExecutions(workflowId, 1);
		await n8n.api('POST', `/workflows/${workflowId}/deactivate`);

		expect(executions.map((execution) => execution.status)).toEqual(['success']);
		expect(outputOf(executions[0], 'New Inquiry').map((item) => item.inquiryId)).toEqual(
			leads.map((lead) => lead._id),
		);
		// The poll n8n runs as it publishes the workflow, not the next minute's.
		expect(Date.parse(executions[0].startedAt) - publishedAt).toBeLessThan(15_000);
	});
});
