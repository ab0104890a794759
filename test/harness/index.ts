// Before anything runs n8n's engine: its pattern matches must not depend on the machine's speed.
import './regexWithoutClock';

export { MemoryCredentialsHelper } from './credentialsHelper';
export { itemsSourceNode, TestNodeTypes } from './nodeTypes';
export {
	runNode,
	runWorkflow,
	testAdditionalData,
	type NodeRun,
	type WorkflowRun,
} from './runWorkflow';
export { runPoll, type PollOutcome } from './runPoll';
export { testNodeType } from './testNodeType';
