export { MemoryCredentialsHelper } from './credentialsHelper';
export { ItemsSourceNode, TestNodeTypes } from './nodeTypes';
export {
	runNode,
	runWorkflow,
	testAdditionalData,
	type NodeRun,
	type WorkflowRun,
} from './runWorkflow';
export { runPoll, type PollOutcome } from './runPoll';
