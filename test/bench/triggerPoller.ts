import type { IDataObject } from 'n8n-workflow';

import { AppBuilderApi } from '../../credentials/AppBuilderApi.credentials';
import { FIXTURE, credentialDataFor } from '../emulator';
import { MemoryCredentialsHelper, runPoll } from '../harness';

// With the explicit extension: Node's resolver would otherwise find the codex
// file AppBuilderTrigger.node.json before the TypeScript source.
const { AppBuilderTrigger } =
	// eslint-disable-next-line @typescript-eslint/no-require-imports -- an import cannot name the .ts extension
	require('../../nodes/AppBuilder/AppBuilderTrigger.node.ts') as typeof import('../../nodes/AppBuilder/AppBuilderTrigger.node');

/** The App Builder Trigger as n8n runs it (n8n-core's PollContext), with its static data kept between polls. */
let pollers = 0;

export class TriggerPoller {
	staticData: IDataObject = {};

	private readonly helper: MemoryCredentialsHelper;
	/** One workflow per poller: its polls are of one trigger. */
	private readonly workflowId = `bench-trigger-${++pollers}`;

	constructor(
		webUrl: string,
		private readonly pageId: string = FIXTURE.formPageId,
		/** The trigger's Options (for instance the first poll's); none by default. */
		private readonly options: IDataObject = {},
		/** Other parameters, for instance Watch: All Forms of the App. */
		private readonly parameters: IDataObject = {},
	) {
		this.helper = new MemoryCredentialsHelper({
			types: { appBuilderApi: new AppBuilderApi() },
			credentials: {
				appBuilderApi: {
					...credentialDataFor({ webUrl, connectUrl: webUrl }),
					connectAccessToken: '',
				},
			},
		});
	}

	async poll(): Promise<number> {
		const outcome = await runPoll({
			nodeType: new AppBuilderTrigger(),
			typeName: 'n8n-nodes-appbuilder.appBuilderTrigger',
			parameters: {
				event: 'new',
				appId: FIXTURE.appId,
				pageId: { __rl: true, mode: 'id', value: this.pageId },
				simplify: true,
				options: this.options,
				...this.parameters,
			},
			credentials: { appBuilderApi: { id: '1', name: 'App Builder' } },
			credentialsHelper: this.helper,
			staticData: this.staticData,
			workflowId: this.workflowId,
		});
		if (outcome.error) throw outcome.error;
		this.staticData = outcome.staticData;
		return outcome.result?.[0].length ?? 0;
	}

	/** The saved position's size, as n8n stores it. */
	get stateBytes(): number {
		return JSON.stringify(this.staticData.inquiryCursor ?? {}).length;
	}
}
