import type {
	IExecuteFunctions,
	INode,
	INodeParameters,
	INodeProperties,
	IPollFunctions,
} from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { ChoiceProperty } from './choices';
import { choiceFrom, type Checked } from './parameterValues';

// Every parameter of both nodes is read here, from its declaration: the path, the default and the
// allowed values come from the property the editor shows, so none is typed twice and an error names
// the field by its label. n8n's own getNodeParameter is called by string only for the resource and
// operation switch (actions/router.ts); a lint rule keeps it so (eslint.project.config.mjs).

export interface ParameterField {
	/** The name the user sees, e.g. "Limit". */
	label: string;
	/** Where the field sits in the node's parameters, e.g. "options.concurrency". */
	path: string;
	/**
	 * The declared default: the value when the parameter is not set (an
	 * option not added to its collection).
	 */
	default: INodeProperties['default'];
	/** A resource locator, read as the value it holds (n8n's extractValue). */
	locator: boolean;
}

/** An options field: its values, from its declaration (choices.ts). */
export interface ChoiceField<T extends string> extends ParameterField {
	values: readonly T[];
}

/**
 * A declared field as the reader and its errors know it (inside the collection `within`, if any).
 */
export function fieldOf(
	property: Pick<INodeProperties, 'displayName' | 'name' | 'default'> &
		Partial<Pick<INodeProperties, 'type'>>,
	within?: string,
): ParameterField {
	const path = within === undefined ? property.name : `${within}.${property.name}`;
	return {
		label: property.displayName,
		path,
		default: property.default,
		locator: property.type === 'resourceLocator',
	};
}

/** A declared options field (see choices.ts), whose values a read accepts. */
export function choiceFieldOf<T extends string>(
	property: ChoiceProperty<T>,
	within?: string,
): ChoiceField<T> {
	return { ...fieldOf(property, within), values: property.options.map((option) => option.value) };
}

/** Where a parameter is read: a node run (per item) or a trigger's poll. */
export type ParameterContext = IExecuteFunctions | IPollFunctions;

/**
 * The item a parameter is read for: one in a node run; none in a poll, whose
 * parameters hold for all of it.
 */
export type ItemOf<C extends ParameterContext> = C extends IExecuteFunctions
	? [itemIndex: number]
	: [];

/**
 * Reads a parameter and checks it, e.g.
 * `readParameter(this, LIMIT, (value) => wholeNumberFrom(value, { min: 1 }), itemIndex)`.
 * The declared default is used only when the parameter is not set at all.
 */
export function readParameter<C extends ParameterContext, T>(
	context: C,
	field: ParameterField,
	check: (value: unknown) => Checked<T>,
	...item: ItemOf<C>
): T {
	const [itemIndex] = item as [number?];
	const checked = check(
		itemIndex === undefined
			? (context as IPollFunctions).getNodeParameter(field.path, field.default, readOptions(field))
			: itemValue(context as IExecuteFunctions, field, itemIndex),
	);
	// The node (a deep copy in n8n) is taken only for the error, which names it.
	return checked.ok
		? checked.value
		: checkedParameter(context.getNode(), field, checked, itemIndex);
}

/** An options field's value, which must be one of its declared values (see choiceFrom). */
export function readChoice<C extends ParameterContext, T extends string>(
	context: C,
	field: ChoiceField<T>,
	...item: ItemOf<C>
): T {
	return readParameter(context, field, (value) => choiceFrom(value, field.values), ...item);
}

function readOptions(field: ParameterField): { extractValue: true } | undefined {
	return field.locator ? { extractValue: true } : undefined;
}

/** What a node run has read of its parameters that holds for every item. */
interface RunParameters {
	parameters: INodeParameters;
	fixed: Map<string, { default: unknown; value: unknown }>;
}

const parametersOfRun = new WeakMap<IExecuteFunctions, RunParameters>();

/**
 * The parameter's value for the item. One that holds no expression is the
 * same for every item, so it is read once per node run: over a thousand
 * items, each read costs n8n a copy and a check of it. The check of the
 * value still runs per item, so an error names its item.
 */
function itemValue(context: IExecuteFunctions, field: ParameterField, itemIndex: number): unknown {
	let run = parametersOfRun.get(context);
	if (!run) {
		run = { parameters: context.getNode().parameters, fixed: new Map() };
		parametersOfRun.set(context, run);
	}
	const read = () =>
		context.getNodeParameter(field.path, itemIndex, field.default, readOptions(field));
	if (holdsExpression(run.parameters, field.path)) return read();
	// Two declarations may share a path with defaults of their own (Limit, and
	// Limit for an AI agent's tool).
	const known = run.fixed.get(field.path);
	if (known && Object.is(known.default, field.default)) return known.value;
	const value = read();
	run.fixed.set(field.path, { default: field.default, value });
	return value;
}

/**
 * The checked value, or an error naming the field, the item and what it was
 * given. Said of the expression when the field is one, since that is what
 * the user has to change.
 */
export function checkedParameter<T>(
	node: INode,
	field: Pick<ParameterField, 'label' | 'path'>,
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

/**
 * The value at `path`, or the first text met on the way there (a parameter holding it that is
 * an expression or a plain value).
 */
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

/**
 * Whether the parameter at `path`, or a parameter holding it, is an
 * expression ("=..."); for a resource locator, the value it holds.
 */
function isExpression(node: INode, path: string): boolean {
	const value = parameterAt(node.parameters, path);
	return isExpressionText(isResourceLocator(value) ? value.value : value);
}

function isResourceLocator(value: unknown): value is { value: unknown } {
	return typeof value === 'object' && value !== null && (value as { __rl?: unknown }).__rl === true;
}
