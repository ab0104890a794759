// @ts-check
'use strict';

/**
 * The workflows the end-to-end suite and the demo import into n8n, built
 * with the package's real node type names.
 */
const APP_BUILDER = 'n8n-nodes-appbuilder.appBuilder';
const APP_BUILDER_TRIGGER = 'n8n-nodes-appbuilder.appBuilderTrigger';
/** The node as an AI tool: n8n registers every `usableAsTool` node again under its type name with "Tool" appended. */
const APP_BUILDER_TOOL = `${APP_BUILDER}Tool`;
const MCP_TRIGGER = '@n8n/n8n-nodes-langchain.mcpTrigger';

/** n8n refuses to activate a poll more frequent than once a minute (any cron with a seconds field). */
const POLL_EVERY_MINUTE = { item: [{ mode: 'everyMinute' }] };

/** @param {string} path */
function webhookNode(path) {
	return {
		id: `webhook-${path}`,
		name: 'Webhook',
		type: 'n8n-nodes-base.webhook',
		typeVersion: 2,
		position: [0, 0],
		webhookId: `e2e-${path}`,
		parameters: {
			httpMethod: 'POST',
			path,
			responseMode: 'lastNode',
			responseData: 'allEntries',
			options: {},
		},
	};
}

/**
 * @param {string} name
 * @param {number} x
 * @param {Record<string, unknown>} parameters
 * @param {{id: string, name: string}} credential
 */
function appBuilderNode(name, x, parameters, credential) {
	return {
		id: name.toLowerCase().replace(/\W+/g, '-'),
		name,
		type: APP_BUILDER,
		typeVersion: 1,
		position: [x, 0],
		parameters,
		credentials: { appBuilderApi: credential },
	};
}

/** @param {string[]} names */
function chain(names) {
	/** @type {Record<string, unknown>} */
	const connections = {};
	for (let i = 0; i < names.length - 1; i++) {
		connections[names[i]] = { main: [[{ node: names[i + 1], type: 'main', index: 0 }]] };
	}
	return connections;
}

/**
 * Workflow A: a webhook receives a person, App Builder adds them as a user,
 * updates them, then reads the form's inquiries.
 * @param {{id: string, name: string}} credential
 * @param {{appId: string, pageId: string}} form
 */
function userLifecycleWorkflow(credential, form) {
	return {
		name: 'E2E A: add, update, read',
		nodes: [
			webhookNode('appbuilder-users'),
			appBuilderNode(
				'Add User',
				250,
				{
					resource: 'user',
					operation: 'add',
					email: '={{ $json.body.email }}',
					name: '={{ $json.body.name }}',
					password: '={{ $json.body.password }}',
					passwordFormat: 'hashInN8n',
					phone: '={{ $json.body.phone }}',
					additionalFields: { group: 'Leads', status: '1' },
				},
				credential,
			),
			appBuilderNode(
				'Update User',
				500,
				{
					resource: 'user',
					operation: 'update',
					email: "={{ $('Webhook').item.json.body.email }}",
					name: "={{ $('Webhook').item.json.body.name }} (customer)",
					password: "={{ $('Webhook').item.json.body.password }}",
					passwordFormat: 'hashInN8n',
					phone: "={{ $('Webhook').item.json.body.phone }}",
					phoneFormat: 'integer',
					group: 'Customers',
					additionalFields: {},
				},
				credential,
			),
			appBuilderNode(
				'Get Many Inquiries',
				750,
				{
					resource: 'inquiry',
					operation: 'getAll',
					appId: form.appId,
					pageId: { __rl: true, mode: 'id', value: form.pageId },
					returnAll: true,
					simplify: true,
					filters: { sort: 'oldestFirst' },
				},
				credential,
			),
		],
		connections: chain(['Webhook', 'Add User', 'Update User', 'Get Many Inquiries']),
	};
}

/**
 * Workflow B: every new inquiry of the form starts an execution.
 * @param {{id: string, name: string}} credential
 * @param {{appId: string, pageId: string}} form
 * @param {Record<string, unknown>} [pollTimes]
 */
function newInquiryWorkflow(credential, form, pollTimes = POLL_EVERY_MINUTE) {
	return {
		name: 'E2E B: new inquiry',
		nodes: [
			{
				id: 'trigger',
				name: 'New Inquiry',
				type: APP_BUILDER_TRIGGER,
				typeVersion: 1,
				position: [0, 0],
				parameters: {
					pollTimes,
					event: 'new',
					appId: form.appId,
					pageId: { __rl: true, mode: 'id', value: form.pageId },
					simplify: true,
					options: {},
				},
				credentials: { appBuilderApi: credential },
			},
			{
				id: 'noop',
				name: 'Received',
				type: 'n8n-nodes-base.noOp',
				typeVersion: 1,
				position: [250, 0],
				parameters: {},
			},
		],
		connections: chain(['New Inquiry', 'Received']),
	};
}

/**
 * The README's first lead workflow: App Builder Trigger on a form, then
 * Slack > Send Message with the lead's email mapped into the text.
 * @param {{id: string, name: string}} credential
 * @param {{id: string, name: string}} slackCredential
 * @param {{appId: string, pageId: string}} form
 */
function firstLeadWorkflow(credential, slackCredential, form) {
	const [trigger] = newInquiryWorkflow(credential, form).nodes;
	return {
		name: 'My first lead workflow',
		nodes: [
			{ ...trigger, name: 'App Builder Trigger' },
			{
				id: 'slack',
				name: 'Send a message',
				type: 'n8n-nodes-base.slack',
				typeVersion: 2.3,
				position: [250, 0],
				webhookId: 'e2e-first-lead-slack',
				parameters: {
					resource: 'message',
					operation: 'post',
					select: 'channel',
					channelId: { __rl: true, mode: 'name', value: '#sales' },
					text: '=New lead: {{ $json.name }} ({{ $json.email }})',
					otherOptions: {},
				},
				credentials: { slackApi: slackCredential },
			},
		],
		connections: chain(['App Builder Trigger', 'Send a message']),
	};
}

/**
 * Workflow C: n8n's HTTP Request node calls a Connect endpoint with the App Builder API credential.
 * @param {{id: string, name: string}} credential
 * @param {string} url
 */
function connectCallWorkflow(credential, url) {
	return {
		name: 'E2E C: Connect call',
		nodes: [
			webhookNode('appbuilder-connect'),
			{
				id: 'http',
				name: 'Connect Profile',
				type: 'n8n-nodes-base.httpRequest',
				typeVersion: 4.2,
				position: [250, 0],
				parameters: {
					url,
					authentication: 'predefinedCredentialType',
					nodeCredentialType: 'appBuilderApi',
					options: {},
				},
				credentials: { appBuilderApi: credential },
			},
		],
		connections: chain(['Webhook', 'Connect Profile']),
	};
}

/**
 * A parameter the model fills in: n8n turns each $fromAI() into a field of the tool's input schema.
 * @param {string} key
 * @param {string} description
 */
function fromAI(key, description) {
	return `={{ $fromAI('${key}', \`${description}\`, 'string') }}`;
}

/**
 * An MCP Server Trigger without authentication at <n8n>/mcp/<path>.
 * @param {string} id
 * @param {string} path
 */
function mcpServerTrigger(id, path) {
	return {
		id,
		name: 'MCP Server Trigger',
		type: MCP_TRIGGER,
		typeVersion: 2,
		position: [250, 0],
		webhookId: `e2e-${path}`,
		parameters: { authentication: 'none', path },
	};
}

/**
 * Workflow D: an MCP Server Trigger offering App Builder as three tools, one
 * per operation, with what varies per call left to the model ($fromAI).
 * @param {{id: string, name: string}} credential
 * @param {{appId: string}} app
 * @param {string} path the MCP endpoint is <n8n>/mcp/<path>
 */
function mcpToolWorkflow(credential, app, path) {
	const email = fromAI('email', "The app user's email address, such as jane@example.com");
	const name = fromAI('name', "The app user's full name");
	const password = fromAI('password', "The app user's password");
	const phone = fromAI('phone', 'The phone number as digits only, such as 4155550132');
	/**
	 * @param {string} nodeName
	 * @param {number} x
	 * @param {Record<string, unknown>} parameters
	 */
	const tool = (nodeName, x, parameters) => ({
		...appBuilderNode(nodeName, x, parameters, credential),
		type: APP_BUILDER_TOOL,
		position: [x, 220],
	});
	const toTrigger = { ai_tool: [[{ node: 'MCP Server Trigger', type: 'ai_tool', index: 0 }]] };
	return {
		name: 'App Builder tools for AI agents',
		nodes: [
			mcpServerTrigger('mcp-trigger', path),
			tool('Add app user', 0, {
				resource: 'user',
				operation: 'add',
				email,
				name,
				password,
				passwordFormat: 'hashInN8n',
				phone,
				additionalFields: {},
			}),
			tool('Update app user', 250, {
				resource: 'user',
				operation: 'update',
				email: fromAI('email', 'The email address of the app user to update'),
				name,
				password,
				passwordFormat: 'hashInN8n',
				phone,
				phoneFormat: 'integer',
				group: fromAI('group', 'The user group to put the user in, such as Customers'),
				additionalFields: {},
			}),
			tool('Get form inquiries', 500, {
				resource: 'inquiry',
				operation: 'getAll',
				appId: app.appId,
				pageId: {
					__rl: true,
					mode: 'id',
					value: fromAI(
						'formId',
						'The form page ID: formbuilder_<digits>_<digits>, such as formbuilder_1001_1',
					),
				},
				filters: {},
			}),
		],
		connections: {
			'Add app user': toTrigger,
			'Update app user': toTrigger,
			'Get form inquiries': toTrigger,
		},
	};
}

/**
 * An MCP Server Trigger offering one tool that reads every form of the app:
 * the question "which leads came in since ...?" asked across forms, with the
 * date left to the model.
 * @param {{id: string, name: string}} credential
 * @param {{appId: string}} app
 * @param {string} path the MCP endpoint is <n8n>/mcp/<path>
 */
function mcpAcrossFormsWorkflow(credential, app, path) {
	return {
		name: 'App Builder leads of every form for AI agents',
		nodes: [
			mcpServerTrigger('mcp-trigger-all-forms', path),
			{
				...appBuilderNode(
					'Leads of every form',
					0,
					{
						resource: 'inquiry',
						operation: 'getAll',
						appId: app.appId,
						readFrom: 'allForms',
						filters: {
							submittedAfter: fromAI(
								'since',
								'Only leads submitted after this moment, as an ISO date and time such as 2026-02-01T00:00:00Z',
							),
						},
					},
					credential,
				),
				type: APP_BUILDER_TOOL,
				position: [0, 220],
			},
		],
		connections: {
			'Leads of every form': {
				ai_tool: [[{ node: 'MCP Server Trigger', type: 'ai_tool', index: 0 }]],
			},
		},
	};
}

/**
 * The workflow with its trigger's (New Inquiry's) options set to `options`.
 * @template {{nodes: Array<{name: string, parameters: Record<string, unknown>}>}} W
 * @param {W} workflow
 * @param {Record<string, unknown>} options
 * @returns {W}
 */
function withTriggerOptions(workflow, options) {
	return {
		...workflow,
		nodes: workflow.nodes.map((node) =>
			node.name === 'New Inquiry' ? { ...node, parameters: { ...node.parameters, options } } : node,
		),
	};
}

module.exports = {
	withTriggerOptions,
	mcpToolWorkflow,
	mcpAcrossFormsWorkflow,
	APP_BUILDER_TOOL,
	userLifecycleWorkflow,
	newInquiryWorkflow,
	firstLeadWorkflow,
	connectCallWorkflow,
	POLL_EVERY_MINUTE,
	APP_BUILDER,
	APP_BUILDER_TRIGGER,
};
