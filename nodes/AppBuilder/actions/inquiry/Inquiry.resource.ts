import type { Resource } from '../resource';
import * as getMany from './getMany.operation';

/**
 * A form's inquiries, which the editor calls leads as App Builder's users do: each
 * operation's entry in the Operation list, and its file. The value stays `inquiry`,
 * so saved workflows keep working.
 */
export const inquiryResource: Resource = {
	name: 'Lead',
	value: 'inquiry',
	operations: [
		{
			name: 'Get Many',
			value: 'getAll',
			description:
				'Get the leads people submitted through one form of the app, or through all its forms, newest first',
			action: 'Get many leads of one form or every form',
			module: getMany,
		},
	],
};
