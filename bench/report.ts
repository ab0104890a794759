/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports, no-console -- n8n Cloud's limits are for nodes; this runs on Node itself (process, built-in modules); it says what it wrote */
/**
 * The report writer: docs/benchmarks.md from the sections' texts in their
 * order, with the targets table that gathers their rows; the charts
 * (poll-cost.svg, poll-cycle.svg, poll-time-vs-k-<size>.svg) and the figures
 * docs/scaling.md quotes. A partial run (`--only=…`) puts its sections into
 * the report the last full run wrote (reportPatch.ts).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { join, resolve } from 'node:path';

import {
	notePartialRun,
	putSection,
	putSubsections,
	putTargetRows,
	sectionOf,
} from './reportPatch';
import type { RunSettings } from './settings';
import { addUserSection, addUserTargetRows, type AddUserRow } from './sections/addUser';
import { allFormsSection, allFormsTargetRows, type AllFormsRow } from './sections/allForms';
import {
	compressedReadSection,
	compressedReadTargetRow,
	type CompressedReadRow,
} from './sections/compressedRead';
import { crashSection } from './sections/crash';
import {
	CYCLE_PROFILE_HEADING,
	cycleProfileSection,
	type ProfiledSeries,
} from './sections/cycleProfile';
import { flatteningSection, type Flattening } from './sections/flattening';
import {
	cycleCostInN8n,
	manyPollsSection,
	manyPollsTargetRow,
	type ManyPolls,
	type PollProfile,
} from './sections/manyPolls';
import { memorySection, memoryTargetRows, type MemoryFigures } from './sections/memory';
import { floorSection, floorTargetRow, type FloorRow } from './sections/n8nFloor';
import { onePollChart, onePollSection, onePollTargetRow, type PollRow } from './sections/onePoll';
import { cycleSection, pollCycleChart, type CycleRow } from './sections/pollCycle';
import { slowLinkSection, slowLinkTargetRows, type SlowLinkRow } from './sections/slowLink';
import { staticDataSection, staticDataTargetRow } from './sections/staticData';
import type { ScaleResult } from './sections/triggersPerMain';
import {
	keptScalingRows,
	replaceMeasuredBlock,
	scaleChart,
	scaleChartFile,
	scaleIntro,
	scaleSection,
	scaleSizePart,
	scaleTargetRows,
	scalingDocBlock,
	sizeOfHeading,
	sizesOf,
} from './sections/triggersPerMainReport';

/** Where the report and the pages quoting it live; the smoke run writes copies elsewhere. */
export const COMMITTED_DOCS = resolve(__dirname, '../docs');

const machineName = () => `${cpus().length} × ${cpus()[0]?.model ?? 'CPU'}`;
const today = () => new Date().toISOString().slice(0, 10);

/** What a full run measured, section by section. */
export interface FullRun {
	polls: PollRow[];
	many: ManyPolls;
	profile: PollProfile;
	largeFormStateBytes: number;
	memory: MemoryFigures;
	flatten: Flattening;
	cycles: CycleRow[];
	floor: FloorRow[];
	scale: ScaleResult;
	allForms: AllFormsRow[];
	compressed: CompressedReadRow[];
	slowLink: SlowLinkRow[];
	addUser: AddUserRow[];
}

/** The targets the package holds itself to, each with what this run measured. */
function targetsSection(run: FullRun, settings: RunSettings): string {
	const rows = [
		onePollTargetRow(run.polls),
		manyPollsTargetRow(run.many),
		floorTargetRow(run.floor, settings.cycles.sizes),
		...scaleTargetRows(run.scale),
		compressedReadTargetRow(run.compressed),
		...slowLinkTargetRows(run.slowLink, settings.slowLink),
		...allFormsTargetRows(run.allForms),
		staticDataTargetRow(run.polls, run.largeFormStateBytes, settings.staticData),
		...memoryTargetRows(run.memory),
		...addUserTargetRows(run.addUser, settings.addUser),
	];
	return `## Targets

| figure | target | this run | |
| --- | --- | --- | --- |
${rows.join('\n')}
`;
}

/** A section only a partial run measures, as the committed report has it, for a full run to keep. */
function keptSection(heading: string): string[] {
	const section = sectionOf(
		readFileSync(resolve(COMMITTED_DOCS, 'benchmarks.md'), 'utf8'),
		heading,
	);
	return section ? [section] : [];
}

/**
 * docs/scaling.md quotes the triggers per main between its markers: the
 * committed page with them put in (the rows of sizes `scale` did not measure
 * kept), written into `docs`; and each size's chart.
 */
function writeScaleFigures(docs: string, scale: ScaleResult): void {
	for (const size of sizesOf(scale, false))
		writeFileSync(resolve(docs, scaleChartFile(size)), scaleChart(scale, size));
	const scalingPage = readFileSync(resolve(COMMITTED_DOCS, 'scaling.md'), 'utf8');
	const kept = keptScalingRows(scalingPage, scale);
	writeFileSync(
		resolve(docs, 'scaling.md'),
		replaceMeasuredBlock(scalingPage, scalingDocBlock(scale, today(), machineName(), kept)),
	);
}

/** The whole report, the charts and the figures in scaling.md, written into `docs`; `minutes`: the run's. */
export function writeReport(
	docs: string,
	run: FullRun,
	settings: RunSettings,
	minutes: number,
): void {
	writeFileSync(resolve(docs, 'poll-cycle.svg'), pollCycleChart(run.cycles, settings.cycles));
	writeFileSync(resolve(docs, 'poll-cost.svg'), onePollChart(run.polls));
	const sections = [
		targetsSection(run, settings),
		onePollSection(run.polls, settings.onePoll),
		manyPollsSection(run.many, run.profile, cycleCostInN8n(run.scale, run.many.size)),
		staticDataSection(run.largeFormStateBytes),
		memorySection(run.memory, settings.memory),
		flatteningSection(run.flatten),
		cycleSection(run.cycles, run.polls, settings.cycles),
		floorSection(run.floor),
		...keptSection(CYCLE_PROFILE_HEADING),
		scaleSection(run.scale, settings.scale, `\`npm run bench\` on ${today()}`),
		allFormsSection(run.allForms, settings.allForms),
		compressedReadSection(run.compressed, settings.compressedRead),
		slowLinkSection(run.slowLink, settings.slowLink),
		addUserSection(run.addUser, settings.addUser),
		crashSection(resolve(COMMITTED_DOCS, 'crash-suite.json')),
	];
	const report = `# Benchmarks

Written by \`npm run bench\` on ${today()}, a run of ${minutes} minutes. Times are
noisy on a shared machine; the ratios are measured side by side in one run
on the same data and hold.

Machine: ${machineName()}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}.

${sections.join('\n')}`;
	writeFileSync(resolve(docs, 'benchmarks.md'), report);
	// docs/scaling.md quotes the triggers per main (the smoke run writes a copy aside).
	writeScaleFigures(docs, run.scale);
	console.log(
		`wrote ${join(docs, 'benchmarks.md')}, poll-cost.svg, poll-cycle.svg, each size's poll-time-vs-k chart and the figures in scaling.md`,
	);
}

/** What a partial run measured: the sections it was asked for. */
export interface PartialRun {
	manyPolls?: { many: ManyPolls; profile: PollProfile };
	allForms?: AllFormsRow[];
	compressed?: CompressedReadRow[];
	scale?: ScaleResult;
	floor?: FloorRow[];
	cycleProfile?: ProfiledSeries[];
	slowLink?: SlowLinkRow[];
}

/**
 * A partial run's report: the sections it measured, each in place of its
 * own section and target rows in the report the last full run wrote, with a
 * note of what it wrote and when, written into `docs`.
 */
export class PartialReport {
	private readonly committed = readFileSync(resolve(COMMITTED_DOCS, 'benchmarks.md'), 'utf8');

	constructor(
		private readonly docs: string,
		private readonly settings: RunSettings,
		/** The sections asked for, as `--only` names them, and the sizes as `--sizes` does ("scale:10000"). */
		private readonly names: string,
		/** The arguments the run was given (`--only=scale --sizes=10000`). */
		private readonly args: string,
		/** The run's minutes so far. */
		private readonly minutes: () => number,
	) {}

	private note(): string {
		return `${this.names} on ${today()} (\`npm run bench -- ${this.args}\`, a run of ${this.minutes()} minutes), on ${machineName()}, Node ${process.version}; the other sections are from the date above.`;
	}

	/** The sizes it measured, each in place of its own part, rows and chart; the other sizes as their run wrote them. */
	private withScale(report: string, scale: ScaleResult): string {
		writeScaleFigures(this.docs, scale);
		const sizes = sizesOf(scale, false);
		const measuredBy = `\`npm run bench -- ${this.args}\` on ${today()}`;
		const section = putSubsections(
			sectionOf(report, '## Triggers per n8n main'),
			scaleIntro(scale, this.settings.scale),
			sizes.map((size) => scaleSizePart(scale, size, this.settings.scale, measuredBy)),
			sizeOfHeading,
		);
		return putTargetRows(
			putSection(report, section, '## Over a slow link'),
			scaleTargetRows(scale, sizes),
			'One poll over a slow link',
		);
	}

	/** Each configuration of triggers per main takes many minutes: each one finished is written as it ends, and the last write replaces them. */
	readonly scaleSoFar = (soFar: ScaleResult): void =>
		writeFileSync(
			resolve(this.docs, 'benchmarks.md'),
			notePartialRun(this.withScale(this.committed, soFar), this.note()),
		);

	write(run: PartialRun): void {
		const { settings } = this;
		let report = this.committed;
		if (run.manyPolls) {
			const { many, profile } = run.manyPolls;
			report = putSection(
				report,
				manyPollsSection(many, profile, run.scale && cycleCostInN8n(run.scale, many.size)),
				'## Static data',
			);
			report = putTargetRows(report, [manyPollsTargetRow(many)], 'Poll cycle in n8n');
		}
		if (run.scale) report = this.withScale(report, run.scale);
		if (run.allForms) {
			report = putSection(
				report,
				allFormsSection(run.allForms, settings.allForms),
				'## Over a slow link',
			);
			report = putTargetRows(report, allFormsTargetRows(run.allForms), 'Static data');
		}
		if (run.compressed) {
			report = putSection(
				report,
				compressedReadSection(run.compressed, settings.compressedRead),
				'## Over a slow link',
			);
			report = putTargetRows(
				report,
				[compressedReadTargetRow(run.compressed)],
				'One poll over a slow link',
			);
		}
		if (run.floor) {
			report = putSection(report, floorSection(run.floor), '## Triggers per n8n main');
			report = putTargetRows(
				report,
				[floorTargetRow(run.floor, settings.cycles.sizes)],
				'Triggers one n8n main',
			);
		}
		if (run.cycleProfile)
			report = putSection(
				report,
				cycleProfileSection(run.cycleProfile, settings.cycleProfile),
				'## Triggers per n8n main',
			);
		if (run.slowLink) {
			report = putSection(
				report,
				slowLinkSection(run.slowLink, settings.slowLink),
				'## Add User over 1,000 items',
			);
			report = putTargetRows(
				report,
				slowLinkTargetRows(run.slowLink, settings.slowLink),
				'All forms',
			);
		}
		report = notePartialRun(report, this.note());
		writeFileSync(resolve(this.docs, 'benchmarks.md'), report);
		console.log(
			`wrote the ${this.names} sections into ${join(this.docs, 'benchmarks.md')}${run.scale ? ", each size's poll-time-vs-k chart and the figures in scaling.md" : ''}`,
		);
	}
}
