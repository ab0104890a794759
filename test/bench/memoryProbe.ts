/**
 * Run in a fresh process: the peak memory one poll (or the floor's fetch and
 * parse) adds: the highest resident set size seen while it runs (sampled
 * every millisecond, and the process's maximum when that is higher), less
 * the resident set size just before it. The poll
 * starts from the static data a previous poll left (a JSON file), so it is
 * an everyday poll, not the first.
 * Usage: tsx memoryProbe.ts <ours|floor> <emulator url> [static data file]
 */
import { readFileSync } from 'node:fs';

import { FIXTURE } from '../emulator';
import { EmulatorProcess } from './emulatorProcess';
import { TriggerPoller } from './triggerPoller';

async function main(): Promise<void> {
	const [mode, webUrl, staticDataFile] = process.argv.slice(2);
	const emulator = EmulatorProcess.attach(webUrl);
	const poller = new TriggerPoller(webUrl);
	if (staticDataFile) poller.staticData = JSON.parse(readFileSync(staticDataFile, 'utf8'));
	// Load every module and warm the HTTP stack on a small form first.
	await new TriggerPoller(webUrl, FIXTURE.secondFormPageId).poll();
	await emulator.fetchSecondForm();
	const before = process.memoryUsage.rss();
	const maxBefore = process.resourceUsage().maxRSS * 1024;
	let peak = before;
	// The scan yields between chunks of the answer, so the sampler sees each step.
	const sampler = setInterval(() => {
		peak = Math.max(peak, process.memoryUsage.rss());
	}, 1);
	if (mode === 'ours') await poller.poll();
	else await emulator.fetchAndParse();
	clearInterval(sampler);
	peak = Math.max(peak, process.memoryUsage.rss());
	const maxAfter = process.resourceUsage().maxRSS * 1024;
	// A peak between two samples still shows in the process's maximum if it set a new one.
	if (maxAfter > maxBefore) peak = Math.max(peak, maxAfter);
	process.stdout.write(JSON.stringify({ peakAddedBytes: Math.max(0, peak - before) }));
}

main().catch((error) => {
	console.error(error);
	process.exit(1);
});
