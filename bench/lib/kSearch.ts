/**
 * The largest number of triggers that passes a test, found by doubling and
 * then bisecting. Passing is taken to be monotone (if K triggers keep their
 * minute, fewer do too), so one pass vouches for every smaller K and one
 * failure for every larger one; each probe is a window of real polling, so
 * the search asks as few as it can.
 */
export interface KSearchSettings {
	/** The first K tried. */
	start: number;
	/** Never tried above this; a pass here ends the search with no failure found. */
	max: number;
	/** Bisecting stops once the failure is within this share of the pass above it (0.1: within 10 %). */
	resolution: number;
	/**
	 * Where to go after the first pass, given what it measured: the next K to
	 * try, at least double the pass (a guess from the CPU a poll took, so the
	 * doublings that would surely pass are skipped). Default: double.
	 */
	nextAfterFirstPass?: (passedK: number) => number;
	/**
	 * The most worth trying after a pass, given what it measured (the K at
	 * which n8n would need more than the machine has surely fails, and costs
	 * minutes of an overloaded n8n to find out): the doubling stops there,
	 * though always a step of `resolution` above the pass. Default: no limit.
	 */
	mostAfterPass?: (passedK: number) => number;
}

export interface KProbe {
	k: number;
	passed: boolean;
}

export interface KBracket {
	/** The largest K that passed; 0 when even the smallest failed. */
	passed: number;
	/** The smallest K that failed; undefined when none failed up to `max`. */
	failed?: number;
	probes: KProbe[];
}

/** Whether the search may stop: a failure within `resolution` of the pass, or nothing between them. */
export function bracketIsNarrow(passed: number, failed: number, resolution: number): boolean {
	return failed - passed <= Math.max(1, Math.floor(resolution * passed));
}

/**
 * A probe that keeps the bracket as it goes: each K tried is recorded, a pass
 * raises the largest pass, a failure lowers the smallest failure.
 */
function recording(probe: (k: number) => Promise<boolean>) {
	const bracket: KBracket = { passed: 0, failed: undefined, probes: [] };
	const tryK = async (k: number) => {
		const ok = await probe(k);
		bracket.probes.push({ k, passed: ok });
		if (ok) bracket.passed = Math.max(bracket.passed, k);
		else bracket.failed = bracket.failed === undefined ? k : Math.min(bracket.failed, k);
		return ok;
	};
	return { bracket, tryK };
}

export async function findLargestK(
	settings: KSearchSettings,
	probe: (k: number) => Promise<boolean>,
): Promise<KBracket> {
	const { bracket, tryK } = recording(probe);

	// Doubling: up from the start until a failure or the ceiling.
	let k = Math.min(settings.start, settings.max);
	let first = true;
	while (k > bracket.passed) {
		if (!(await tryK(k))) break;
		if (k >= settings.max) break;
		const next =
			first && settings.nextAfterFirstPass
				? Math.max(k * 2, Math.round(settings.nextAfterFirstPass(k)))
				: k * 2;
		const most = settings.mostAfterPass
			? Math.max(Math.floor(settings.mostAfterPass(k)), k + 1 + Math.floor(settings.resolution * k))
			: next;
		first = false;
		k = Math.min(settings.max, next, most);
	}

	// Bisecting between the largest pass and the smallest failure.
	while (
		bracket.failed !== undefined &&
		!bracketIsNarrow(bracket.passed, bracket.failed, settings.resolution)
	) {
		await tryK(Math.floor((bracket.passed + bracket.failed) / 2));
	}
	return bracket;
}

/**
 * Where one configuration stands against another's K, in a few probes
 * rather than a search of its own: K × each factor in turn, from the
 * largest, until one passes (a failure vouches for every K above it). When
 * the base's own K passes (a factor of 1), the base's first failure is tried
 * next, so a configuration that carries more is seen to. At most
 * `maxProbes` windows.
 */
export async function probeAround(
	base: Pick<KBracket, 'passed' | 'failed'>,
	factors: readonly number[],
	probe: (k: number) => Promise<boolean>,
	maxProbes: number,
): Promise<KBracket> {
	const { bracket, tryK } = recording(probe);
	for (const factor of [...factors].sort((a, b) => b - a)) {
		const k = Math.max(1, Math.floor(base.passed * factor));
		if (
			bracket.probes.length >= maxProbes ||
			(bracket.failed !== undefined && k >= bracket.failed) ||
			k <= bracket.passed
		)
			continue;
		if (await tryK(k)) break;
	}
	if (
		bracket.passed === base.passed &&
		base.failed !== undefined &&
		bracket.probes.length < maxProbes
	)
		await tryK(base.failed);
	return bracket;
}

/**
 * Where a workflow stands when its failing is the finding (the peer, whose
 * failure at a fifth of a K says the other carries more than 5 times what it
 * can): the Ks in turn, smallest first, until one fails (a failure vouches
 * for every K above it). At most `maxProbes` windows.
 */
export async function probeUpward(
	ks: readonly number[],
	probe: (k: number) => Promise<boolean>,
	maxProbes: number,
): Promise<KBracket> {
	const { bracket, tryK } = recording(probe);
	for (const k of [...new Set(ks.map((k) => Math.max(1, Math.floor(k))))].sort((a, b) => a - b)) {
		if (bracket.probes.length >= maxProbes || !(await tryK(k))) break;
	}
	return bracket;
}

/**
 * The K to confirm first: where n8n's load would reach `maxLoad` (its
 * cores), since a longer window at a K whose probe loaded the machine more
 * passes a minute but meets a slow moment over five. Each pass that loaded
 * it more projects that K from its own load per trigger, and the costliest
 * projection is taken (load per trigger grows with K); a lighter pass above
 * that projection is taken instead. Never above the bracket's pass; with no
 * limit, or nothing that passed below it, the bracket's pass.
 */
export function firstKToConfirm(
	probes: ReadonlyArray<KProbe & { load: number }>,
	passed: number,
	maxLoad: number | undefined,
): number {
	if (maxLoad === undefined) return passed;
	const below = probes.filter(
		(probe) => probe.passed && probe.k <= passed && Number.isFinite(probe.load),
	);
	const light = below.filter((probe) => probe.load <= maxLoad).map((probe) => probe.k);
	const projected = below
		.filter((probe) => probe.load > maxLoad)
		.map((probe) => Math.floor((probe.k * maxLoad) / probe.load));
	if (light.length === 0 && projected.length === 0) return passed;
	const fromHeavy = projected.length > 0 ? Math.min(...projected) : 0;
	return Math.min(passed, Math.max(1, fromHeavy, ...light));
}

/**
 * Confirms a K over a longer window, from `first` down: after a failure, the
 * next is at its K × `stepDown`, with no probe first. Probes passed above it
 * already, so what fails the longer window is a rare slow moment, which a K
 * a few percent lower meets as often (one run failed 399, then 388). The K
 * confirmed, or undefined when none of `attempts` passed.
 */
export async function confirmSteppingDown(
	first: number,
	stepDown: number,
	attempts: number,
	confirm: (k: number) => Promise<boolean>,
): Promise<number | undefined> {
	let k = first;
	for (let attempt = 0; attempt < attempts && k >= 1; attempt++) {
		if (await confirm(k)) return k;
		k = Math.floor(k * stepDown);
	}
	return undefined;
}
