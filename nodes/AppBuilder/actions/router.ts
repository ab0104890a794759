import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { asNodeError } from '../helpers/asNodeError';
import { mapWithConcurrency } from '../helpers/mapWithConcurrency';
import * as getManyInquiries from './inquiry/getMany.operation';
import * as addUser from './user/add.operation';
import * as updateUser from './user/update.operation';

type OperationExecute = (this: IExecuteFunctions, itemIndex: number) => Promise<INodeExecutionData[]>;

const OPERATIONS: Record<string, Record<string, OperationExecute>> = {
	user: { add: addUser.execute, update: updateUser.execute },
	inquiry: { getAll: getManyInquiries.execute },
};

export const DEFAULT_CONCURRENCY = 5;

/**
 * Runs the chosen operation once per input item, several items at a time,
 * keeping output in input order with pairedItem on every item. With
 * "Continue On Fail" a failing item becomes an error item and the rest go on.
 */
export async function route(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	const items = this.getInputData();
	const resource = this.getNodeParameter('resource', 0) as string;
	const operation = this.getNodeParameter('operation', 0) as string;
	const execute = OPERATIONS[resource]?.[operation];
	if (!execute) {
		throw new NodeOperationError(this.getNode(), `The operation "${operation}" of "${resource}" is not supported`);
	}
	const concurrency = this.getNodeParameter('options.concurrency', 0, DEFAULT_CONCURRENCY) as number;

	const perItem = await mapWithConcurrency(items.length, Math.max(1, concurrency), async (itemIndex) => {
		try {
			return await execute.call(this, itemIndex);
		} catch (error) {
			if (!this.continueOnFail()) {
				throw asNodeError(this.getNode(), error, itemIndex);
			}
			const message = error instanceof Error ? error.message : String(error);
			const description = (error as { description?: unknown }).description;
			return [
				{
					json: { error: message, ...(typeof description === 'string' ? { errorDescription: description } : {}) },
					pairedItem: { item: itemIndex },
				},
			];
		}
	});
	return [perItem.flat()];
}
