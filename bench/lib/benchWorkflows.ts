/* eslint-disable @n8n/community-nodes/no-restricted-globals -- n8n Cloud's limits are for nodes; this runs on Node itself (timers, process, built-in modules) */
/**
 * The workflows the benchmark imports into a real n8n: the package's own
 * nodes, and the same jobs built from n8n's built-in nodes, which is what a
 * user builds without this package.
 */
import { FIXTURE } from '../../test/emulator';

const { APP_BUILDER, APP_BUILDER_TRIGGER } =
	// eslint-disable-next-line @typescript-eslint/no-require-imports -- the e2e helpers are CommonJS JavaScript, typed through typeof import
	require('../../test/e2e/workflows') as typeof import('../../test/e2e/workflows');

/** The trigger's node type, as n8n names it in its poll metrics. */
export const TRIGGER_NODE_TYPE: string = APP_BUILDER_TRIGGER;

type Credential = { id: string; name: string };
interface WorkflowNode {
	id: string;
	name: string;
	type: string;
	typeVersion: number;
	position: [number, number];
	parameters: Record<string, unknown>;
	credentials?: Record<string, Credential>;
	webhookId?: string;
	retryOnFail?: boolean;
	maxTries?: number;
	waitBetweenTries?: number;
	onError?: string;
}
export interface BenchWorkflow {
	name: string;
	nodes: WorkflowNode[];
	connections: Record<string, unknown>;
}

const form = { appId: FIXTURE.appId, pageId: FIXTURE.formPageId };

function node(
	name: string,
	type: string,
	typeVersion: number,
	parameters: Record<string, unknown>,
	extra: Partial<WorkflowNode> = {},
): WorkflowNode {
	return {
		id: name.toLowerCase().replace(/\W+/g, '-'),
		name,
		type,
		typeVersion,
		position: [0, 0],
		parameters,
		...extra,
	};
}

function chained(name: string, nodes: WorkflowNode[]): BenchWorkflow {
	const connections: Record<string, unknown> = {};
	nodes.forEach((current, index) => {
		current.position = [index * 220, 0];
		const next = nodes[index + 1];
		if (next) connections[current.name] = { main: [[{ node: next.name, type: 'main', index: 0 }]] };
	});
	return { name, nodes, connections };
}

/**
 * Once a minute on a given second: what n8n makes of "Every Minute" (a random
 * second it picks), with the second chosen here so the benchmark knows each
 * poll's tick.
 */
const everyMinuteOn = (second: number) => ({
	item: [{ mode: 'custom', cronExpression: `${second} * * * * *` }],
});

/**
 * Ours: the App Builder Trigger emits each new inquiry, already flattened.
 * It polls the benchmark's form every minute on `cronSecond`; the scaling
 * benchmark gives each trigger a form of its own (`pageId`) and a number.
 */
export function triggerWorkflow(
	credential: Credential,
	poll: { cronSecond: number; pageId?: string; index?: number },
): BenchWorkflow {
	return chained(
		poll.index === undefined
			? 'Bench: App Builder Trigger'
			: `Bench scale: App Builder Trigger ${poll.index}`,
		[
			node(
				'New Inquiry',
				APP_BUILDER_TRIGGER,
				1,
				{
					pollTimes: everyMinuteOn(poll.cronSecond),
					event: 'new',
					appId: form.appId,
					pageId: { __rl: true, mode: 'id', value: poll.pageId ?? form.pageId },
					simplify: true,
					options: {},
				},
				{ credentials: { appBuilderApi: credential } },
			),
			node('Received', 'n8n-nodes-base.noOp', 1, {}),
		],
	);
}

/** Where the benchmark's own trivial trigger lives; n8n loads it through N8N_CUSTOM_EXTENSIONS. */
export const TRIVIAL_TRIGGER_DIR = `${__dirname}/trivialTrigger`;
export const TRIVIAL_TRIGGER_NAME = 'Trivial Trigger';
/** Its node type, as n8n names it in its poll metrics. */
export const TRIVIAL_TRIGGER_TYPE = 'CUSTOM.benchTrivialTrigger';

/**
 * n8n's own floor for a poll cycle: a trigger that returns 10 fixed items,
 * polled once a minute like ours (on a second chosen here, so the benchmark
 * need not wait for a random one), and the same No Operation node. With
 * `stateBytes`, the trigger also replaces that much static data on each poll.
 */
/** An answer the trivial trigger receives on every poll, through n8n's HTTP helper, counting its bytes. */
export interface AnswerToReceive {
	url: string;
	request: Record<string, unknown>;
	headers: Record<string, string>;
}

export function trivialTriggerWorkflow(
	cronSecond: number,
	stateBytes = 0,
	receive?: AnswerToReceive,
): BenchWorkflow {
	return chained(
		`Bench: trivial polling trigger${stateBytes > 0 ? `, ${stateBytes} B of state` : ''}${receive ? ', receiving an answer' : ''}`,
		[
			node(TRIVIAL_TRIGGER_NAME, TRIVIAL_TRIGGER_TYPE, 1, {
				pollTimes: everyMinuteOn(cronSecond),
				stateBytes,
				...(receive
					? {
							answerUrl: receive.url,
							answerRequest: JSON.stringify(receive.request),
							answerHeaders: JSON.stringify(receive.headers),
						}
					: {}),
			}),
			node('Received', 'n8n-nodes-base.noOp', 1, {}),
		],
	);
}

/** Flattening as a user writes it in a Code node: the fields of formbuilderData by name. */
const FLATTEN_CODE = `return $input.all().map((item) => {
  const record = item.json;
  const lead = { inquiryId: record._id, formName: record.formName, submittedAt: new Date(Number(record.addedon) * 1000).toISOString() };
  for (const field of JSON.parse(record.formbuilderData || '[]')) lead[field.fieldName] = field.fieldValue;
  return { json: lead };
});`;

export const PEER_FETCH_NODE = 'Get Inquiries';

/** The peer's request: n8n's HTTP Request node reading the whole form with the same credential. */
function getInquiriesNode(
	credential: Credential,
	webUrl: string,
	pageId: string = form.pageId,
): WorkflowNode {
	return node(
		PEER_FETCH_NODE,
		'n8n-nodes-base.httpRequest',
		4.2,
		{
			method: 'POST',
			url: `${webUrl}/V4/webservices/FormBuilderApi.php`,
			authentication: 'predefinedCredentialType',
			nodeCredentialType: 'appBuilderApi',
			sendBody: true,
			specifyBody: 'json',
			jsonBody: JSON.stringify({ method: 'formBuilderInquiries', appId: form.appId, pageId }),
			options: {},
		},
		{ credentials: { appBuilderApi: credential } },
	);
}

/** The peer's HTTP Request node alone, run on a webhook call: its own time is what n8n records for it. */
export function peerFetchWorkflow(
	credential: Credential,
	webUrl: string,
	path: string,
): BenchWorkflow {
	return chained("Bench: the peer's HTTP Request node", [
		webhookTrigger(path),
		getInquiriesNode(credential, webUrl),
	]);
}

/**
 * The peer: Schedule Trigger → HTTP Request → Split Out → Remove Duplicates
 * ("Remove Items Processed in Previous Executions" by _id, with n8n's
 * default history of 10,000 or the size given) → Code (flatten). It runs
 * every `everySeconds`, or for the scaling benchmark once a minute on a
 * second of its own, on a form of its own.
 */
export function peerPollWorkflow(
	credential: Credential,
	webUrl: string,
	everySeconds: number,
	historySize?: number,
	scale?: { pageId: string; cronSecond: number; index: number },
): BenchWorkflow {
	const interval = scale
		? { field: 'cronExpression', expression: `${scale.cronSecond} * * * * *` }
		: { field: 'seconds', secondsInterval: everySeconds };
	return chained(scale ? `Bench scale: peer ${scale.index}` : 'Bench: peer built from n8n nodes', [
		node('Schedule Trigger', 'n8n-nodes-base.scheduleTrigger', 1.2, {
			rule: { interval: [interval] },
		}),
		getInquiriesNode(credential, webUrl, scale?.pageId),
		node('Split Out', 'n8n-nodes-base.splitOut', 1, {
			fieldToSplitOut: 'data',
			include: 'noOtherFields',
			options: {},
		}),
		node('Remove Duplicates', 'n8n-nodes-base.removeDuplicates', 2, {
			operation: 'removeItemsSeenInPreviousExecutions',
			logic: 'removeItemsWithAlreadySeenKeyValues',
			dedupeValue: '={{ $json._id }}',
			options: historySize ? { historySize } : {},
		}),
		node('Flatten', 'n8n-nodes-base.code', 2, {
			mode: 'runOnceForAllItems',
			language: 'javaScript',
			jsCode: FLATTEN_CODE,
		}),
	]);
}

function webhookTrigger(path: string): WorkflowNode {
	return node(
		'Webhook',
		'n8n-nodes-base.webhook',
		2,
		{ httpMethod: 'POST', path, responseMode: 'onReceived', options: {} },
		{ webhookId: `bench-${path}` },
	);
}

const splitPeople = () =>
	node('Split Out', 'n8n-nodes-base.splitOut', 1, {
		fieldToSplitOut: 'body.people',
		include: 'noOtherFields',
		options: {},
	});

/** Ours: a webhook receives people, App Builder adds each as an app user. */
export function addUserWorkflow(
	credential: Credential,
	path: string,
	concurrency: number,
): BenchWorkflow {
	return chained(`Bench: App Builder Add User x${concurrency}`, [
		webhookTrigger(path),
		splitPeople(),
		node(
			'Add User',
			APP_BUILDER,
			1,
			{
				resource: 'user',
				operation: 'add',
				email: '={{ $json.email }}',
				name: '={{ $json.name }}',
				password: '={{ $json.password }}',
				passwordFormat: 'hashInN8n',
				phone: '={{ $json.phone }}',
				additionalFields: {},
				options: { concurrency },
			},
			{ credentials: { appBuilderApi: credential } },
		),
	]);
}

export interface HttpRequestSettings {
	/**
	 * n8n's Batching option: send `items` requests, then wait `intervalMs`.
	 * Without it every item's request goes out at once, n8n's default.
	 */
	batching?: { items: number; intervalMs: number };
	/**
	 * n8n's node setting "Retry On Fail" (5 tries, 5 s apart, its longest
	 * wait) with On Error left at "Stop Workflow": a failed node runs again
	 * for all its items. Otherwise On Error is "Continue", so each failed
	 * item is counted.
	 */
	retryOnFail?: boolean;
}

/** The peer: the same calls by n8n's HTTP Request node with the same credential. */
export function httpRequestAddUserWorkflow(
	credential: Credential,
	webUrl: string,
	path: string,
	settings: HttpRequestSettings,
): BenchWorkflow {
	const body = `={{ JSON.stringify({ method: 'addUser', apiKey: '${FIXTURE.apiKey}', name: $json.name, email: $json.email, password: $json.password, phone: $json.phone, passwordType: '', group: '', status: '' }) }}`;
	return chained('Bench: HTTP Request addUser', [
		webhookTrigger(path),
		splitPeople(),
		node(
			'Add User',
			'n8n-nodes-base.httpRequest',
			4.2,
			{
				method: 'POST',
				url: `${webUrl}/V4/webservices/addUser.php`,
				authentication: 'predefinedCredentialType',
				nodeCredentialType: 'appBuilderApi',
				sendBody: true,
				specifyBody: 'json',
				jsonBody: body,
				options: settings.batching
					? {
							batching: {
								batch: {
									batchSize: settings.batching.items,
									batchInterval: settings.batching.intervalMs,
								},
							},
						}
					: {},
			},
			{
				credentials: { appBuilderApi: credential },
				...(settings.retryOnFail
					? { retryOnFail: true, maxTries: 5, waitBetweenTries: 5000 }
					: { onError: 'continueRegularOutput' }),
			},
		),
	]);
}
