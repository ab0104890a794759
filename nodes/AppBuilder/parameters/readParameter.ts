import type { IExecuteFunctions, INode, INodeParameters, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { choiceFrom, type Checked } from './parameterValues';

export interface ParameterField {
	/** The name the user sees, e.g. "Limit". */
	label: string;
	/** Where the field sits in the node's parameters, e.g. "options.concurrency". */
	path: string;
}

/** A declared field as errors name it: its label and its path (inside the collection `within`). */
export function fieldOf(
	property: Pick<INodeProperties, 'displayName' | 'name'>,
	within?: string,
): ParameterField {
	const path = within === undefined ? property.name : `${within}.${property.name}`;
	return { label: property.displayName, path };
}

/** The field `name` declared inside the collection `collection` (Filters, Options, Additional Fields). */
export function fieldIn(collection: INodeProperties, name: string): ParameterField {
	const declared = (collection.options ?? []).find(
		(option): option is INodeProperties => 'displayName' in option && option.name === name,
	);
	if (declared === undefined) throw new Error(`${collection.name} declares no field ${name}`);
	return fieldOf(declared, collection.name);
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
	const checked = check(parameterValue(context, field.path, itemIndex, fallback));
	// The node (a deep copy in n8n) is taken only for the error, which names it.
	return checked.ok
		? checked.value
		: checkedParameter(context.getNode(), field, checked, itemIndex);
}

/** What a node run has read of its parameters that holds for every item. */
interface RunParameters {
	parameters: INodeParameters;
	fixed: Map<string, { fallback: unknown; value: unknown }>;
}

const parametersOfRun = new WeakMap<IExecuteFunctions, RunParameters>();

/**
 * The parameter's value for the item. One that holds no expression is the
 * same for every item, so it is read once per node run: over a thousand
 * items, each read costs n8n a copy and a check of it. The check of the
 * value still runs per item, so an error names its item.
 */
function parameterValue(
	context: IExecuteFunctions,
	path: string,
	itemIndex: number,
	fallback: unknown,
): unknown {
	let run = parametersOfRun.get(context);
	if (!run) {
		run = { parameters: context.getNode().parameters, fixed: new Map() };
		parametersOfRun.set(context, run);
	}
	if (holdsExpression(run.parameters, path))
		return context.getNodeParameter(path, itemIndex, fallback);
	const known = run.fixed.get(path);
	if (known && Object.is(known.fallback, fallback)) return known.value;
	const value = context.getNodeParameter(path, itemIndex, fallback);
	run.fixed.set(path, { fallback, value });
	return value;
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
export function checkedParameter<T>(
	node: INode,
	field: ParameterField,
	checked: Checked<T>,
	itemIndex?: number,
): T {
	if (checked.ok) return checked.value;
	const item = itemIndex === undefined ? '' : ` [item ${itemIndex}]`;
	const forItem = itemIndex === undefined ? '' : ' for this item';
	const source = isExpression(node, field.path) ? 'the expression gave' : 'it is';
	throw new NodeOperationError(
		node,
		`${field.label} must be ${checked.expected}, but ${source} ${checked.given}${item}`,
		{
			itemIndex,
			description: `Set ${field.label} to ${checked.expected}. If it comes from an expression, check what it gives${forItem}: an expression that gives an object or a list must point at the field inside it.`,
		},
	);
}

/**
 * Whether the parameter at `path`, a parameter holding it, or anything it
 * holds is an expression ("=..."): then its value may differ from item to item.
 */
export function holdsExpression(parameters: INodeParameters, path: string): boolean {
	// Walked with a list, not recursion: a parameter may nest deeply (fixed collections).
	const pending: unknown[] = [parameterAt(parameters, path)];
	while (pending.length > 0) {
		const member = pending.pop();
		if (isExpressionText(member)) return true;
		if (typeof member === 'object' && member !== null) pending.push(...Object.values(member));
	}
	return false;
}

/** The value at `path`, or the first text met on the way there (a parameter holding it that is an expression or a plain value). */
function parameterAt(parameters: INodeParameters, path: string): unknown {
	let value: unknown = parameters;
	for (const key of path.split('.')) {
		if (typeof value === 'string') break;
		value =
			typeof value === 'object' && value !== null
				? (value as Record<string, unknown>)[key]
				: undefined;
	}
	return value;
}

function isExpressionText(value: unknown): boolean {
	return typeof value === 'string' && value.startsWith('=');
}

/** Whether the parameter at `path`, or a parameter holding it, is an expression ("=..."). */
function isExpression(node: INode, path: string): boolean {
	return isExpressionText(parameterAt(node.parameters, path));
}
