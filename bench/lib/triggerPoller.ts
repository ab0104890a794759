import type { IDataObject } from 'n8n-workflow';

import { FIXTURE } from '../../test/emulator';
import type { MemoryCredentialsHelper } from '../../test/harness';
import {
	appBuilderCredentials,
	FIXTURE_FORM,
	pollAppBuilderTrigger,
	triggerParameters,
} from '../../test/support/appBuilderRuns';

let pollers = 0;

/** The App Builder Trigger as n8n runs it (n8n-core's PollContext), with its static data kept between polls. */
export class TriggerPoller {
	/**
	 * The workflow's static data, what n8n saves and reloads for it: handed to
	 * the trigger as n8n does by default (an observable object, not the staged
	 * copy of durable poll cursors), so a poll does what it does in n8n. The
	 * trigger keeps its position there, under its node's ID.
	 */
	staticData: IDataObject = {};

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
			workflowStaticData: this.staticData,
			workflowId: this.workflowId,
		});
		if (outcome.error) throw outcome.error;
		this.staticData = outcome.workflowStaticData;
		return outcome.result?.[0].length ?? 0;
	}

	/** The static data's size, as n8n stores it: the saved position, and what n8n keeps beside it. */
	get stateBytes(): number {
		return JSON.stringify(this.staticData).length;
	}
}
