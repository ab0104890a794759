import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { OPTIONS } from '../descriptions/optionsCollection';
import { readTimeoutMs } from '../descriptions/timeoutOption';
import { asNodeError } from '../transport/asNodeError';
import { wholeNumberFrom } from '../parameters/parameterValues';
import { fieldOf, readParameter } from '../parameters/readParameter';
import { errorItem } from './errorItem';
import { inquiryResource } from './inquiry/Inquiry.resource';
import { pipelineItems } from './itemPipeline';
import type { OperationModule, Resource } from './resource';
import { userResource } from './user/User.resource';

/**
 * The node's resources, in the order the node lists their fields. A new operation is
 * registered in its resource file.
 */
export const RESOURCES: readonly Resource[] = [userResource, inquiryResource];

const MAX_CONCURRENCY = 50;

/** Options > Concurrency: how many items are in flight at once. */
export const concurrencyOption: INodeProperties = {
	displayName: 'Concurrency',
	name: 'concurrency',
	type: 'number',
	typeOptions: { minValue: 1, maxValue: MAX_CONCURRENCY },
	default: 5,
	description:
		'How many items are sent to the App Builder API at the same time. Lower it if the API answers "too many requests".',
};
const CONCURRENCY = fieldOf(concurrencyOption, OPTIONS);

/**
 * Runs the chosen operation once per input item, several requests at a time,
 * keeping output in input order with pairedItem on every item. With
 * "Continue On Fail" a failing item becomes an error item and the rest go on.
 */
export async function route(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	const items = this.getInputData();
	const resource = this.getNodeParameter('resource', 0) as string;
	const operation = this.getNodeParameter('operation', 0) as string;
	const chosen = operationModule(resource, operation);
	if (!chosen) {
		throw new NodeOperationError(
			this.getNode(),
			`The operation "${operation}" of "${resource}" is not supported`,
		);
	}
	// Read once, for the first item. A value that is not a whole number is an error, not a fallback:
	// NaN here would send nothing at all.
	const concurrency = readParameter(
		this,
		CONCURRENCY,
		(value) => wholeNumberFrom(value, { min: 1, max: MAX_CONCURRENCY }),
		0,
	);
	const answerTimeoutMs = readTimeoutMs(this, 0);

	const perItem = await pipelineItems(items.length, concurrency, {
		prepare: (itemIndex) => chosen.prepare.call(this, itemIndex),
		send: async (prepared, itemIndex) =>
			await chosen.send.call(this, prepared, { itemIndex, answerTimeoutMs }),
		recover: (error, itemIndex) => {
			if (!this.continueOnFail()) throw asNodeError(this.getNode(), error, itemIndex);
			return [errorItem(this.getNode(), error, itemIndex)];
		},
	});
	return [perItem.flat()];
}

function operationModule(resource: string, operation: string): OperationModule | undefined {
	return RESOURCES.find((entry) => entry.value === resource)?.operations.find(
		(entry) => entry.value === operation,
	)?.module;
}
