import { ExecutionLifecycleHooks, WorkflowExecute } from 'n8n-core';
import type {
	ExecutionError,
	IConnections,
	IDataObject,
	INode,
	INodeCredentials,
	INodeExecutionData,
	INodeParameters,
	INodeType,
	IRun,
	IRunExecutionData,
	IVersionedNodeType,
	IWorkflowExecuteAdditionalData,
	WorkflowExecuteMode,
} from 'n8n-workflow';
import { createRunExecutionData, Workflow } from 'n8n-workflow';

import type { MemoryCredentialsHelper } from './credentialsHelper';
import { itemsSourceNode, TestNodeTypes } from './nodeTypes';
import { workflowNode } from './workflowNode';

export interface WorkflowRun {
	run: IRun;
	outputOf(nodeName: string): INodeExecutionData[];
	errorOf(nodeName: string): ExecutionError | undefined;
}

/**
 * Additional data as n8n's engine needs it to run a workflow in tests; the
 * engine reads only some of these, the rest stay empty.
 */
export function testAdditionalData(
	credentialsHelper: MemoryCredentialsHelper,
	hooks?: ExecutionLifecycleHooks,
): IWorkflowExecuteAdditionalData {
	const base: Partial<IWorkflowExecuteAdditionalData> = {
		credentialsHelper,
		hooks,
		executeWorkflow: async () => {
			throw new Error('sub-workflows are not used in these tests');
		},
		getRunExecutionData: async () => undefined,
		getRuntimeCredential: async () => undefined,
		currentNodeExecutionIndex: 0,
		restApiUrl: 'http://127.0.0.1/rest',
		instanceBaseUrl: 'http://127.0.0.1/',
		formBaseUrl: 'http://127.0.0.1/form',
		formWaitingBaseUrl: 'http://127.0.0.1/formwaiting',
		formTestBaseUrl: 'http://127.0.0.1/formtest',
		webhookBaseUrl: 'http://127.0.0.1/webhook',
		webhookWaitingBaseUrl: 'http://127.0.0.1/webhookwaiting',
		webhookTestBaseUrl: 'http://127.0.0.1/webhooktest',
		mcpBaseUrl: 'http://127.0.0.1/mcp',
		mcpTestBaseUrl: 'http://127.0.0.1/mcptest',
		variables: {},
		logAiEvent: () => {},
		userId: 'test-user',
	};
	return base as IWorkflowExecuteAdditionalData;
}

/** Runs a workflow through n8n-core's WorkflowExecute, the way n8n runs a manual execution. */
export async function runWorkflow(options: {
	nodeTypes: Record<string, INodeType | IVersionedNodeType>;
	nodes: INode[];
	connections: IConnections;
	credentialsHelper: MemoryCredentialsHelper;
	startNodeName: string;
	mode?: WorkflowExecuteMode;
	/** The workflow's time zone (Workflow Settings > Timezone); n8n's default when not given. */
	timezone?: string;
}): Promise<WorkflowRun> {
	const workflow = new Workflow({
		id: 'test-workflow',
		nodes: options.nodes,
		connections: options.connections,
		nodeTypes: new TestNodeTypes(options.nodeTypes),
		active: false,
		staticData: {},
		settings: options.timezone === undefined ? {} : { timezone: options.timezone },
	});
	const mode = options.mode ?? 'manual';
	const hooks = new ExecutionLifecycleHooks(mode, 'test-execution', {
		id: 'test-workflow',
		name: 'Test',
		active: false,
		isArchived: false,
		createdAt: new Date(),
		updatedAt: new Date(),
		nodes: options.nodes,
		connections: options.connections,
		settings: {},
		activeVersionId: null,
	});
	let resolveRun: (run: IRun) => void = () => {};
	const finished = new Promise<IRun>((resolve) => {
		resolveRun = resolve;
	});
	hooks.addHandler('workflowExecuteAfter', (run) => resolveRun(run));

	const startNode = workflow.getNode(options.startNodeName) as INode;
	const runExecutionData: IRunExecutionData = createRunExecutionData({
		executionData: {
			nodeExecutionStack: [{ node: startNode, data: { main: [[{ json: {} }]] }, source: null }],
		},
	});
	const workflowExecute = new WorkflowExecute(
		testAdditionalData(options.credentialsHelper, hooks),
		mode,
		runExecutionData,
	);
	await workflowExecute.processRunExecutionData(workflow);
	const run = await finished;
	const runData = run.data.resultData.runData;
	return {
		run,
		outputOf: (nodeName) => {
			const tasks = runData[nodeName] ?? [];
			return tasks[tasks.length - 1]?.data?.main?.[0] ?? [];
		},
		errorOf: (nodeName) => {
			const tasks = runData[nodeName] ?? [];
			return tasks[tasks.length - 1]?.error;
		},
	};
}

export interface NodeRun extends WorkflowRun {
	items: INodeExecutionData[];
	error: ExecutionError | undefined;
}

/** Runs one node fed by a source of `inputItems`, with the given credentials, through the real engine. */
export async function runNode(options: {
	nodeType: INodeType | IVersionedNodeType;
	typeName: string;
	parameters: INodeParameters | IDataObject;
	credentials?: INodeCredentials;
	inputItems?: IDataObject[];
	credentialsHelper: MemoryCredentialsHelper;
	continueOnFail?: boolean;
	timezone?: string;
}): Promise<NodeRun> {
	const source = workflowNode('Source', 'test.itemsSource', {
		parameters: { items: JSON.stringify(options.inputItems ?? [{}]) },
	});
	const underTest = workflowNode('Under Test', options.typeName, {
		position: [200, 0],
		parameters: options.parameters as INodeParameters,
		credentials: options.credentials,
		...(options.continueOnFail ? { onError: 'continueRegularOutput' as const } : {}),
	});
	const workflowRun = await runWorkflow({
		nodeTypes: { 'test.itemsSource': itemsSourceNode, [options.typeName]: options.nodeType },
		nodes: [source, underTest],
		connections: { Source: { main: [[{ node: 'Under Test', type: 'main', index: 0 }]] } },
		credentialsHelper: options.credentialsHelper,
		startNodeName: 'Source',
		timezone: options.timezone,
	});
	return {
		...workflowRun,
		items: workflowRun.outputOf('Under Test'),
		error: workflowRun.errorOf('Under Test'),
	};
}
