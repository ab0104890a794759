/**
 * The report's section on how many triggers one n8n main carries: the K
 * found for each configuration, ours' K as a share of n8n's own ceiling,
 * every window measured, what bounds K where a target is missed, the chart of
 * poll time against K, and the rows of the targets table. Text only; the measuring is in triggersPerMain.ts.
 */
import { lineChart } from '../lib/svgChart';
import { putSubsections } from '../reportPatch';
import { API_LIMIT_MS, INTERVAL_MS } from '../lib/scaleWindow';
import {
	cpuMsPerPoll,
	PEER_FACTOR,
	SCALE_TARGETS,
	type ScaleConfig,
	type ScaleResult,
	type ScaleRow,
	type ScaleSettings,
	type WindowResult,
	type Who,
} from './triggersPerMain';

const ms = (value: number | undefined) =>
	value === undefined || !Number.isFinite(value)
		? '-'
		: `${Math.round(value).toLocaleString('en')} ms`;
const mib = (bytes: number | undefined) =>
	bytes === undefined || !Number.isFinite(bytes)
		? '-'
		: `${Math.round(bytes / 2 ** 20).toLocaleString('en')} MiB`;
const cores = (cpuMs: number, lengthMs: number) =>
	lengthMs > 0 ? (cpuMs / lengthMs).toFixed(2) : '-';
const WHO_NAME: Record<Who, string> = {
	ours: 'App Builder Trigger',
	peer: 'peer',
	n8n: "n8n's trivial trigger",
};
const whoName = (config: Pick<ScaleConfig, 'who'>) => WHO_NAME[config.who];
const configName = (config: ScaleConfig) =>
	`${whoName(config)}, ${config.size.toLocaleString('en')}, compression ${config.compression ? 'on' : 'off'}`;

/** The window that stands for a row's K: its confirmation, else the last passing probe at that K. */
function windowAtK(row: ScaleRow): WindowResult | undefined {
	return (
		row.confirmed ??
		[...row.windows].reverse().find((window) => window.k === row.k && window.passed)
	);
}

/** The first failing window at the smallest K that failed: what bounds K. */
function firstFailure(row: ScaleRow): WindowResult | undefined {
	const failed = row.windows.filter((window) => !window.passed);
	if (failed.length === 0) return undefined;
	const smallest = Math.min(...failed.map((window) => window.k));
	return failed.find((window) => window.k === smallest);
}

function howMeasured(row: ScaleRow, settings: ScaleSettings): string {
	const probes = row.windows.filter((window) => window.kind === 'probe').length;
	const probeMinutes = settings.probeWindowMs / 60_000;
	const base = `${probes} ${probeMinutes}-minute ${probes === 1 ? 'window' : 'windows'}`;
	const relative = row.config.relativeTo;
	// The Ks it was tried at, as they came: a factor of the other's K, or that one's first failure after a pass at its K.
	const tried = row.windows.map((window) => window.k).join(', then ');
	if (relative) {
		const against = `the K of ${configName({ ...relative, confirm: false, start: 0, max: 0 })}`;
		const order =
			relative.firstAt !== undefined
				? `: ${relative.firstAt} first (a fifth of the target), then a fifth of ${against}, until one fails`
				: `, against ${against}`;
		return `${base} at K ${tried || 'none'}${order}${row.note ? `; ${row.note}` : ''}`;
	}
	if (row.confirmed)
		return `${base}, then ${settings.confirmWindowMs / 60_000} minutes at K with every lead checked`;
	if (row.config.confirm) return `${base}; ${row.note ?? 'not confirmed'}`;
	return `${base} (no longer window)`;
}

/** What a bracket says the workflow carries: between the pass and the failure, at least the pass, or fewer than the failure. */
function carries(bracket: { passed: number; failed?: number }): string {
	if (bracket.passed > 0 && bracket.failed !== undefined)
		return bracket.failed - bracket.passed > 1
			? `${bracket.passed} to ${bracket.failed - 1}`
			: `${bracket.passed}`;
	if (bracket.passed > 0) return `${bracket.passed} or more`;
	return bracket.failed !== undefined ? `fewer than ${bracket.failed}` : 'not measured';
}

/** The most K a bracket allows: unknown (infinite) when nothing failed. */
function ceilingOf(bracket: { passed: number; failed?: number }): number {
	return bracket.failed !== undefined ? bracket.failed - 1 : Number.POSITIVE_INFINITY;
}

/** The bracket in words: the K that passed and the one that failed above it. */
function kCell(row: ScaleRow): string {
	if (row.config.relativeTo) return `**${carries(row.bracket)}**`;
	if (row.k === 0)
		return row.config.confirm && row.bracket.passed > 0
			? `**not confirmed** (probes passed up to ${row.bracket.passed})`
			: '**0**';
	const above =
		row.bracket.failed === undefined
			? `none failed up to ${row.config.max}`
			: `${row.bracket.failed} failed`;
	const probedPast = Math.max(
		0,
		...row.windows
			.filter((window) => window.kind === 'probe' && window.passed)
			.map((window) => window.k),
	);
	return `**${row.k}** (${above}${probedPast > row.k ? `; 1-minute probes passed up to ${probedPast}` : ''})`;
}

function failureCell(row: ScaleRow): string {
	const failure = firstFailure(row);
	if (!failure) return '-';
	return `at ${failure.k}: ${failure.judgement.reasons.join('; ')}`;
}

/** The K of ours and of the peer at a size (the configuration with compression off, else any). */
function kOf(result: ScaleResult, who: Who, size: number): ScaleRow | undefined {
	const rows = result.rows.filter((row) => row.config.who === who && row.config.size === size);
	return rows.find((row) => !row.config.compression) ?? rows[0];
}

/**
 * Ours' K over n8n's trivial trigger's, at ours' size and coding: n8n's K in
 * words, and the ratio to the K it reported (the largest probe that passed).
 * Its true K may reach below its first failure, so a wide bracket also gives
 * the ratio there; one that never failed bounds the ratio from above, one
 * that never passed from below.
 */
export function againstN8n(
	result: ScaleResult,
	ours: ScaleRow,
): { carries?: string; ratio?: string; bound: boolean } {
	const n8n = result.rows.find(
		(row) =>
			row.config.who === 'n8n' &&
			row.config.size === ours.config.size &&
			row.config.compression === ours.config.compression,
	);
	if (!n8n) return { bound: false };
	const { passed } = n8n.bracket;
	const most = ceilingOf(n8n.bracket);
	const of = (k: number) => (ours.k / k).toFixed(2);
	const said = carries(n8n.bracket);
	if (passed === 0)
		return most >= 1
			? { carries: said, ratio: `at least ${of(most)}`, bound: true }
			: { carries: said, bound: false };
	if (!Number.isFinite(most)) return { carries: said, ratio: `at most ${of(passed)}`, bound: true };
	return {
		carries: said,
		ratio: `${of(passed)}${most > passed ? ` (${of(most)} if it carries ${most})` : ''}`,
		bound: false,
	};
}

/** One line for the text and the targets: ours against n8n's trivial trigger. */
function againstN8nText(result: ScaleResult, ours: ScaleRow): string {
	const { carries: said = 'not measured', ratio, bound } = againstN8n(result, ours);
	if (ratio === undefined) return `n8n's trivial trigger ${said}`;
	return `n8n's trivial trigger ${said}: ours / n8n's ${bound ? 'is' : '='} ${ratio}`;
}

/** The rows of the targets table, one per size targeted; `sizes`: only those (a run of some sizes leaves the others' rows). */
export function scaleTargetRows(
	result: ScaleResult | undefined,
	sizes: readonly number[] = SCALE_TARGETS.map((target) => target.size),
): string[] {
	return SCALE_TARGETS.filter(({ size }) => sizes.includes(size)).map(({ size, atLeast }) => {
		const ours = result && kOf(result, 'ours', size);
		const peer = result && kOf(result, 'peer', size);
		const title = `Triggers one n8n main carries, each on a form of ${size.toLocaleString('en')}`;
		const target = `at least ${atLeast}, and at least ${PEER_FACTOR}x the peer's`;
		if (!ours) return `| ${title} | ${target} | not measured | **not met** |`;
		// The peer's true K is below its first failure; ours must be at least 5x the most the peer could carry.
		const peerCeiling = peer ? ceilingOf(peer.bracket) : undefined;
		const ratio = !peer
			? 'the peer not measured'
			: Number.isFinite(peerCeiling)
				? `the peer ${carries(peer.bracket)}: ours is at least ${(ours.k / Math.max(peerCeiling as number, 1)).toFixed(1)}x`
				: `the peer ${carries(peer.bracket)}`;
		const bound =
			ours.k < atLeast ? ' (what bounds it: [Triggers per n8n main](#triggers-per-n8n-main))' : '';
		const met =
			ours.k >= atLeast &&
			peerCeiling !== undefined &&
			ours.k >= PEER_FACTOR * Math.max(peerCeiling, 1);
		return `| ${title} | ${target} | ${ours.k} (${ours.config.compression ? 'compression on' : 'compression off'}), ${ratio}; ${againstN8nText(result, ours)}${bound} | ${met ? 'met' : '**not met**'} |`;
	});
}

/** The file of a size's chart, beside the report. */
export const scaleChartFile = (size: number) => `poll-time-vs-k-${size}.svg`;

/** A size's chart: the median poll cycle (tick to the end of its execution) at each K measured, per configuration. */
export function scaleChart(result: ScaleResult, size: number): string {
	const series = result.rows
		.filter((row) => row.config.size === size)
		.map((row) => {
			const byK = new Map<number, number>();
			for (const window of row.windows)
				if (Number.isFinite(window.judgement.cycle.median))
					byK.set(window.k, window.judgement.cycle.median);
			const ks = [...byK.keys()].sort((a, b) => a - b);
			return { name: configName(row.config), xs: ks, values: ks.map((k) => byK.get(k) as number) };
		})
		.filter((serie) => serie.xs.length > 0);
	return lineChart({
		title: `Poll cycle against the number of triggers in one n8n, forms of ${size.toLocaleString('en')}`,
		xLabel: 'K: active triggers, each polling its own form once a minute',
		yLabel: 'ms from the tick to the end of the execution (median, log)',
		xs: [],
		series,
	});
}

/** The heading of a size's part of the section: a run of that size alone (`--sizes=`) replaces it and leaves the others. */
const sizeHeading = (size: number) => `### On forms of ${size.toLocaleString('en')} inquiries`;

/** The size a part's heading names (sizeHeading), for ordering the parts. */
export function sizeOfHeading(heading: string): number {
	const size = /^### On forms of ([\d,]+) inquiries$/.exec(heading)?.[1];
	return size === undefined ? Number.POSITIVE_INFINITY : Number(size.replace(/,/g, ''));
}

/** The sizes a result holds: measured, and with `pending` also those still to be. */
export function sizesOf(result: ScaleResult, pending = true): number[] {
	const configs = [
		...result.rows.map((row) => row.config),
		...(pending ? (result.pending ?? []) : []),
	];
	return [...new Set(configs.map((config) => config.size))].sort((a, b) => a - b);
}

/**
 * The section: how K is measured, then a part per size from `result`.
 * `measuredBy`: the command and date of the run ("`npm run bench` on
 * 2026-11-28"), which each size's part names, since a run of one size
 * (`--sizes=`) leaves the others' parts as their own run wrote them.
 */
export function scaleSection(
	result: ScaleResult,
	settings: ScaleSettings,
	measuredBy = '`npm run bench`',
): string {
	// Assembled as a run of some sizes assembles it (PartialReport), so both give the same text.
	return putSubsections(
		undefined,
		scaleIntro(result, settings),
		sizesOf(result).map((size) => scaleSizePart(result, size, settings, measuredBy)),
		sizeOfHeading,
	);
}

/** The section up to its first size: the method, the same for every size. */
export function scaleIntro(result: ScaleResult, settings: ScaleSettings): string {
	return `## Triggers per n8n main

How many App Builder Triggers one n8n ${result.n8nVersion} main carries on this machine before polls
miss their minute: K workflows, each a trigger polling a form of its own once a
minute (the packed package installed as n8n installs community packages, n8n's
defaults otherwise: SQLite, executions saved, one main). n8n gives every
minute-poll a random second; here each trigger gets a random second too, from a
fixed seed, set as its cron expression, so each poll's tick is known. Each minute
${settings.newPerMinute} new leads arrive on every form (the emulator's K forms share one list of
inquiries, so it holds one form's records, not K). The peer is the workflow of
the cycle section (Schedule Trigger at a second of its own, HTTP Request, Split
Out, Remove Duplicates with a history of ${settings.peerHistory.toLocaleString('en')}, Code), one per form.
n8n's own ceiling is its trivial polling trigger (the benchmark's own node,
loaded into the same n8n install; it returns 10 fixed items) receiving on every poll,
through n8n's HTTP helper, the answer ours gets for its form: the same request
and headers to the same emulator, so the same size and the same coding; one
per form, on ours' seconds. It is searched from scratch as ours is, but in
1-minute probes only (it emits no leads to check), so its K is the largest
probe that passed. Each kind of workflow starts with none of the last kind's
active, in an n8n started fresh for it, and so does the window after one that
failed (the 10,000 part's run turned the last
kind's workflows off instead; after an overloading window that took longer than
the windows: 36 of 933 trivial triggers in 20 minutes), and a call n8n leaves unanswered for 3 minutes (activating a
workflow, its metrics, the executions) fails the window as a refusal does: one
activation past the ceiling hung 33 minutes before n8n answered 500. So does
a K n8n has not activated within 10 minutes in all (past 1,000 trivial triggers
it answered each call, 3 activations a minute, for 40 minutes before a 500).
Ours' K is confirmed over ${settings.confirmWindowMs / 60_000} minutes, which can only lower
it, so K ours / K n8n's errs against ours. Ours and n8n's at a size are always
measured in one run; a size can be measured alone (\`npm run bench -- --only=scale --sizes=10000\`),
so each size's part below names its run.

K is raised by doubling (from the first window that passes, straight to the K at
which n8n's CPU would reach 0.7 of a core, since every doubling below would pass${
		settings.probeUpToN8nCores === undefined
			? ''
			: `; never past the K at which the last pass's CPU per poll says n8n would need ${settings.probeUpToN8nCores} cores, which fails surely and leaves n8n overloaded for minutes`
	}) and then
bisected to within ${Math.round(settings.resolution * 100)}%.${
		settings.confirmUpToN8nCores === undefined
			? ''
			: ` The K confirmed first is where n8n would use ${settings.confirmUpToN8nCores} cores, projected from the passing probe that cost it the most CPU per trigger (a K whose probe loaded it more passes a minute but meets a slow editor answer over five), or a lighter pass above that; a confirmation that fails is followed by one at ${Math.round(settings.confirmStepDown * 100)}% of its K, with no probe first (probes passed above it already).`
	} Each window lasts a minute at least (every trigger polls
once a minute), so to keep the section's length down the other
configurations are measured against that K in a few windows rather than
searched ("how measured" says which): with compression on at the same K, and
the peer at a fraction of it. The peer decides the 5x target: it is tried at a
fifth of the target first, and only if it passes there at a fifth of ours; if it
fails at either, it carries fewer than that, and ours (at the target or above)
carries more than 5 times what the peer can. A window passes when, over its length: every tick had
its poll, every poll ended (its execution included) within the minute after its
tick, n8n counted no overlapping tick (\`n8n_poll_trigger_overlapping_ticks_total\`)
and no failed poll (\`n8n_poll_trigger_errors_total\`), every execution succeeded,
and the editor API (\`GET /rest/login\`, asked every ${API_LIMIT_MS / 500} s) answered every time within
${API_LIMIT_MS.toLocaleString('en')} ms. A confirmation window also checks every lead that had a whole minute to arrive
arrived once at every trigger (read from the executions' items). n8n's CPU is
its process with its task runners, less what it spends with no workflow active
(measured at the start of each run, the editor API asked as in a window); the emulator's and the whole
machine's are counted apart.

In every window's table, cycle is from the tick to the end of the execution;
poll() call is n8n's own \`n8n_poll_trigger_duration_seconds\` (ours and the
trivial trigger only); cores are CPU time over the window's length. The
emulator alone (no n8n polling) serves one of the shared forms ${result.emulatorAlone[0]?.requests ?? 0} times, two
requests in flight, read and dropped by the benchmark. A form's answer is built once a
minute (when its leads arrive) and its gzip bytes kept, so a request costs the
emulator a copy.
`;
}

/** A size's part: its run, the K of each configuration, ours against n8n's own, the chart, what bounds K, every window. */
export function scaleSizePart(
	result: ScaleResult,
	size: number,
	settings: ScaleSettings,
	measuredBy: string,
): string {
	const rows = result.rows.filter((row) => row.config.size === size);
	const pending = (result.pending ?? []).filter((config) => config.size === size);
	const kRows = rows.map((row) => {
		const at = windowAtK(row);
		const perPoll = at ? cpuMsPerPoll(at, result.idleCores) : undefined;
		return `| ${whoName(row.config)} | ${row.config.compression ? 'on' : 'off'} | ${kCell(row)} | ${howMeasured(row, settings)} | ${ms(perPoll)} | ${at ? cores(at.cpu.n8nMs, at.lengthMs) : '-'} | ${mib(at?.rssMaxBytes)} / ${mib(at?.heapUsedBytes)} | ${at ? `${ms(at.judgement.cycle.median)} / ${ms(at.judgement.cycle.p95)} / ${ms(at.judgement.cycle.max)}` : '-'} | ${failureCell(row)} |`;
	});
	const windowRows = rows.flatMap((row) =>
		row.windows.map((window) => {
			const j = window.judgement;
			return `| ${configName(row.config)} | ${window.k} | ${window.kind === 'confirm' ? `${Math.round(window.lengthMs / 60_000)} min, leads checked` : `${Math.round(window.lengthMs / 1000)} s`} | ${window.passed ? 'pass' : '**fail**'} | ${j.polls} of ${j.ticks} | ${ms(j.lateness.p95)} | ${ms(j.cycle.median)} / ${ms(j.cycle.p95)} / ${ms(j.cycle.max)} | ${ms(window.pollCallMeanMs)} | ${ms(j.apiMs.max)} | ${ms(window.eventLoopLagP99Ms)} | ${ms(cpuMsPerPoll(window, result.idleCores))} | ${cores(window.cpu.n8nMs, window.lengthMs)} | ${cores(window.cpu.emulatorMs, window.lengthMs)} | ${cores(window.cpu.machineMs, window.lengthMs)} | ${mib(window.rssMaxBytes)} |`;
		}),
	);
	const aloneRows = result.emulatorAlone
		.filter((alone) => alone.size === size)
		.map((alone) => {
			const ours = rows.find(
				(r) => r.config.who === 'ours' && r.config.compression === alone.compression,
			);
			const atK =
				ours && ours.k > 0
					? `${((ours.k * alone.cpuMsPerRequest) / INTERVAL_MS).toFixed(2)} cores at K = ${ours.k}`
					: '-';
			return `| ${alone.compression ? 'on (gzip)' : 'off'} | ${(alone.wireBytes / 1e6).toFixed(2)} MB | ${alone.cpuMsPerRequest.toFixed(2)} ms | ${Math.round(alone.perMinutePerCore).toLocaleString('en')} | ${atK} |`;
		});
	const ours = kOf(result, 'ours', size);
	const sizeCount = sizesOf(result).length;
	const run = result.pending?.length
		? `**An unfinished run**: what it had measured after ${Math.round(result.minutes)} minutes; ${pending.length > 0 ? `not measured: ${pending.map(configName).join('; ')}` : 'every configuration of this size measured'}.`
		: `The run took ${Math.round(result.minutes)} minutes over this section${sizeCount > 1 ? `, for its ${sizeCount} sizes` : ''}.`;
	const bounds = boundsText(result, size);
	return `${sizeHeading(size)}

Measured by ${measuredBy}; n8n idle ${result.idleCores.toFixed(3)} cores. ${run}

| workflow | compression | K (triggers carried) | how measured | n8n CPU per poll cycle | n8n at K (cores) | main's memory at K (RSS / heap) | cycle at K (median / p95 / max) | what failed first above K |
| --- | --- | --- | --- | --- | --- | --- | --- | --- |
${kRows.join('\n')}

${ours ? `Ours against n8n's own ceiling, K ours / K n8n's trivial trigger at the same size and coding (compression ${ours.config.compression ? 'on' : 'off'}): ours ${ours.k}, ${againstN8nText(result, ours)}.\n\n` : ''}![Poll cycle against K, forms of ${size.toLocaleString('en')}](${scaleChartFile(size)})
${bounds ? `\n${bounds}\n` : ''}
Every window:

| configuration | K | window | | polls | lateness p95 | cycle median / p95 / max | poll() call, mean | editor API, slowest | event loop lag p99 at the end | n8n CPU per poll | n8n cores | emulator cores | machine cores | main's RSS |
| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |
${windowRows.join('\n')}
${
	aloneRows.length > 0
		? `
The emulator alone:

| compression | on the wire | emulator CPU per request | requests a minute one core serves | the emulator's share at ours' K |
| --- | --- | --- | --- | --- |
${aloneRows.join('\n')}
`
		: ''
}`;
}

/** Where a size's target is missed: what the first failing window measured, and what the emulator and the rest of the machine took. */
function boundsText(result: ScaleResult, size: number): string {
	const atLeast = SCALE_TARGETS.find((target) => target.size === size)?.atLeast;
	const ours = kOf(result, 'ours', size);
	if (atLeast === undefined || !ours || ours.k >= atLeast) return '';
	const failure = firstFailure(ours);
	if (!failure)
		return `What bounds it (measured): K = ${ours.k}, below the ${atLeast} targeted; ${ours.note ?? 'no window failed'}.`;
	const alone = result.emulatorAlone.find(
		(row) => row.size === size && row.compression === ours.config.compression,
	);
	const emulatorShare = alone
		? `; serving ${failure.k} forms a minute costs the emulator ${((failure.k * alone.cpuMsPerRequest) / INTERVAL_MS).toFixed(2)} cores measured alone`
		: '';
	return (
		`What bounds it (measured): K = ${ours.k} (${configName(ours.config)}), below the ${atLeast} targeted. At K = ${failure.k} ${failure.judgement.reasons.join('; ')}. ` +
		`Over that window n8n used ${cores(failure.cpu.n8nMs, failure.lengthMs)} cores (${ms(cpuMsPerPoll(failure, result.idleCores))} a poll cycle; its JavaScript runs on one thread, so about 1 core is all one main can give), ` +
		`the emulator ${cores(failure.cpu.emulatorMs, failure.lengthMs)}, and the whole machine ${cores(failure.cpu.machineMs, failure.lengthMs)} of its 2 cores${emulatorShare}.`
	);
}

/** Where the benchmark writes its figures into docs/scaling.md: between these two lines, which stay. */
export const MEASURED_BEGIN = '<!-- measured by npm run bench: begin -->';
export const MEASURED_END = '<!-- measured by npm run bench: end -->';

/** Where the markers are in `text`, or undefined when they are not both there, in order. */
function markersOf(text: string): { begin: number; end: number } | undefined {
	const begin = text.indexOf(MEASURED_BEGIN);
	const end = text.indexOf(MEASURED_END);
	return begin < 0 || end < begin ? undefined : { begin, end };
}

/** `text` with what lies between the markers replaced by `block`; unchanged when the markers are not both there, in order. */
export function replaceMeasuredBlock(text: string, block: string): string {
	const markers = markersOf(text);
	if (!markers) return text;
	return `${text.slice(0, markers.begin + MEASURED_BEGIN.length)}\n${block.trim()}\n${text.slice(markers.end)}`;
}

/** The size a row of the block in docs/scaling.md is about: its first cell, or undefined for a line that is no such row. */
function sizeOfScalingRow(line: string): number | undefined {
	const cell = line.split('|')[1]?.trim().replace(/,/g, '') ?? '';
	return /^\d+$/.test(cell) ? Number(cell) : undefined;
}

/** The rows of the block in docs/scaling.md for the sizes `result` does not hold: a run of some sizes keeps the others' rows. */
export function keptScalingRows(page: string, result: ScaleResult): string[] {
	const markers = markersOf(page);
	if (!markers) return [];
	// A size not begun yet (a run still going) keeps its rows too.
	const measured = sizesOf(result, false);
	return page
		.slice(markers.begin, markers.end)
		.split('\n')
		.filter((line) => {
			const size = sizeOfScalingRow(line);
			return size !== undefined && !measured.includes(size);
		});
}

/**
 * The figures docs/scaling.md quotes: at each size, each configuration's K,
 * the peer's beside ours, n8n's own and ours against it, n8n's CPU per poll
 * cycle, and the run that measured them (`date`); `kept`: rows of other sizes,
 * as their own run wrote them.
 */
export function scalingDocBlock(
	result: ScaleResult,
	date: string,
	machine: string,
	kept: string[] = [],
): string {
	const lines = sizesOf(result).flatMap((size) =>
		[false, true].flatMap((compression) => {
			const ours = result.rows.find(
				(row) =>
					row.config.who === 'ours' &&
					row.config.size === size &&
					row.config.compression === compression,
			);
			if (!ours) return [];
			const peer = result.rows.find(
				(row) =>
					row.config.who === 'peer' &&
					row.config.size === size &&
					row.config.compression === compression,
			);
			const at = windowAtK(ours);
			const perPoll = at ? cpuMsPerPoll(at, result.idleCores) : undefined;
			const failure = firstFailure(ours);
			const n8n = againstN8n(result, ours);
			return [
				`| ${size.toLocaleString('en')} | ${compression ? 'on' : 'off'} | ${ours.k}${ours.confirmed ? '' : ' (1-minute windows)'} | ${peer ? carries(peer.bracket) : '-'} | ${n8n.carries ?? '-'} | ${n8n.ratio ?? '-'} | ${ms(perPoll)} | ${failure ? `at ${failure.k}: ${failure.judgement.reasons.join('; ')}` : (ours.note ?? '-')} | ${date}, n8n ${result.n8nVersion} |`,
			];
		}),
	);
	// By size; a size's rows come from one run, in their order.
	const rows = [...kept, ...lines].sort(
		(a, b) => (sizeOfScalingRow(a) ?? 0) - (sizeOfScalingRow(b) ?? 0),
	);
	return `Measured by \`npm run bench\` on ${machine}, n8n with its defaults (one main, SQLite), each trigger
polling a form of its own once a minute, ours and n8n's own at a size in one run, on the date in its row ([the method and every window](benchmarks.md#triggers-per-n8n-main)):

| inquiries per form | compression | App Builder Triggers one main carries | peer workflows | n8n's trivial trigger, the same answers (its ceiling) | ours / n8n's | n8n CPU per poll cycle | what failed above it | measured |
| --- | --- | --- | --- | --- | --- | --- | --- | --- |
${rows.join('\n')}`;
}
