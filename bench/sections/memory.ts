/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-dangerous-functions, no-console -- n8n Cloud's limits are for nodes; this runs on Node itself (process, built-in modules, child processes); it prints its figures */
/**
 * "Memory of one poll": the peak resident memory one poll adds at the
 * largest form, each measured in a fresh process (lib/memoryProbe.ts): an
 * everyday poll from the state a first poll left, a first poll set to Send
 * the Latest Leads, and the floor's fetch and parse.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

import { MAX_FIRST_POLL_COUNT } from '../../nodes/AppBuilder/trigger/cursor/cursor';
import type { EmulatorProcess } from '../lib/emulatorProcess';
import { TriggerPoller } from '../lib/triggerPoller';

export interface MemorySettings {
	/** Inquiries in the form. */
	size: number;
	newPerPoll: number;
}

/** At the largest form of "One poll against the physical floor". */
export const MEMORY: Record<'full' | 'smoke', MemorySettings> = {
	full: { size: 100_000, newPerPoll: 10 },
	smoke: { size: 500, newPerPoll: 10 },
};

export interface MemoryFigures {
	/** Peak resident memory added: an everyday poll, a first poll sending the latest leads, the floor. */
	oursPeak: number;
	latestPeak: number;
	floorPeak: number;
	/** The answer's bytes, and the form's size. */
	bytes: number;
	largest: number;
}

function memoryProbe(
	mode: 'ours' | 'latest' | 'floor',
	webUrl: string,
	staticDataFile?: string,
): number {
	const args = [
		resolve(__dirname, '../lib/memoryProbe.ts'),
		mode,
		webUrl,
		...(staticDataFile ? [staticDataFile] : []),
	];
	const output = execFileSync(process.execPath, [...process.execArgv, ...args], {
		encoding: 'utf8',
	});
	return (JSON.parse(output) as { peakAddedBytes: number }).peakAddedBytes;
}

/**
 * The three probes on a form of `size` inquiries. Also hands back the
 * answer's records, fetched once as the floor reads them, which the
 * flattening section reads.
 */
export async function measureMemory(
	emulator: EmulatorProcess,
	settings: MemorySettings,
): Promise<{ memory: MemoryFigures; records: unknown[] }> {
	const largest = settings.size;
	await emulator.fillForm(largest);
	const { bytes, records } = await emulator.fetchAndParse();
	// An everyday poll: from the state the first poll left, with new inquiries to emit.
	const baseline = new TriggerPoller(emulator.webUrl);
	await baseline.poll();
	await emulator.addNew(settings.newPerPoll);
	const staticDataFile = resolve(
		mkdtempSync(join(tmpdir(), 'appbuilder-bench-')),
		'static-data.json',
	);
	writeFileSync(staticDataFile, JSON.stringify(baseline.staticData));
	const oursPeak = memoryProbe('ours', emulator.webUrl, staticDataFile);
	const floorPeak = memoryProbe('floor', emulator.webUrl);
	const latestPeak = memoryProbe('latest', emulator.webUrl);
	console.log(
		`memory ${largest} inquiries: one poll adds ${(oursPeak / 1e6).toFixed(0)} MB at peak = ${(oursPeak / bytes).toFixed(2)}x the body; a first poll set to Send the Latest Leads ${(latestPeak / bytes).toFixed(2)}x; the floor adds ${(floorPeak / bytes).toFixed(2)}x`,
	);
	return { memory: { oursPeak, latestPeak, floorPeak, bytes, largest }, records };
}

/** The targets table's two rows. */
export function memoryTargetRows(memory: MemoryFigures): string[] {
	const verdict = (met: boolean) => (met ? 'met' : '**not met**');
	const memoryRatio = memory.oursPeak / memory.bytes;
	const latestRatio = memory.latestPeak / memory.bytes;
	return [
		`| Peak memory of one poll at ${memory.largest.toLocaleString('en')} | at most 3x the body | ${memoryRatio.toFixed(2)}x (${(memory.oursPeak / 1e6).toFixed(0)} MB) | ${verdict(memoryRatio <= 3)} |`,
		`| Peak memory of a first poll set to Send the Latest Leads at ${memory.largest.toLocaleString('en')} | at most 1x the body | ${latestRatio.toFixed(2)}x (${(memory.latestPeak / 1e6).toFixed(0)} MB) | ${verdict(latestRatio <= 1)} |`,
	];
}

export function memorySection(memory: MemoryFigures, settings: MemorySettings): string {
	return `## Memory of one poll

At ${memory.largest.toLocaleString('en')} inquiries (${(memory.bytes / 1e6).toFixed(0)} MB body), the peak resident memory one poll adds,
measured in a fresh process (an everyday poll: from the state a first poll
left, ${settings.newPerPoll} new inquiries to emit): **${(memory.oursPeak / memory.bytes).toFixed(2)}x the body** for the trigger,
${(memory.floorPeak / memory.bytes).toFixed(2)}x for the floor. The trigger reads the answer as it
arrives and keeps only the records it may emit (those at or after its
cursor's floor), so its memory does not grow with the answer. A first poll
set to Send the Latest Leads (no saved state, the newest ${MAX_FIRST_POLL_COUNT}) adds **${(memory.latestPeak / memory.bytes).toFixed(2)}x the body**:
it keeps the bytes of only the newest records as the answer streams past.
`;
}
