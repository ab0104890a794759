import type { IDataObject } from 'n8n-workflow';

import { appBuilderCredentials, pollAppBuilderTrigger } from './appBuilderRuns';
import type { Emulator } from './useEmulator';

type PollOutcome = Awaited<ReturnType<typeof pollAppBuilderTrigger>>;

/** The trigger node as n8n names it in these workflows. */
export const TRIGGER_NODE = { id: 'node-1', name: 'App Builder Trigger' };

let workflows = 0;

/** Static data as n8n stores it: through JSON, so a poll never holds what another poll changes. */
export function roundTrip(data: IDataObject): IDataObject {
	return JSON.parse(JSON.stringify(data)) as IDataObject;
}

/** One poll of the trigger against the emulator, with what n8n hands it (`extra`: static data, node, mode). */
export async function pollOnce(
	emulator: Emulator,
	parameters: IDataObject,
	extra: Parameters<typeof pollAppBuilderTrigger>[2] = {},
): Promise<PollOutcome> {
	return await pollAppBuilderTrigger(appBuilderCredentials(emulator), parameters, extra);
}

/**
 * An App Builder Trigger in a workflow of its own, against the emulator, its
 * static data kept between polls as n8n keeps it: JSON round-tripped, and
 * stored after each poll that n8n's scheduler ran (a manual run, Fetch Test
 * Event, stores nothing). A workflow of its own per test, so no poll claim or
 * failure streak carries over.
 */
export function triggerWorkflow(
	emulator: Emulator,
	parameters: IDataObject,
	options: { workflowId?: string; node?: { id: string; name: string }; pollBudgetMs?: number } = {},
) {
	const credentials = appBuilderCredentials(emulator);
	const workflowId = options.workflowId ?? `trigger-workflow-${++workflows}`;
	let saved: IDataObject = {};
	return {
		get saved(): IDataObject {
			return saved;
		},
		/** One poll: the parameters given here replace the workflow's for this poll and those after (a change of settings). */
		async poll(
			change: {
				parameters?: IDataObject;
				node?: { id: string; name: string };
				mode?: 'trigger' | 'manual';
				pollBudgetMs?: number;
			} = {},
		): Promise<PollOutcome> {
			if (change.parameters !== undefined) parameters = change.parameters;
			const mode = change.mode ?? 'trigger';
			const outcome = await pollAppBuilderTrigger(credentials, parameters, {
				workflowId,
				node: change.node ?? options.node,
				workflowStaticData: roundTrip(saved),
				mode,
				pollBudgetMs: change.pollBudgetMs ?? options.pollBudgetMs,
			});
			if (mode === 'trigger') saved = outcome.workflowStaticData;
			return outcome;
		},
		/** Polls running at once share one static data object, as they do in n8n. */
		async pollSharing(shared: IDataObject, node = options.node): Promise<PollOutcome> {
			return await pollAppBuilderTrigger(credentials, parameters, {
				workflowId,
				node,
				workflowStaticData: shared,
			});
		},
		/** What n8n stored, set from outside (a commit that lands late, say). */
		store(data: IDataObject): void {
			saved = roundTrip(data);
		},
	};
}
