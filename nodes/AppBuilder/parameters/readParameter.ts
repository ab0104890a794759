import type { IExecuteFunctions, INode } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { choiceFrom, type Checked } from './parameterValues';

export interface ParameterField {
	/** The name the user sees, e.g. "Limit". */
	label: string;
	/** Where the field sits in the node's parameters, e.g. "options.concurrency". */
	path: string;
}

/**
 * Reads one item's parameter and checks it, e.g.
 * `readParameter(this, LIMIT, itemIndex, 50, (value) => wholeNumberFrom(value, { min: 1 }))`.
 * The fallback is used only when the parameter is not set at all.
 */
export function readParameter<T>(
	context: IExecuteFunctions,
	field: ParameterField,
	itemIndex: number,
	fallback: unknown,
	check: (value: unknown) => Checked<T>,
): T {
	const value = context.getNodeParameter(field.path, itemIndex, fallback);
	return checkedParameter(context.getNode(), field, check(value), itemIndex);
}

/** An options field's value, which must be one of `choices` (see choiceFrom). */
export function readChoice<T extends string>(
	context: IExecuteFunctions,
	field: ParameterField,
	itemIndex: number,
	fallback: T,
	choices: readonly T[],
): T {
	return readParameter(context, field, itemIndex, fallback, (value) => choiceFrom(value, choices));
}

/**
 * The checked value, or an error naming the field, the item and what it was
 * given. Said of the expression when the field is one, since that is what
 * the user has to change.
 */
export function checkedParameter<T>(node: INode, field: ParameterField, checked: Checked<T>, itemIndex?: number): T {
	if ('value' in checked) return checked.value;
	const item = itemIndex === undefined ? '' : ` [item ${itemIndex}]`;
	const forItem = itemIndex === undefined ? '' : ' for this item';
	const source = isExpression(node, field.path) ? 'the expression gave' : 'it is';
	throw new NodeOperationError(node, `${field.label} must be ${checked.expected}, but ${source} ${checked.given}${item}`, {
		itemIndex,
		description: `Set ${field.label} to ${checked.expected}. If it comes from an expression, check what it gives${forItem}: an expression that gives an object or a list must point at the field inside it.`,
	});
}

/** Whether the parameter at `path`, or a parameter holding it, is an expression ("=..."). */
function isExpression(node: INode, path: string): boolean {
	let value: unknown = node.parameters;
	for (const key of path.split('.')) {
		if (typeof value === 'string') break;
		value = typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[key] : undefined;
	}
	return typeof value === 'string' && value.startsWith('=');
}
