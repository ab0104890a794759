import { PollContext } from 'n8n-core';
import type {
	IDataObject,
	IHttpRequestOptions,
	INodeCredentials,
	INodeExecutionData,
	INodeParameters,
	INodeType,
	IPollFunctions,
} from 'n8n-workflow';
import { Workflow } from 'n8n-workflow';

import type { MemoryCredentialsHelper } from './credentialsHelper';
import { TestNodeTypes } from './nodeTypes';
import { testAdditionalData } from './runWorkflow';
import { workflowNode } from './workflowNode';

let unnamedWorkflows = 0;

export interface PollOutcome {
	result: INodeExecutionData[][] | null;
	/** The node's static data after the poll, deep-copied as n8n would store it. */
	staticData: IDataObject;
	/** The workflow's whole static data after the poll (global and every node's), deep-copied. */
	workflowStaticData: IDataObject;
	error?: Error & { description?: string; failure?: unknown };
	/** Errors the poll reported through __emitError without failing (n8n records each as a failed execution). */
	emittedErrors: Array<Error & { description?: string; failure?: unknown }>;
}

/**
 * Calls a polling trigger's poll() once through n8n-core's PollContext, as
 * n8n does for an active workflow ("trigger") or for "Fetch Test Event"
 * ("manual"). Either the static data passed in is what
 * getWorkflowStaticData('node') returns (as under n8n's durable poll
 * cursors, keyed by node ID), or the workflow's whole static data is passed
 * and n8n's Workflow keys each node's part by the node's name, as n8n does
 * by default. Tests JSON round-trip it between polls to model n8n storing
 * it and restarting, or pass one object to two polls running at once.
 */
export async function runPoll(options: {
	nodeType: INodeType;
	typeName: string;
	parameters: INodeParameters | IDataObject;
	credentials?: INodeCredentials;
	credentialsHelper: MemoryCredentialsHelper;
	staticData?: IDataObject;
	/** The workflow's static data, for n8n's own keying of node static data by name (ignores staticData). */
	workflowStaticData?: IDataObject;
	/** The trigger node's ID and name (default "trigger" and "Trigger"), and its workflow's ID. */
	node?: { id?: string; name?: string };
	/**
	 * Without one, each poll is of a workflow of its own: the trigger keeps
	 * some memory per trigger in its process (a poll's claim, a failure streak,
	 * the position it handed over), so polls of one trigger share an ID.
	 */
	workflowId?: string;
	mode?: 'trigger' | 'manual';
	/** Only n8n 2.40+ offers getPollBudgetMs(); without this option the context has none. */
	pollBudgetMs?: number;
	/**
	 * Answers the node's HTTP requests in this process instead of n8n's HTTP
	 * client (for a model of the API that thousands of polls must reach
	 * quickly); the answer has the shape n8n's httpRequest returns.
	 */
	httpRequest?: (request: IHttpRequestOptions) => Promise<unknown>;
	/** Takes what the node logs instead of n8n's logger (which writes to the console). */
	logger?: IPollFunctions['logger'];
}): Promise<PollOutcome> {
	const node = workflowNode(options.node?.name ?? 'Trigger', options.typeName, {
		id: options.node?.id ?? 'trigger',
		parameters: options.parameters as INodeParameters,
		credentials: options.credentials,
	});
	const workflow = new Workflow({
		id: options.workflowId ?? `test-workflow-${++unnamedWorkflows}`,
		nodes: [node],
		connections: {},
		nodeTypes: new TestNodeTypes({ [options.typeName]: options.nodeType }),
		active: true,
		staticData: options.workflowStaticData ?? {},
	});
	const byName = options.workflowStaticData !== undefined;
	const staticData: IDataObject = byName
		? workflow.getStaticData('node', node)
		: (options.staticData ?? {});
	const mode = options.mode ?? 'trigger';
	// What the poll reported through n8n's __emitError (a failed execution and the error workflow, in n8n).
	const emittedErrors: Error[] = [];
	const context = new PollContext(
		workflow,
		node,
		testAdditionalData(options.credentialsHelper),
		mode,
		mode === 'manual' ? 'manual' : 'activate',
		() => {
			throw new Error('poll() should return its items, not emit them');
		},
		(error: Error) => {
			emittedErrors.push(error);
		},
		async () => {},
		async <T>(poll: () => Promise<T>) => await poll(),
		() => staticData,
		() => options.pollBudgetMs ?? 0,
	);
	if (options.pollBudgetMs === undefined) {
		delete (context as { getPollBudgetMs?: unknown }).getPollBudgetMs;
	}
	if (options.httpRequest !== undefined) context.helpers.httpRequest = options.httpRequest;
	if (options.logger !== undefined)
		Object.defineProperty(context, 'logger', { value: options.logger });

	const copy = (data: IDataObject) => JSON.parse(JSON.stringify(data)) as IDataObject;
	try {
		const result = await (options.nodeType.poll as NonNullable<INodeType['poll']>).call(context);
		return {
			result,
			staticData: copy(staticData),
			workflowStaticData: copy(workflow.staticData),
			emittedErrors,
		};
	} catch (error) {
		return {
			result: null,
			staticData: copy(staticData),
			workflowStaticData: copy(workflow.staticData),
			emittedErrors,
			error: error as Error,
		};
	}
}
