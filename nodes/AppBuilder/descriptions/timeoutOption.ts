import type { IExecuteFunctions, INodeProperties, IPollFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

export const DEFAULT_TIMEOUT_SECONDS = 120;
const MAX_TIMEOUT_SECONDS = 3600;

/** Options > Timeout, on both nodes: how long one answer of the API may take, from the request to its last byte. */
export const timeoutOption: INodeProperties = {
	displayName: 'Timeout',
	name: 'timeout',
	type: 'number',
	typeOptions: { minValue: 1, maxValue: MAX_TIMEOUT_SECONDS },
	default: DEFAULT_TIMEOUT_SECONDS,
	description:
		'Seconds one answer of the App Builder API may take to arrive in full; a slower answer ends in an error instead of keeping the workflow waiting',
};

/** The Timeout option's value in milliseconds; a value that is not a number of seconds within range is an error naming the option. */
export function readTimeoutMs(context: IExecuteFunctions | IPollFunctions, value: unknown): number {
	const seconds = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
	if (typeof seconds !== 'number' || !Number.isFinite(seconds) || seconds < 1 || seconds > MAX_TIMEOUT_SECONDS) {
		throw new NodeOperationError(context.getNode(), 'Options > Timeout must be a number of seconds from 1 to 3600', {
			description: `It is ${JSON.stringify(value) ?? String(value)}. Set it to a number such as ${DEFAULT_TIMEOUT_SECONDS}, or remove the option.`,
		});
	}
	return Math.round(seconds * 1000);
}
