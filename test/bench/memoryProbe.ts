/**
 * Run in a fresh process: the peak memory one poll (or the floor's fetch and
 * parse) adds, read from the process's maximum resident set size. The poll
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
	const before = process.resourceUsage().maxRSS * 1024;
	if (mode === 'ours') await poller.poll();
	else await emulator.fetchAndParse();
	const after = process.resourceUsage().maxRSS * 1024;
	process.stdout.write(JSON.stringify({ peakAddedBytes: Math.max(0, after - before) }));
}

main().catch((error) => {
	console.error(error);
	process.exit(1);
});
