/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports, no-console -- n8n Cloud's limits are for nodes; this runs on Node itself (timers, process, built-in modules); it prints its progress and figures */
/**
 * Run in a fresh process: the peak memory one poll (or the floor's fetch and
 * parse) adds: the highest resident set size seen while it runs (sampled
 * every millisecond, and the process's maximum when that is higher), less
 * the resident set size just before it. Modes:
 * - ours: an everyday poll, from the static data a previous poll left (a JSON file);
 * - latest: a first poll set to Send the Latest Leads (the largest Latest Count), with no saved state;
 * - floor: the same request and JSON.parse of the body.
 * Usage: tsx memoryProbe.ts <ours|latest|floor> <emulator url> [static data file]
 */
import { readFileSync } from 'node:fs';

import { MAX_FIRST_POLL_COUNT } from '../../nodes/AppBuilder/trigger/cursor/cursor';
import { FIXTURE } from '../../test/emulator';
import { EmulatorProcess } from './emulatorProcess';
import { TriggerPoller } from './triggerPoller';
import { peakRssAddedDuring } from '../../test/support/peakDuring';

/** What one mode measures, made ready before the measurement starts. */
function measuredStep(
	mode: string,
	webUrl: string,
	staticDataFile: string | undefined,
): () => Promise<unknown> {
	if (mode === 'floor') {
		const emulator = EmulatorProcess.attach(webUrl);
		return () => emulator.fetchAndParse();
	}
	if (mode === 'ours') {
		const poller = new TriggerPoller(webUrl);
		if (staticDataFile)
			poller.staticData = JSON.parse(
				readFileSync(staticDataFile, 'utf8'),
			) as TriggerPoller['staticData'];
		return () => poller.poll();
	}
	if (mode === 'latest') {
		const poller = new TriggerPoller(webUrl, FIXTURE.formPageId, {
			firstPoll: 'latest',
			firstPollCount: MAX_FIRST_POLL_COUNT,
		});
		return async () => {
			const emitted = await poller.poll();
			// A first poll that emitted something else did not do the work being measured.
			if (emitted !== MAX_FIRST_POLL_COUNT)
				throw new Error(`the first poll emitted ${emitted}, expected ${MAX_FIRST_POLL_COUNT}`);
		};
	}
	throw new Error(`unknown mode ${mode}: ours, latest or floor`);
}

async function main(): Promise<void> {
	const [mode, webUrl, staticDataFile] = process.argv.slice(2);
	const emulator = EmulatorProcess.attach(webUrl);
	const step = measuredStep(mode, webUrl, staticDataFile);
	// Load every module and warm the HTTP stack on a small form first.
	await new TriggerPoller(webUrl, FIXTURE.secondFormPageId).poll();
	await emulator.fetchSecondForm();
	// The scan yields between chunks of the answer, so the sampler sees each step.
	const { peakAddedBytes } = await peakRssAddedDuring(step);
	process.stdout.write(JSON.stringify({ peakAddedBytes }));
}

main().catch((error) => {
	console.error(error);
	process.exit(1);
});
