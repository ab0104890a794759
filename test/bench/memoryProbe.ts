/**
 * Run in a fresh process: the peak memory one poll (or the floor's fetch and
 * parse) adds, read from the process's maximum resident set size.
 * Usage: tsx memoryProbe.ts <ours|floor> <emulator url>
 */
import { FIXTURE } from '../emulator';
import { EmulatorProcess } from './emulatorProcess';
import { TriggerPoller } from './triggerPoller';

async function main(): Promise<void> {
	const [mode, webUrl] = process.argv.slice(2);
	const emulator = EmulatorProcess.attach(webUrl);
	const poller = new TriggerPoller(webUrl);
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
