/* eslint-disable @n8n/community-nodes/no-restricted-globals, no-console -- n8n Cloud's limits are for nodes; this runs on Node itself (process timers); it prints its progress and figures */
/**
 * "One poll against the physical floor": one poll of the trigger (n8n-core's
 * PollContext in this process) against fetching the same body over loopback
 * and `JSON.parse` of it, at each form size, 10 new inquiries before each poll.
 */
import type { EmulatorProcess } from '../lib/emulatorProcess';
import { median } from '../lib/median';
import { lineChart } from '../lib/svgChart';
import { TriggerPoller } from '../lib/triggerPoller';

export interface OnePollSettings {
	sizes: number[];
	/** Timed rounds at a size. */
	roundsFor: (size: number) => number;
	newPerPoll: number;
}

export const ONE_POLL: Record<'full' | 'smoke', OnePollSettings> = {
	full: {
		sizes: [1_000, 10_000, 100_000],
		roundsFor: (size) => (size >= 100_000 ? 3 : 5),
		newPerPoll: 10,
	},
	smoke: { sizes: [500], roundsFor: () => 2, newPerPoll: 10 },
};

export interface PollRow {
	size: number;
	bodyBytes: number;
	floorMs: number;
	oursMs: number;
	ratio: number;
	stateBytes: number;
}

const now = () => Number(process.hrtime.bigint()) / 1e6;

export async function measurePolls(
	emulator: EmulatorProcess,
	settings: OnePollSettings,
): Promise<PollRow[]> {
	const rows: PollRow[] = [];
	for (const size of settings.sizes) {
		await emulator.fillForm(size);
		const poller = new TriggerPoller(emulator.webUrl);
		await poller.poll(); // first poll: the baseline, not timed
		const floor: number[] = [];
		const ours: number[] = [];
		let bodyBytes = 0;
		for (let round = 0; round < settings.roundsFor(size); round++) {
			await emulator.addNew(settings.newPerPoll);
			let start = now();
			const parsed = await emulator.fetchAndParse();
			floor.push(now() - start);
			bodyBytes = parsed.bytes;
			start = now();
			const emitted = await poller.poll();
			ours.push(now() - start);
			if (emitted !== settings.newPerPoll)
				throw new Error(`poll emitted ${emitted}, expected ${settings.newPerPoll}`);
		}
		const row = {
			size,
			bodyBytes,
			floorMs: median(floor),
			oursMs: median(ours),
			ratio: median(ours) / median(floor),
			stateBytes: JSON.stringify(poller.staticData).length,
		};
		rows.push(row);
		console.log(
			`poll   ${String(size).padStart(7)} inquiries  body ${(bodyBytes / 1e6).toFixed(1).padStart(6)} MB  floor ${row.floorMs.toFixed(0).padStart(6)} ms  ours ${row.oursMs.toFixed(0).padStart(6)} ms  ratio ${row.ratio.toFixed(2)}  state ${row.stateBytes} B`,
		);
	}
	return rows;
}

/** The targets table's row: at the largest form, against the floor, and the cost per byte against the smallest's. */
export function onePollTargetRow(polls: PollRow[]): string {
	const largest = polls[polls.length - 1];
	const smallest = polls[0];
	// Cost per byte of answer at the largest form against the smallest: above 1, the poll grows faster than the body.
	const growth = largest.oursMs / largest.bodyBytes / (smallest.oursMs / smallest.bodyBytes);
	const met = largest.ratio <= 1.5 && growth <= 1.1;
	return `| One poll against the floor at ${largest.size.toLocaleString('en')} | at most 1.5x, growing no faster than the body | ${largest.ratio.toFixed(2)}x; cost per byte ${growth.toFixed(2)}x that at ${smallest.size.toLocaleString('en')} | ${met ? 'met' : '**not met**'} |`;
}

/** docs/poll-cost.svg. */
export function onePollChart(polls: PollRow[]): string {
	return lineChart({
		title: 'One poll versus the form size',
		xLabel: 'inquiries in the form',
		yLabel: 'ms (median, log scale)',
		xs: polls.map((row) => row.size),
		series: [
			{ name: 'App Builder Trigger poll', values: polls.map((row) => row.oursMs) },
			{ name: 'floor: fetch + JSON.parse', values: polls.map((row) => row.floorMs) },
		],
	});
}

export function onePollSection(polls: PollRow[], settings: OnePollSettings): string {
	const table = polls
		.map(
			(row) =>
				`| ${row.size.toLocaleString('en')} | ${(row.bodyBytes / 1e6).toFixed(1)} MB | ${row.floorMs.toFixed(0)} ms | ${row.oursMs.toFixed(0)} ms | **${row.ratio.toFixed(2)}x** | ${row.stateBytes.toLocaleString('en')} B |`,
		)
		.join('\n');
	return `## One poll against the physical floor

Each form holds inquiries of about 2 KB (10 fields, formData and
formbuilderData both filled); ${settings.newPerPoll} new ones arrive before each poll. The
*floor* is the least any client can do: fetch the same body over loopback
and \`JSON.parse\` it. *Ours* is one poll of the App Builder Trigger run by
n8n-core's \`PollContext\` (n8n's HTTP helpers, the credential, the cursor,
flattening the ${settings.newPerPoll} new inquiries, the static data written back). The
emulator runs in its own process, so neither side pays for serving.

| inquiries | body | floor | one poll | poll / floor | static data |
| --- | --- | --- | --- | --- | --- |
${table}

![One poll versus the form size](poll-cost.svg)
`;
}
