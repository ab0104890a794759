import { putSubsections } from '../reportPatch';
import {
	keptScalingRows,
	MEASURED_BEGIN,
	MEASURED_END,
	replaceMeasuredBlock,
	scaleIntro,
	scaleSection,
	scaleSizePart,
	scaleTargetRows,
	scalingDocBlock,
	sizeOfHeading,
} from './triggersPerMainReport';

describe("the benchmark's figures in docs/scaling.md", () => {
	it('replaces only what lies between the markers, and keeps the markers', () => {
		const doc = `# Scaling\n\nBefore.\n\n${MEASURED_BEGIN}\nold figures\n${MEASURED_END}\n\nAfter.\n`;
		const updated = replaceMeasuredBlock(doc, '| new | figures |\n');
		expect(updated).toBe(
			`# Scaling\n\nBefore.\n\n${MEASURED_BEGIN}\n| new | figures |\n${MEASURED_END}\n\nAfter.\n`,
		);
		expect(replaceMeasuredBlock(updated, 'again')).toContain(
			`${MEASURED_BEGIN}\nagain\n${MEASURED_END}`,
		);
	});

	it('leaves a page without both markers, in order, as it is', () => {
		expect(replaceMeasuredBlock('no markers', 'x')).toBe('no markers');
		expect(replaceMeasuredBlock(`${MEASURED_END} ${MEASURED_BEGIN}`, 'x')).toBe(
			`${MEASURED_END} ${MEASURED_BEGIN}`,
		);
	});
});

import type {
	ScaleConfig,
	ScaleResult,
	ScaleRow,
	ScaleSettings,
	WindowResult,
	Who,
} from './triggersPerMain';

const spread = (median: number) => ({ median, p95: median * 2, max: median * 3 });
function window(
	k: number,
	passed: boolean,
	reasons: string[] = [],
	kind: 'probe' | 'confirm' = 'probe',
): WindowResult {
	const minutes = kind === 'probe' ? 1 : 5;
	const polls = k * minutes;
	return {
		k,
		kind,
		lengthMs: minutes * 60_000,
		judgement: {
			ticks: polls,
			polls,
			missedTicks: 0,
			lateness: spread(20),
			cycle: spread(300),
			overInterval: 0,
			failedExecutions: 0,
			apiMs: spread(40),
			apiOverLimit: 0,
			overlappingTicks: 0,
			pollErrors: 0,
			passed,
			reasons,
		},
		passed,
		// n8n busy 0.1 core at idle plus 100 ms a poll.
		cpu: {
			n8nMs: 0.1 * minutes * 60_000 + 100 * polls,
			emulatorMs: 1000,
			benchMs: 100,
			machineMs: minutes * 60_000,
		},
		rssMaxBytes: 700 * 2 ** 20,
	};
}
function row(who: Who, size: number, k: number, failed?: number, confirmed = true): ScaleRow {
	const config: ScaleConfig = {
		who,
		size,
		compression: false,
		confirm: confirmed,
		start: 1,
		max: 5000,
	};
	const windows = [
		window(k, true),
		...(failed ? [window(failed, false, ['3 of 500 ticks had no poll'])] : []),
	];
	const confirm = confirmed ? window(k, true, [], 'confirm') : undefined;
	if (confirm) windows.push(confirm);
	return { config, bracket: { passed: k, failed, probes: [] }, windows, confirmed: confirm, k };
}
const result = (rows: ScaleRow[]): ScaleResult => ({
	rows,
	emulatorAlone: [],
	idleCores: 0.1,
	n8nVersion: '2.41.1',
	minutes: 40,
});
const settings = {
	probeWindowMs: 60_000,
	confirmWindowMs: 300_000,
	resolution: 0.15,
	newPerMinute: 3,
	peerHistory: 1_000_000,
	emulatorAloneRequests: 0,
} as ScaleSettings;

describe('the triggers-per-main targets', () => {
	it('meets a size only with at least the K targeted and at least 5 times the most the peer could carry', () => {
		const [at1000, at10000] = scaleTargetRows(
			result([
				row('ours', 1000, 400, 460),
				row('peer', 1000, 40, 45, false),
				row('ours', 10_000, 60, 70),
				row('peer', 10_000, 12, 13, false),
			]),
		);
		expect(at1000).toContain('400 (compression off), the peer 40 to 44: ours is at least 9.1x');
		expect(at1000).toMatch(/\| met \|$/);
		// The peer's 12 passed and 13 failed: ours' 60 is 5x its 12, and the most it could carry is 12.
		expect(at10000).toMatch(/\| met \|$/);
	});

	it('misses a size below the K targeted, or short of 5 times the peer, and links what bounds it', () => {
		const [below, short] = scaleTargetRows(
			result([
				row('ours', 1000, 150, 170),
				row('peer', 1000, 10, 11, false),
				row('ours', 10_000, 80, 90),
				row('peer', 10_000, 15, 30, false),
			]),
		);
		expect(below).toContain('(what bounds it: [Triggers per n8n main](#triggers-per-n8n-main))');
		expect(below).toMatch(/\*\*not met\*\* \|$/);
		// The peer passed 15 and failed 30: it may carry up to 29; 80 is 5 times its 15 but not 5 times 29.
		expect(short).toMatch(/\*\*not met\*\* \|$/);
		expect(scaleTargetRows(result([]))[0]).toContain('not measured');
	});

	it('takes a peer that failed at a fifth of ours as carrying fewer, and one that only passed as not bounded', () => {
		const failedAtAFifth: ScaleRow = {
			...row('peer', 1000, 0, 80, false),
			k: 0,
			bracket: { passed: 0, failed: 80, probes: [] },
		};
		expect(scaleTargetRows(result([row('ours', 1000, 400, 460), failedAtAFifth]))[0]).toMatch(
			/the peer fewer than 80: ours is at least 5\.1x; n8n's trivial trigger not measured \| met \|$/,
		);
		// Failing at a fifth of the target (10 on 10,000-inquiry forms) bounds it lower still, and says how it was tried.
		const peerConfig: ScaleConfig = {
			who: 'peer',
			size: 10_000,
			compression: false,
			confirm: false,
			start: 1,
			max: 3200,
			relativeTo: {
				who: 'ours',
				size: 10_000,
				compression: false,
				factors: [0.2],
				maxProbes: 2,
				firstAt: 10,
			},
		};
		const failedAtTargetFifth: ScaleRow = {
			config: peerConfig,
			k: 0,
			bracket: { passed: 0, failed: 10, probes: [] },
			windows: [window(10, false, ['the editor API took more than 1000 ms'])],
		};
		const ours10k = row('ours', 10_000, 159, 200);
		expect(scaleTargetRows(result([ours10k, failedAtTargetFifth]))[1]).toMatch(
			/the peer fewer than 10: ours is at least 17\.7x; n8n's trivial trigger not measured \| met \|$/,
		);
		expect(scaleSection(result([ours10k, failedAtTargetFifth]), settings)).toContain(
			'| 1 1-minute window at K 10: 10 first (a fifth of the target), then a fifth of the K of App Builder Trigger, 10,000, compression off, until one fails |',
		);
		const onlyPassed: ScaleRow = {
			...row('peer', 1000, 80, undefined, false),
			bracket: { passed: 80, probes: [] },
		};
		expect(scaleTargetRows(result([row('ours', 1000, 400, 460), onlyPassed]))[0]).toMatch(
			/the peer 80 or more; n8n's trivial trigger not measured \| \*\*not met\*\* \|$/,
		);
	});

	it('reports n8n CPU per poll cycle less its idle share, and what failed first above K', () => {
		const text = scaleSection(result([row('ours', 1000, 400, 460)]), settings);
		// 0.1 core idle over the window is taken off: (30,000 + 200,000 - 30,000) ms / 2,000 polls in the 5-minute confirmation.
		expect(text).toContain('| App Builder Trigger | off | **400** (460 failed) |');
		expect(text).toContain('| 100 ms |');
		expect(text).toContain('at 460: 3 of 500 ticks had no poll');
		expect(text).toContain('then 5 minutes at K with every lead checked');
		expect(
			scalingDocBlock(
				result([row('ours', 1000, 400, 460), row('peer', 1000, 40, 45, false)]),
				'2026-11-24',
				'a machine',
			),
		).toContain(
			'| 1,000 | off | 400 | 40 to 44 | - | - | 100 ms | at 460: 3 of 500 ticks had no poll |',
		);
		// A peer that failed at the one K it was tried at carries fewer than that, not none.
		const failedAtAFifth: ScaleRow = {
			...row('peer', 1000, 0, 80, false),
			k: 0,
			bracket: { passed: 0, failed: 80, probes: [] },
		};
		expect(
			scalingDocBlock(
				result([row('ours', 1000, 400, 460), failedAtAFifth]),
				'2026-11-24',
				'a machine',
			),
		).toContain('| 1,000 | off | 400 | fewer than 80 |');
	});
});

describe("ours against n8n's own ceiling", () => {
	const rows = [
		row('ours', 1000, 400, 460),
		row('n8n', 1000, 800, 900, false),
		row('peer', 1000, 40, 45, false),
		row('ours', 10_000, 60, 70),
		row('n8n', 10_000, 240, 241, false),
		row('peer', 10_000, 12, 13, false),
	];

	it("gives K ours / K n8n's trivial trigger at each size, in the targets, the section and the scaling page", () => {
		const [at1000, at10000] = scaleTargetRows(result(rows));
		// 400 / 800; its failure at 900 lets it carry up to 899, and 400 / 899 is 0.44.
		expect(at1000).toContain(
			"the peer 40 to 44: ours is at least 9.1x; n8n's trivial trigger 800 to 899: ours / n8n's = 0.50 (0.44 if it carries 899) | met |",
		);
		// Bisected to one: 60 / 240, and nothing else it could carry.
		expect(at10000).toContain("n8n's trivial trigger 240: ours / n8n's = 0.25 | met |");
		const text = scaleSection(result(rows), settings);
		const [, at1000Part, at10000Part] = text.split('\n### ');
		expect(at1000Part).toContain(
			"(compression off): ours 400, n8n's trivial trigger 800 to 899: ours / n8n's = 0.50 (0.44 if it carries 899).",
		);
		expect(at10000Part).toContain(
			"(compression off): ours 60, n8n's trivial trigger 240: ours / n8n's = 0.25.",
		);
		expect(at1000Part).toContain(
			"| n8n's trivial trigger | off | **800** (900 failed) | 2 1-minute windows (no longer window) |",
		);
		expect(text).toContain("so K ours / K n8n's errs against ours");
		expect(scalingDocBlock(result(rows), '2026-11-28', 'a machine')).toContain(
			'| 10,000 | off | 60 | 12 | 240 | 0.25 | 100 ms |',
		);
	});

	it('bounds the ratio where n8n never failed or never passed, and sets ours against the same coding', () => {
		const neverFailed: ScaleRow = {
			...row('n8n', 1000, 1600, undefined, false),
			bracket: { passed: 1600, probes: [] },
		};
		// It carries 1,600 or more: ours' 400 is at most a quarter of it.
		expect(scaleTargetRows(result([row('ours', 1000, 400, 460), neverFailed]))[0]).toContain(
			"n8n's trivial trigger 1600 or more: ours / n8n's is at most 0.25 |",
		);
		const neverPassed: ScaleRow = {
			...row('n8n', 1000, 0, 80, false),
			k: 0,
			bracket: { passed: 0, failed: 80, probes: [] },
		};
		// Fewer than 80: ours' 400 is at least 400 / 79.
		expect(scaleTargetRows(result([row('ours', 1000, 400, 460), neverPassed]))[0]).toContain(
			"n8n's trivial trigger fewer than 80: ours / n8n's is at least 5.06 |",
		);
		const compressed = (r: ScaleRow): ScaleRow => ({
			...r,
			config: { ...r.config, compression: true },
		});
		const [at1000] = scaleTargetRows(
			result([
				row('ours', 1000, 400, 460),
				compressed(row('n8n', 1000, 100, 101, false)),
				row('n8n', 1000, 1000, 1001, false),
			]),
		);
		expect(at1000).toContain("n8n's trivial trigger 1000: ours / n8n's = 0.40 |");
		expect(
			scalingDocBlock(
				result([
					row('ours', 1000, 400, 460),
					compressed(row('ours', 1000, 300, 400)),
					compressed(row('n8n', 1000, 100, 101, false)),
				]),
				'2026-11-28',
				'a machine',
			),
		).toContain('| 1,000 | on | 300 | - | 100 | 3.00 |');
	});
});

describe('a K confirmed below the largest probe that passed', () => {
	it('says how far the probes passed, and the method names both limits when set', () => {
		const confirmedLower = row('ours', 1000, 376, 658);
		confirmedLower.windows.splice(1, 0, window(564, true));
		confirmedLower.bracket = { passed: 564, failed: 658, probes: [] };
		const limited = {
			...settings,
			probeUpToN8nCores: 1.9,
			confirmUpToN8nCores: 1.35,
			confirmStepDown: 0.85,
		};
		const text = scaleSection(result([confirmedLower]), limited);
		expect(text).toContain('| **376** (658 failed; 1-minute probes passed up to 564) |');
		// A configuration measured against it names the Ks it was tried at, not the factors it might have been.
		const compressed: ScaleRow = {
			config: {
				who: 'ours',
				size: 1000,
				compression: true,
				confirm: false,
				start: 1,
				max: 3200,
				relativeTo: {
					who: 'ours',
					size: 1000,
					compression: false,
					factors: [1, 0.8],
					maxProbes: 2,
				},
			},
			bracket: { passed: 376, failed: 658, probes: [] },
			windows: [window(376, true), window(658, false)],
			k: 376,
		};
		expect(scaleSection(result([confirmedLower, compressed]), limited)).toContain(
			'| 2 1-minute windows at K 376, then 658, against the K of App Builder Trigger, 1,000, compression off |',
		);
		expect(text).toContain(
			"never past the K at which the last pass's CPU per poll says n8n would need 1.9 cores",
		);
		expect(text).toContain(
			'where n8n would use 1.35 cores, projected from the passing probe that cost it the most CPU per trigger',
		);
		expect(text).toContain(
			'a confirmation that fails is followed by one at 85% of its K, with no probe first',
		);
		const plain = scaleSection(result([row('ours', 1000, 400, 460)]), settings);
		expect(plain).toContain('**400** (460 failed) |');
		expect(plain).not.toContain('cores, which fails surely');
		expect(plain).not.toContain('at or below');
	});
});

describe('a triggers-per-main section written while the run goes on', () => {
	it('says the run was unfinished and names what it had not measured, until the last write', () => {
		const pendingPeer: ScaleConfig = {
			who: 'peer',
			size: 10_000,
			compression: false,
			confirm: false,
			start: 1,
			max: 100,
		};
		const unfinished = scaleSection(
			{ ...result([row('ours', 1000, 400, 460)]), pending: [pendingPeer] },
			settings,
		);
		expect(unfinished).toContain(
			'**An unfinished run**: what it had measured after 40 minutes; not measured: peer, 10,000, compression off.',
		);
		// The size it finished says so; neither says how long the run took, which it has not.
		expect(unfinished).toContain(
			'**An unfinished run**: what it had measured after 40 minutes; every configuration of this size measured.',
		);
		expect(unfinished).not.toContain('The run took');
		const finished = scaleSection(result([row('ours', 1000, 400, 460)]), settings);
		expect(finished).toContain('The run took 40 minutes over this section.');
		expect(finished).not.toContain('unfinished');
	});
});

describe('one size measured alone', () => {
	const earlier = result([
		row('ours', 1000, 400, 460),
		row('n8n', 1000, 800, 900, false),
		row('ours', 10_000, 60, 70),
		row('n8n', 10_000, 240, 241, false),
	]);
	const tenThousandAlone: ScaleResult = {
		...result([row('ours', 10_000, 90, 110), row('n8n', 10_000, 300, 360, false)]),
		idleCores: 0.07,
	};

	it("puts that size's part in place of its own and keeps the other size's part as its run wrote it", () => {
		const committed = scaleSection(earlier, settings, '`npm run bench` on 2026-11-27');
		const after = putSubsections(
			committed,
			scaleIntro(tenThousandAlone, settings),
			[
				scaleSizePart(
					tenThousandAlone,
					10_000,
					settings,
					'`npm run bench -- --only=scale --sizes=10000` on 2026-11-28',
				),
			],
			sizeOfHeading,
		);
		const [intro, at1000, at10000, ...more] = after.split('\n### ');
		expect(more).toEqual([]);
		expect(intro).toContain('## Triggers per n8n main');
		expect(at1000).toBe(committed.split('\n### ')[1].trimEnd() + '\n');
		expect(at1000).toContain('Measured by `npm run bench` on 2026-11-27; n8n idle 0.100 cores.');
		expect(at10000).toMatch(/^On forms of 10,000 inquiries\n/);
		expect(at10000).toContain(
			'Measured by `npm run bench -- --only=scale --sizes=10000` on 2026-11-28; n8n idle 0.070 cores.',
		);
		// Ours and n8n's at 10,000 both from the new run: 90 / 300.
		expect(at10000).toContain("ours 90, n8n's trivial trigger 300 to 359: ours / n8n's = 0.30");
		expect(after).not.toContain('ours 60,');
		expect(after).toContain('![Poll cycle against K, forms of 10,000](poll-time-vs-k-10000.svg)');
		expect(after).toContain('![Poll cycle against K, forms of 1,000](poll-time-vs-k-1000.svg)');
	});

	it('adds a size the report did not have in its order, and orders parts by size', () => {
		const onlyLarge = scaleSection(tenThousandAlone, settings, 'a run');
		const oneThousand = scaleSizePart(earlier, 1000, settings, 'another run');
		const after = putSubsections(
			onlyLarge,
			scaleIntro(earlier, settings),
			[oneThousand],
			sizeOfHeading,
		);
		expect(after.indexOf('### On forms of 1,000 inquiries')).toBeGreaterThan(0);
		expect(after.indexOf('### On forms of 1,000 inquiries')).toBeLessThan(
			after.indexOf('### On forms of 10,000 inquiries'),
		);
		expect(sizeOfHeading('### On forms of 10,000 inquiries')).toBe(10_000);
	});

	it('gives the target row of the size measured alone, and in docs/scaling.md keeps the rows of the other size', () => {
		expect(scaleTargetRows(tenThousandAlone, [10_000])).toHaveLength(1);
		expect(scaleTargetRows(tenThousandAlone, [10_000])[0]).toContain('each on a form of 10,000 |');
		const page = `# Scaling\n\n${MEASURED_BEGIN}\n${scalingDocBlock(earlier, '2026-11-27', 'a machine')}\n${MEASURED_END}\n`;
		const kept = keptScalingRows(page, tenThousandAlone);
		// A page without both markers has no rows to keep.
		expect(keptScalingRows(page.replace(MEASURED_END, ''), tenThousandAlone)).toEqual([]);
		expect(kept).toEqual([
			expect.stringMatching(/^\| 1,000 \| off \| 400 \|.*\| 2026-11-27, n8n 2\.41\.1 \|$/),
		]);
		const block = scalingDocBlock(tenThousandAlone, '2026-11-28', 'a machine', kept);
		const rows = block.split('\n').filter((line) => /^\| [\d,]+ \|/.test(line));
		expect(rows).toEqual([
			kept[0],
			expect.stringMatching(
				/^\| 10,000 \| off \| 90 \|.*\| 0\.30 .*\| 2026-11-28, n8n 2\.41\.1 \|$/,
			),
		]);
	});
});
