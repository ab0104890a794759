import type { INodeProperties } from 'n8n-workflow';

import { wholeNumberFrom } from '../parameters/parameterValues';
import {
	fieldOf,
	readParameter,
	type ItemOf,
	type ParameterContext,
} from '../parameters/readParameter';
import { OPTIONS } from './optionsCollection';

const DEFAULT_TIMEOUT_SECONDS = 120;
const MAX_TIMEOUT_SECONDS = 3600;

/**
 * Options > Timeout, on both nodes: how long one answer of the API may take,
 * from the request to its last byte.
 */
export const timeoutOption: INodeProperties = {
	displayName: 'Timeout',
	name: 'timeout',
	type: 'number',
	typeOptions: { minValue: 1, maxValue: MAX_TIMEOUT_SECONDS },
	default: DEFAULT_TIMEOUT_SECONDS,
	description:
		'Seconds one answer of the App Builder API may take to arrive in full; a slower answer ends in an error instead of keeping the workflow waiting',
};

const TIMEOUT = fieldOf(timeoutOption, OPTIONS);

/**
 * Options > Timeout in milliseconds; anything but whole seconds in range
 * is an error naming the option.
 */
export function readTimeoutMs<C extends ParameterContext>(context: C, ...item: ItemOf<C>): number {
	const check = (value: unknown) => wholeNumberFrom(value, { min: 1, max: MAX_TIMEOUT_SECONDS });
	return readParameter(context, TIMEOUT, check, ...item) * 1000;
}
