import type { IDataObject } from 'n8n-workflow';

import { AppBuilderApi } from '../../credentials/AppBuilderApi.credentials';
import { credentialDataFor, FIXTURE } from '../emulator';
import { MemoryCredentialsHelper, runNode, runPoll } from '../harness';
import { AppBuilder, AppBuilderTrigger } from './nodeClasses';
import { webServiceCallerNode } from './webServiceCallerNode';
import type { Emulator } from './useEmulator';

/** The fixture's form, as the Form picker stores it when given by ID. */
export const FIXTURE_FORM = { __rl: true, mode: 'id', value: FIXTURE.formPageId };

/** Parameters of each operation as a user fills them in; `extra` overrides any of them. */
export const addUserParameters = (extra: IDataObject = {}): IDataObject => ({
	resource: 'user',
	operation: 'add',
	email: 'jane@example.com',
	name: 'Jane Doe',
	password: 'Secr3t-pass',
	passwordFormat: 'plain',
	phone: '5551234567',
	additionalFields: {},
	...extra,
});

export const updateUserParameters = (extra: IDataObject = {}): IDataObject => ({
	resource: 'user',
	operation: 'update',
	email: 'jane@example.com',
	name: 'Jane Smith',
	password: 'Secr3t-pass',
	passwordFormat: 'plain',
	phone: '555 123 9999',
	phoneFormat: 'integer',
	group: 'Gold',
	additionalFields: {},
	...extra,
});

export const getManyParameters = (extra: IDataObject = {}): IDataObject => ({
	resource: 'inquiry',
	operation: 'getAll',
	appId: FIXTURE.appId,
	pageId: FIXTURE_FORM,
	returnAll: true,
	simplify: true,
	filters: {},
	...extra,
});

export const triggerParameters = (extra: IDataObject = {}): IDataObject => ({
	event: 'new',
	appId: FIXTURE.appId,
	pageId: FIXTURE_FORM,
	simplify: true,
	options: {},
	...extra,
});

/** The App Builder API credential pointing at the emulator (web services only unless overridden). */
export function appBuilderCredentials(
	emulator: Pick<Emulator, 'webUrl' | 'connectUrl'>,
	overrides: IDataObject = {},
): MemoryCredentialsHelper {
	return new MemoryCredentialsHelper({
		types: { appBuilderApi: new AppBuilderApi() },
		credentials: {
			appBuilderApi: { ...credentialDataFor(emulator), connectAccessToken: '', ...overrides },
		},
	});
}

const CREDENTIAL_REFERENCE = { appBuilderApi: { id: '1', name: 'App Builder' } };

/** The App Builder node run once through n8n's engine. */
export async function runAppBuilder(
	credentialsHelper: MemoryCredentialsHelper,
	parameters: IDataObject,
	options: { inputItems?: IDataObject[]; continueOnFail?: boolean; timezone?: string } = {},
) {
	return await runNode({
		nodeType: new AppBuilder(),
		typeName: 'n8n-nodes-appbuilder.appBuilder',
		parameters,
		credentials: CREDENTIAL_REFERENCE,
		inputItems: options.inputItems,
		credentialsHelper,
		continueOnFail: options.continueOnFail,
		timezone: options.timezone,
	});
}

/** One poll of the App Builder Trigger through n8n-core's PollContext. */
export async function pollAppBuilderTrigger(
	credentialsHelper: MemoryCredentialsHelper,
	parameters: IDataObject,
	extra: Pick<
		Parameters<typeof runPoll>[0],
		| 'staticData'
		| 'workflowStaticData'
		| 'node'
		| 'workflowId'
		| 'pollBudgetMs'
		| 'mode'
		| 'httpRequest'
		| 'logger'
	> = {},
) {
	return await runPoll({
		nodeType: new AppBuilderTrigger(),
		typeName: 'n8n-nodes-appbuilder.appBuilderTrigger',
		parameters,
		credentials: CREDENTIAL_REFERENCE,
		credentialsHelper,
		...extra,
	});
}

/** One Add User call made with the given retry policy (test/support/webServiceCallerNode.ts), against the emulator or `baseUrl`. */
export async function addUserWithRetryPolicy(
	emulator: Pick<Emulator, 'webUrl' | 'connectUrl'>,
	retry: IDataObject,
	baseUrl?: string,
) {
	return await runNode({
		nodeType: webServiceCallerNode,
		typeName: 'test.webServiceCaller',
		parameters: {
			endpoint: 'addUser',
			params: JSON.stringify({
				email: 'jane@example.com',
				name: 'Jane',
				password: 'Secr3t-pass',
				phone: '5551234567',
				group: '',
				status: '',
			}),
			retry: JSON.stringify(retry),
		},
		credentials: CREDENTIAL_REFERENCE,
		credentialsHelper: appBuilderCredentials(emulator, baseUrl === undefined ? {} : { baseUrl }),
	});
}

/** Add User as a user fills it in, sent to the server at `baseUrl` in place of the API. */
export async function addUserAt(emulator: Emulator, baseUrl: string) {
	return await runAppBuilder(appBuilderCredentials(emulator, { baseUrl }), addUserParameters());
}

/** One trigger poll against the server at `baseUrl` in place of the API. */
export async function pollTriggerAt(
	emulator: Emulator,
	baseUrl: string,
	extra: Parameters<typeof pollAppBuilderTrigger>[2] = {},
) {
	return await pollAppBuilderTrigger(
		appBuilderCredentials(emulator, { baseUrl }),
		triggerParameters(),
		extra,
	);
}
