import type { INode, INodeProperties } from 'n8n-workflow';

import { wholeNumberFrom } from '../parameters/parameterValues';
import { checkedParameter, fieldOf } from '../parameters/readParameter';
import { OPTIONS } from './optionsCollection';

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

export const TIMEOUT = fieldOf(timeoutOption, OPTIONS);

/** The Timeout option's value in milliseconds; anything but whole seconds in range is an error naming the option. */
export function timeoutMsFrom(node: INode, value: unknown): number {
	return (
		checkedParameter(node, TIMEOUT, wholeNumberFrom(value, { min: 1, max: MAX_TIMEOUT_SECONDS })) *
		1000
	);
}
