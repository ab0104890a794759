/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports, no-console -- n8n Cloud's limits are for nodes; this runs on Node itself (timers, process, built-in modules); it prints its progress and figures */
/**
 * npm run bench: the trigger's poll against the physical floor (fetching the
 * same body over loopback and JSON.parse of it), and in a real n8n the
 * trigger and the App Builder node against the same jobs built from n8n's own
 * nodes, measured side by side in one run on the same emulator data,
 * reported as ratios. Each section of the report is measured by its file in
 * sections/, in the order below; report.ts writes the report. `--smoke` runs
 * a small, fast version (part of the test command), checks what it can, and
 * writes its report aside.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { freePort } from '../test/e2e/n8nInstance';
import { EmulatorProcess } from './lib/emulatorProcess';
import { N8nForBench } from './lib/n8nForBench';
import { COMMITTED_DOCS, PartialReport, writeReport } from './report';
import { settingsFor, withScaleSizes } from './settings';
import { measureAddUser } from './sections/addUser';
import { measureAllForms } from './sections/allForms';
import { measureCompressedRead } from './sections/compressedRead';
import { measureCycleProfile } from './sections/cycleProfile';
import { FLATTENED_RECORDS, flattenThroughput } from './sections/flattening';
import { runManyPolls } from './sections/manyPolls';
import { measureMemory } from './sections/memory';
import { measureCyclesWithFloor, measureFloorAlone } from './sections/n8nFloor';
import { measurePolls } from './sections/onePoll';
import { measureSlowLink, measureSlowLinkAlone, type SlowLinkRow } from './sections/slowLink';
import { stateSizeOfLargeForm } from './sections/staticData';
import {
	checkNoLeadTwice,
	measureTriggersPerMain,
	SCALE_N8N_ENV,
} from './sections/triggersPerMain';

const SMOKE = process.argv.includes('--smoke');
const SETTINGS = withScaleSizes(settingsFor(SMOKE ? 'smoke' : 'full'), process.argv);
const RUN_STARTED = Date.now();
const runMinutes = () => Math.round((Date.now() - RUN_STARTED) / 60_000);
let sectionStarted = RUN_STARTED;
/** Prints how long the section just ended took, so a run's log shows where its time goes. */
function sectionDone(name: string): void {
	console.log(
		`bench  ${name}: ${((Date.now() - sectionStarted) / 60_000).toFixed(1)} minutes (${runMinutes()} since the start)`,
	);
	sectionStarted = Date.now();
}
/**
 * `--only=manyPolls,allForms,scale`: those sections alone, put into the report
 * the last full run wrote (each in place of its own section and target rows),
 * with a note of what the partial run wrote and when. `floor`: n8n's own floor
 * and ours' cycles against it (not the peer); `cycleProfile`: where a cycle's
 * time goes in n8n, profiled, which only a partial run measures (a full run
 * keeps the section the last one wrote); `slowLink`: one poll over a slow link,
 * in an n8n of its own for the peer.
 */
const ONLY_SECTIONS = [
	'manyPolls',
	'allForms',
	'scale',
	'floor',
	'cycleProfile',
	'compressedRead',
	'slowLink',
] as const;
type OnlySection = (typeof ONLY_SECTIONS)[number];
const ONLY = onlySections(process.argv);

function onlySections(argv: string[]): Set<OnlySection> | undefined {
	const given = argv.find((arg) => arg.startsWith('--only='));
	if (!given) return undefined;
	const names = given.slice('--only='.length).split(',').filter(Boolean);
	const unknown = names.filter((name) => !(ONLY_SECTIONS as readonly string[]).includes(name));
	if (names.length === 0 || unknown.length > 0)
		throw new Error(
			`--only takes some of ${ONLY_SECTIONS.join(', ')}, separated by commas; not ${JSON.stringify(unknown.join(',') || given)}`,
		);
	return new Set(names as OnlySection[]);
}

/** Where the report goes: docs/, or for the smoke run a folder aside, so the report's templates run on every test run too. */
const reportFolder = () =>
	SMOKE ? mkdtempSync(join(tmpdir(), 'appbuilder-bench-report-')) : COMMITTED_DOCS;

async function main(): Promise<void> {
	const emulator = await EmulatorProcess.start(await freePort());
	try {
		if (ONLY) return await runSectionsOnly(emulator, ONLY);
		const polls = await measurePolls(emulator, SETTINGS.onePoll);
		sectionDone('one poll against the floor');
		const compressed = await measureCompressedRead(emulator, SETTINGS.compressedRead);
		sectionDone('reading a compressed answer');
		const { many, profile } = await runManyPolls(emulator, SETTINGS.manyPolls);
		sectionDone('a small form, many times');
		const { memory, records } = await measureMemory(emulator, SETTINGS.memory);
		const flatten = flattenThroughput(records.slice(0, FLATTENED_RECORDS));
		const largeFormStateBytes = stateSizeOfLargeForm(SETTINGS.staticData);
		sectionDone('memory, flattening and static data');
		const allForms = await measureAllForms(emulator, SETTINGS.allForms);
		sectionDone('every form of an app');
		const inN8n = await measureInN8n(emulator, polls[0].stateBytes);
		checkNoLeadTwice(inN8n.scale);
		const docs = reportFolder();
		writeReport(
			docs,
			{
				polls,
				many,
				profile,
				largeFormStateBytes,
				memory,
				flatten,
				allForms,
				compressed,
				...inN8n,
			},
			SETTINGS,
			runMinutes(),
		);
		if (SMOKE) rmSync(docs, { recursive: true });
		console.log(
			`ratio of one poll to the floor at ${memory.largest}: ${polls[polls.length - 1].ratio.toFixed(2)}`,
		);
	} finally {
		await emulator.stop();
	}
}

/**
 * The sections measured in real n8n, the packed package installed.
 * `stateBytes`: the size of ours' saved state, which the trivial trigger also
 * keeps in one of its runs.
 */
async function measureInN8n(emulator: EmulatorProcess, stateBytes: number) {
	if (SMOKE) return await smokeInOneN8n(emulator, stateBytes);
	const first = await N8nForBench.start(emulator.webUrl, {}, { logMajorGcs: true });
	let inFirst: Awaited<ReturnType<typeof measureCyclesIn>>;
	try {
		inFirst = await measureCyclesIn(emulator, first, stateBytes);
	} finally {
		await first.stop();
	}
	sectionDone("Add User, poll cycles and n8n's own floor in n8n");
	// The peer's largest runs can leave n8n out of memory or still saving: the slow link gets an n8n of its own.
	const bench = await N8nForBench.start(emulator.webUrl);
	let slowLink: SlowLinkRow[];
	try {
		slowLink = await measureSlowLink(emulator, bench, SETTINGS.slowLink);
		sectionDone('over a slow link');
	} finally {
		await bench.stop();
	}
	// Triggers per main in a fresh n8n, whose memory it reports.
	const scale = await measureTriggersPerMain(emulator, SETTINGS.scale);
	sectionDone('triggers per main');
	return { ...inFirst, slowLink, scale };
}

/**
 * The smoke run's n8n sections, all in one n8n (its poll metrics on, its
 * major collections logged): the same paths as the full run's, for one
 * build and one start of n8n instead of two.
 */
async function smokeInOneN8n(emulator: EmulatorProcess, stateBytes: number) {
	const bench = await N8nForBench.start(emulator.webUrl, SCALE_N8N_ENV, { logMajorGcs: true });
	sectionDone('n8n built, installed and started');
	try {
		const inFirst = await measureCyclesIn(emulator, bench, stateBytes);
		sectionDone("Add User, poll cycles and n8n's own floor in n8n");
		const slowLink = await measureSlowLink(emulator, bench, SETTINGS.slowLink);
		sectionDone('over a slow link');
		const scale = await measureTriggersPerMain(emulator, SETTINGS.scale, bench);
		sectionDone('triggers per main');
		return { ...inFirst, slowLink, scale };
	} finally {
		await bench.stop();
	}
}

/** Add User, then the poll cycles against the peer with n8n's own floor alongside, in an n8n that logs its major collections. */
async function measureCyclesIn(emulator: EmulatorProcess, bench: N8nForBench, stateBytes: number) {
	const addUser = await measureAddUser(emulator, bench, SETTINGS.addUser);
	const { cycles, floor } = await measureCyclesWithFloor(
		emulator,
		bench,
		stateBytes,
		SETTINGS.cycles,
	);
	return { addUser, cycles, floor };
}

/** The sections `only` names, measured as the full run measures them and put into the report the last full run wrote. */
async function runSectionsOnly(emulator: EmulatorProcess, only: Set<OnlySection>): Promise<void> {
	const manyPolls = only.has('manyPolls')
		? await runManyPolls(emulator, SETTINGS.manyPolls)
		: undefined;
	// The smoke run writes into a copy, so the patching is exercised and the committed report stays as it is.
	const docs = reportFolder();
	const sizes = process.argv.find((arg) => arg.startsWith('--sizes='));
	const report = new PartialReport(
		docs,
		SETTINGS,
		[...only].join(',') + (sizes ? `:${sizes.slice('--sizes='.length)}` : ''),
		[`--only=${[...only].join(',')}`, ...(sizes ? [sizes] : [])].join(' '),
		runMinutes,
	);
	const allForms = only.has('allForms')
		? await measureAllForms(emulator, SETTINGS.allForms)
		: undefined;
	const compressed = only.has('compressedRead')
		? await measureCompressedRead(emulator, SETTINGS.compressedRead)
		: undefined;
	const scale = only.has('scale')
		? await measureTriggersPerMain(emulator, SETTINGS.scale, undefined, report.scaleSoFar)
		: undefined;
	if (scale) checkNoLeadTwice(scale);
	const floor = only.has('floor') ? await measureFloorAlone(emulator, SETTINGS.cycles) : undefined;
	const cycleProfile = only.has('cycleProfile')
		? await measureCycleProfile(emulator, SETTINGS.cycleProfile)
		: undefined;
	const slowLink = only.has('slowLink')
		? await measureSlowLinkAlone(emulator, SETTINGS.slowLink)
		: undefined;
	report.write({ manyPolls, allForms, compressed, scale, floor, cycleProfile, slowLink });
	if (SMOKE) rmSync(docs, { recursive: true });
}

main().catch((error) => {
	console.error(error);
	process.exit(1);
});
