import type { IDataObject } from 'n8n-workflow';

import { FIXTURE } from '../emulator';
import type { MemoryCredentialsHelper } from '../harness';
import {
	appBuilderCredentials,
	FIXTURE_FORM,
	pollAppBuilderTrigger,
	triggerParameters,
} from '../support/appBuilderRuns';

let pollers = 0;
/** Where n8n keeps a node's static data in its workflow's (Workflow.getStaticData): the harness's node is "Trigger". */
const NODE_STATIC_DATA_KEY = 'node:Trigger';

/** The App Builder Trigger as n8n runs it (n8n-core's PollContext), with its static data kept between polls. */
export class TriggerPoller {
	/**
	 * The workflow's static data, which n8n hands the trigger as it does by
	 * default (an observable object, not the staged copy of durable poll
	 * cursors), so a poll does what it does in n8n.
	 */
	private workflowStaticData: IDataObject = {};

	private readonly credentials: MemoryCredentialsHelper;
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
		this.credentials = appBuilderCredentials({ webUrl, connectUrl: webUrl });
	}

	async poll(): Promise<number> {
		const parameters = triggerParameters({
			pageId: { ...FIXTURE_FORM, value: this.pageId },
			options: this.options,
			...this.parameters,
		});
		const outcome = await pollAppBuilderTrigger(this.credentials, parameters, {
			workflowStaticData: this.workflowStaticData,
			workflowId: this.workflowId,
		});
		if (outcome.error) throw outcome.error;
		this.workflowStaticData = outcome.workflowStaticData;
		return outcome.result?.[0].length ?? 0;
	}

	/** The trigger's own static data (its saved position). */
	get staticData(): IDataObject {
		return (this.workflowStaticData[NODE_STATIC_DATA_KEY] as IDataObject | undefined) ?? {};
	}

	set staticData(data: IDataObject) {
		this.workflowStaticData = { [NODE_STATIC_DATA_KEY]: data };
	}

	/** The saved position's size, as n8n stores it. */
	get stateBytes(): number {
		return JSON.stringify(this.staticData.inquiryCursor ?? {}).length;
	}
}
