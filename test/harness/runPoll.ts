import { PollContext } from 'n8n-core';
import type {
	IDataObject,
	INode,
	INodeCredentials,
	INodeExecutionData,
	INodeParameters,
	INodeType,
} from 'n8n-workflow';
import { Workflow } from 'n8n-workflow';

import type { MemoryCredentialsHelper } from './credentialsHelper';
import { TestNodeTypes } from './nodeTypes';
import { testAdditionalData } from './runWorkflow';

export interface PollOutcome {
	result: INodeExecutionData[][] | null;
	/** The node's static data after the poll, deep-copied as n8n would store it. */
	staticData: IDataObject;
	error?: Error & { description?: string };
}

/**
 * Calls a polling trigger's poll() once through n8n-core's PollContext, as
 * n8n does for an active workflow ("trigger") or for "Fetch Test Event"
 * ("manual"). The static data passed in is what
 * getWorkflowStaticData('node') returns; tests JSON round-trip it between
 * polls to model n8n storing it and restarting.
 */
export async function runPoll(options: {
	nodeType: INodeType;
	typeName: string;
	parameters: INodeParameters | IDataObject;
	credentials?: INodeCredentials;
	credentialsHelper: MemoryCredentialsHelper;
	staticData?: IDataObject;
	mode?: 'trigger' | 'manual';
	/** Only n8n 2.40+ offers getPollBudgetMs(); without this option the context has none. */
	pollBudgetMs?: number;
}): Promise<PollOutcome> {
	const node: INode = {
		id: 'trigger',
		name: 'Trigger',
		type: options.typeName,
		typeVersion: 1,
		position: [0, 0],
		parameters: options.parameters as INodeParameters,
		credentials: options.credentials,
	};
	const workflow = new Workflow({
		id: 'test-workflow',
		nodes: [node],
		connections: {},
		nodeTypes: new TestNodeTypes({ [options.typeName]: options.nodeType }),
		active: true,
		staticData: {},
	});
	const staticData: IDataObject = options.staticData ?? {};
	const mode = options.mode ?? 'trigger';
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
			throw error;
		},
		async () => {},
		async <T>(poll: () => Promise<T>) => await poll(),
		() => staticData,
		() => options.pollBudgetMs ?? 0,
	);
	if (options.pollBudgetMs === undefined) {
		delete (context as { getPollBudgetMs?: unknown }).getPollBudgetMs;
	}

	try {
		const result = await (options.nodeType.poll as NonNullable<INodeType['poll']>).call(context);
		return { result, staticData: JSON.parse(JSON.stringify(staticData)) as IDataObject };
	} catch (error) {
		return {
			result: null,
			staticData: JSON.parse(JSON.stringify(staticData)) as IDataObject,
			error: error as Error,
		};
	}
}
