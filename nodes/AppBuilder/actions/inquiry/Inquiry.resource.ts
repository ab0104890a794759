import type { Resource } from '../resource';
import * as getMany from './getMany.operation';

/** A form's inquiries: each operation's entry in the Operation list, and its file. */
export const inquiryResource: Resource = {
	name: 'Inquiry',
	value: 'inquiry',
	operations: [
		{
			name: 'Get Many',
			value: 'getAll',
			description:
				'Get the inquiries (leads) people submitted through one form of the app, or through all its forms, newest first',
			action: 'Get many inquiries of one form or every form',
			module: getMany,
		},
	],
};
