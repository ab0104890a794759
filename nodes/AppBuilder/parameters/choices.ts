import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';

// An options field whose values keep their literal types: the one list of its options gives the
// editor its choices, the reader the values it accepts (readChoice), and the code their type.

/** Options whose values keep their literal types, so a choice read back is typed. */
export function choices<const T extends string>(
	options: Array<INodePropertyOptions & { value: T }>,
): Array<INodePropertyOptions & { value: T }> {
	return options;
}

/** An options field declared with `choices`. */
export type ChoiceProperty<T extends string = string> = Pick<
	INodeProperties,
	'displayName' | 'name' | 'default' | 'type'
> & { options: ReadonlyArray<{ value: T }> };

/**
 * The type of an options field's values, e.g. `ChoiceOf<typeof
 * phoneFormatField>` is 'integer' | 'text'.
 */
export type ChoiceOf<P extends ChoiceProperty> = P['options'][number]['value'];
