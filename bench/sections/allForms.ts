/* eslint-disable @n8n/community-nodes/no-restricted-globals -- n8n Cloud's limits are for nodes; this runs on Node itself (process timers and CPU counters) */
/**
 * One trigger watching every form of an app against one trigger per form,
 * on the same forms of the emulator (in a process of its own): per poll
 * cycle with new leads in every form, the wall time, the CPU this process
 * used, the heap it grew by at its peak and the saved state, as ratios of ours to the
 * one-form triggers together. The one-form triggers poll at once, as n8n
 * runs triggers whose ticks fall on the same second.
 *
 * The emulator builds a form's answer again on the first request after an
 * inquiry changed and sends the same bytes after that: every form is asked
 * once before either side polls, so that this rebuild (the server's time,
 * the same for both in real life) falls on neither. Without it the side
 * that polled first paid it for both, and the median of alternating
 * cycles charged it to one side more often than the other.
 */
import { FIXTURE } from '../../test/emulator';
import type { EmulatorProcess } from '../lib/emulatorProcess';
import { TriggerPoller } from '../lib/triggerPoller';
import { highestDuring } from '../../test/support/peakDuring';
import { median } from '../lib/median';

export interface AllFormsSettings {
	formCounts: number[];
	inquiriesPerForm: number;
	newPerFormPerCycle: number;
	cycles: number;
}

export interface AllFormsRow {
	forms: number;
	oursMs: number;
	perFormMs: number;
	oursCpuMs: number;
	perFormCpuMs: number;
	/** How far the JavaScript heap rose above where the cycle started, at its highest. */
	oursHeapPeakBytes: number;
	perFormHeapPeakBytes: number;
	oursStateBytes: number;
	perFormStateBytes: number;
}

/** One all-forms trigger against one trigger per form, on 1, 10 and 50 forms. */
export const ALL_FORMS: Record<'full' | 'smoke', AllFormsSettings> = {
	full: { formCounts: [1, 10, 50], inquiriesPerForm: 1_000, newPerFormPerCycle: 2, cycles: 9 },
	smoke: { formCounts: [1, 3], inquiriesPerForm: 50, newPerFormPerCycle: 2, cycles: 1 },
};

/** The saved state's bound for `forms` forms (ARCHITECTURE.md, "Watching every form"). */
export const stateBoundBytes = (forms: number): number => Math.max(50_000, forms * 2_500);

const pageIdOf = (index: number) => `formbuilder_1001_${1000 + index}`;

export async function measureAllForms(
	emulator: EmulatorProcess,
	settings: AllFormsSettings,
): Promise<AllFormsRow[]> {
	const rows: AllFormsRow[] = [];
	for (const forms of settings.formCounts) {
		const pages = Array.from({ length: forms }, (_, index) => ({
			pageId: pageIdOf(index),
			pageName: `Form ${index + 1}`,
		}));
		await emulator.control('POST', '/reset', { seed: 'test' });
		await emulator.control('POST', '/apps', {
			appId: FIXTURE.appId,
			accessToken: FIXTURE.accessToken,
			pages,
		});
		for (const { pageId } of pages) {
			const count = settings.inquiriesPerForm;
			await emulator.control('POST', '/inquiries/bulk', {
				appId: FIXTURE.appId,
				pageId,
				count,
				fieldsPerRecord: 10,
				startTime: Date.now() - count * 1000 - 60_000,
			});
		}
		const options = { maxItemsPerPoll: 100_000 };
		const ours = new TriggerPoller(emulator.webUrl, FIXTURE.formPageId, options, {
			watch: 'allForms',
		});
		const perForm = pages.map(({ pageId }) => new TriggerPoller(emulator.webUrl, pageId, options));
		// Ask for every form as both sides do, so the emulator's changed answers are built before either is timed.
		const primers = pages.map(({ pageId }) => new TriggerPoller(emulator.webUrl, pageId, options));
		const prime = async () => await Promise.all(primers.map(async (poller) => await poller.poll()));
		await ours.poll();
		await Promise.all(perForm.map((poller) => poller.poll()));
		await prime();

		const samples = {
			ours: [] as number[],
			perForm: [] as number[],
			oursCpu: [] as number[],
			perFormCpu: [] as number[],
			oursHeap: [] as number[],
			perFormHeap: [] as number[],
		};
		let emitted = 0;
		for (let cycle = 0; cycle < settings.cycles; cycle++) {
			for (const { pageId } of pages) {
				await emulator.control('POST', '/inquiries/bulk', {
					appId: FIXTURE.appId,
					pageId,
					count: settings.newPerFormPerCycle,
					fieldsPerRecord: 10,
					startTime: Date.now(),
					spacingMs: 1,
				});
			}
			await prime();
			// Alternate which goes first, so neither always meets a warmer emulator.
			const runOurs = async () => {
				const measured = await timed(async () => await ours.poll());
				samples.ours.push(measured.ms);
				samples.oursCpu.push(measured.cpuMs);
				samples.oursHeap.push(measured.heapPeakBytes);
				emitted = measured.value;
			};
			const runPerForm = async () => {
				const measured = await timed(
					async () => await Promise.all(perForm.map(async (poller) => await poller.poll())),
				);
				samples.perForm.push(measured.ms);
				samples.perFormCpu.push(measured.cpuMs);
				samples.perFormHeap.push(measured.heapPeakBytes);
				const total = measured.value.reduce((sum, count) => sum + count, 0);
				if (total !== forms * settings.newPerFormPerCycle)
					throw new Error(
						`the one-form triggers emitted ${total}, expected ${forms * settings.newPerFormPerCycle}`,
					);
			};
			if (cycle % 2 === 0) {
				await runOurs();
				await runPerForm();
			} else {
				await runPerForm();
				await runOurs();
			}
			if (emitted !== forms * settings.newPerFormPerCycle)
				throw new Error(
					`the all-forms trigger emitted ${emitted}, expected ${forms * settings.newPerFormPerCycle}`,
				);
		}
		rows.push({
			forms,
			oursMs: median(samples.ours),
			perFormMs: median(samples.perForm),
			oursCpuMs: median(samples.oursCpu),
			perFormCpuMs: median(samples.perFormCpu),
			oursHeapPeakBytes: median(samples.oursHeap),
			perFormHeapPeakBytes: median(samples.perFormHeap),
			oursStateBytes: ours.stateBytes,
			perFormStateBytes: perForm.reduce((sum, poller) => sum + poller.stateBytes, 0),
		});
	}
	return rows;
}

async function timed<T>(
	work: () => Promise<T>,
): Promise<{ ms: number; cpuMs: number; heapPeakBytes: number; value: T }> {
	const cpu = process.cpuUsage();
	const started = process.hrtime.bigint();
	// The polls wait on the emulator between chunks, so the sampler sees each step.
	const { value, before, highest } = await highestDuring(
		() => process.memoryUsage().heapUsed,
		work,
	);
	const ms = Number(process.hrtime.bigint() - started) / 1e6;
	const used = process.cpuUsage(cpu);
	return { ms, cpuMs: (used.user + used.system) / 1000, heapPeakBytes: highest - before, value };
}

/** The section of docs/benchmarks.md. */
export function allFormsSection(rows: AllFormsRow[], settings: AllFormsSettings): string {
	const ratio = (a: number, b: number) => (b > 0 ? `${(a / b).toFixed(2)}x` : 'n/a');
	const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
	const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
	const table = rows
		.map(
			(row) =>
				`| ${row.forms} | ${row.oursMs.toFixed(0)} ms | ${row.perFormMs.toFixed(0)} ms | ${ratio(row.oursMs, row.perFormMs)} | ${row.oursCpuMs.toFixed(0)} ms | ${row.perFormCpuMs.toFixed(0)} ms | ${mb(row.oursHeapPeakBytes)} | ${mb(row.perFormHeapPeakBytes)} | ${kb(row.oursStateBytes)} | ${kb(row.perFormStateBytes)} | ${kb(stateBoundBytes(row.forms))} |`,
		)
		.join('\n');
	return `## Every form of an app in one trigger

One trigger with **Watch: All Forms of the App** against one trigger per
form on the same forms (${settings.inquiriesPerForm.toLocaleString('en')} inquiries each, ${settings.newPerFormPerCycle} new in every form before
each cycle), through n8n-core's PollContext in this process, the emulator in
a process of its own; medians of ${settings.cycles} cycles, the two sides taking turns
to go first. The one-form triggers poll at once, as n8n runs triggers whose
minute falls on the same second. Before each cycle every form is asked for
once, so that the emulator's work on an answer that changed (building it
again, which the server does once per change whoever asks) is timed on
neither side. CPU is
this process's (user and system) during the cycle; memory is how far its
JavaScript heap rose above where the cycle started, at its highest (sampled
every millisecond). The state is the saved
position in the node's static data, the one place it is stored in these
runs (see docs/trigger.md), against its stated bound.

| Forms | All forms, one trigger | One trigger per form | Ratio | CPU, one trigger | CPU, per form | Heap at peak, one trigger | Heap at peak, per form | State, one trigger | State, per form (sum) | State bound |
| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |
${table}
`;
}

/**
 * The targets table's rows: with several forms, no slower than the one-form
 * triggers together; the state within its bound. With one form the
 * all-forms trigger also asks for the app's forms, one request more, so no
 * time target is set there.
 */
export function allFormsTargetRows(rows: AllFormsRow[]): string[] {
	return rows.flatMap((row) => [
		...(row.forms > 1
			? [
					`| All forms, ${row.forms} forms: poll time against one trigger per form | at most 1x | ${(row.oursMs / row.perFormMs).toFixed(2)}x | ${row.oursMs <= row.perFormMs ? 'met' : '**not met**'} |`,
				]
			: []),
		`| All forms, ${row.forms} forms: saved state | within ${(stateBoundBytes(row.forms) / 1024).toFixed(0)} KB | ${(row.oursStateBytes / 1024).toFixed(1)} KB | ${row.oursStateBytes <= stateBoundBytes(row.forms) ? 'met' : '**not met**'} |`,
	]);
}
