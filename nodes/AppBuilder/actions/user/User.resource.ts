import type { Resource } from '../resource';
import * as add from './add.operation';
import * as update from './update.operation';

/** App users: each operation's entry in the Operation list, and its file. */
export const userResource: Resource = {
	name: 'User',
	value: 'user',
	operations: [
		{ name: 'Add', value: 'add', description: 'Register a new app user', action: 'Add a user', module: add },
		{ name: 'Update', value: 'update', description: 'Change the details of an app user', action: 'Update a user', module: update },
	],
};
