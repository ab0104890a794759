import type { Resource } from '../resource';
import * as getMany from './getMany.operation';

/** A form's inquiries: each operation's entry in the Operation list, and its file. */
export const inquiryResource: Resource = {
	name: 'Inquiry',
	value: 'inquiry',
	operations: [
		{ name: 'Get Many', value: 'getAll', description: 'Get many inquiries of a form', action: 'Get many inquiries', module: getMany },
	],
};
