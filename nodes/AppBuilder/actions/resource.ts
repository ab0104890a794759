import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import type { WebServiceCallOptions } from '../transport/request';

/** What an item's request is sent with: the item and the node's call options (its Timeout). */
export type ItemCall = WebServiceCallOptions & { itemIndex: number };

/** An operation in two steps: reading and checking an item's parameters, then its request. */
export interface ItemOperation<Prepared> {
	prepare(this: IExecuteFunctions, itemIndex: number): Prepared;
	send(this: IExecuteFunctions, prepared: Prepared, call: ItemCall): Promise<INodeExecutionData[]>;
}

/**
 * An operation file (*.operation.ts): its fields and its two steps. Each has
 * its own prepared shape; the router only passes it from one step to the next,
 * so it is `unknown` here (ItemOperation's methods accept a module's own shape).
 */
export interface OperationModule extends ItemOperation<unknown> {
	description: INodeProperties[];
}

/** One entry of a resource's Operation list, and the operation file behind it. */
export interface ResourceOperation {
	name: string;
	value: string;
	description: string;
	action: string;
	module: OperationModule;
}

/**
 * A resource of the App Builder node: its entry in the Resource list and
 * its operations, in list order.
 */
export interface Resource {
	name: string;
	value: string;
	operations: readonly ResourceOperation[];
}

/** The Resource list, in alphabetical order as n8n lists options. */
export function resourceProperty(
	resources: readonly Resource[],
	defaultValue: string,
): INodeProperties {
	return {
		displayName: 'Resource',
		name: 'resource',
		type: 'options',
		noDataExpression: true,
		options: [...resources]
			.sort((a, b) => a.name.localeCompare(b.name))
			.map(({ name, value }) => ({ name, value })),
		default: defaultValue,
	};
}

/**
 * A resource's Operation list, shown when it is the chosen resource; the
 * first operation is the default.
 */
export function operationProperty(resource: Resource): INodeProperties {
	const firstOperation = resource.operations[0].value;
	return {
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: [resource.value] } },
		options: resource.operations.map(({ name, value, description, action }) => ({
			name,
			value,
			description,
			action,
		})),
		default: firstOperation,
	};
}
