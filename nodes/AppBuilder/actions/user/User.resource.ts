import type { Resource } from '../resource';
import * as add from './add.operation';
import * as update from './update.operation';

/** App users: each operation's entry in the Operation list, and its file. */
export const userResource: Resource = {
	name: 'User',
	value: 'user',
	operations: [
		{
			name: 'Add',
			value: 'add',
			description:
				'Register a new user who can log in to the app, with name, email, password and phone',
			action: 'Add an app user',
			module: add,
		},
		{
			name: 'Update',
			value: 'update',
			description:
				'Change the name, phone, group, password or status of an app user, found by email',
			action: 'Update an app user',
			module: update,
		},
	],
};
