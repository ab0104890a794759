/**
 * Where a CPU profile's time went, by the part of the code that spent it.
 * Each sample is charged to the innermost frame on its stack that belongs to
 * a named part (walking from the leaf towards the root), so time spent in
 * Node's own code on behalf of a part (copying a Buffer for the list of
 * kept records, say) counts for that part. Samples with no named frame on
 * their stack count as "other"; idle time (waiting for the network) is kept
 * apart from busy time.
 */

/** The subset of a V8 CPU profile (Profiler.stop, or --cpu-prof) read here. */
export interface CpuProfile {
	nodes: Array<{
		id: number;
		callFrame: { functionName: string; url: string };
		children?: number[];
	}>;
	startTime: number;
	endTime: number;
	samples: number[];
	timeDeltas: number[];
}

export interface ProfilePart {
	name: string;
	/** Whether a frame belongs to this part, from its script's URL and its function's name. */
	matches: (url: string, functionName: string) => boolean;
	/** For a part of the package's own code: the files it takes, by path under nodes/ (a folder ends with "/"). */
	packagePaths?: string[];
}

export interface PartTime {
	name: string;
	ms: number;
	/** Of the busy time (every sample but idle ones). */
	share: number;
}

export interface ProfileSummary {
	busyMs: number;
	idleMs: number;
	parts: PartTime[];
}

const GARBAGE_COLLECTOR = '(garbage collector)';
const IDLE = '(idle)';

/**
 * The part each profile node's samples go to: the innermost frame on its
 * stack that belongs to a named part. The garbage collector is a part of its
 * own: V8 puts its samples at the root, with no stack of whoever allocated.
 */
function partResolver(profile: CpuProfile, parts: readonly ProfilePart[]): (id: number) => string {
	const parentOf = new Map<number, number>();
	const byId = new Map(profile.nodes.map((node) => [node.id, node]));
	for (const node of profile.nodes)
		for (const child of node.children ?? []) parentOf.set(child, node.id);

	// The part each profile node's samples go to, found once per node.
	const partOf = new Map<number, string>();
	const partFor = (id: number): string => {
		const known = partOf.get(id);
		if (known !== undefined) return known;
		const frame = byId.get(id)?.callFrame;
		let part: string;
		if (frame === undefined) part = 'other';
		else if (frame.functionName === IDLE) part = IDLE;
		else if (frame.functionName === GARBAGE_COLLECTOR) part = 'garbage collection';
		else {
			const own = parts.find((candidate) => candidate.matches(frame.url, frame.functionName))?.name;
			const parent = parentOf.get(id);
			part = own ?? (parent === undefined ? 'other' : partFor(parent));
		}
		partOf.set(id, part);
		return part;
	};
	return partFor;
}

function summaryOf(msBy: Map<string, number>, parts: readonly ProfilePart[]): ProfileSummary {
	const idleMs = msBy.get(IDLE) ?? 0;
	msBy.delete(IDLE);
	const busyMs = [...msBy.values()].reduce((sum, ms) => sum + ms, 0);
	const order = [...parts.map((part) => part.name), 'garbage collection', 'other'];
	const summary = order
		.filter((name) => msBy.has(name))
		.map((name) => ({
			name,
			ms: msBy.get(name) as number,
			share: busyMs > 0 ? (msBy.get(name) as number) / busyMs : 0,
		}));
	return { busyMs, idleMs, parts: summary };
}

export function summarizeProfile(
	profile: CpuProfile,
	parts: readonly ProfilePart[],
): ProfileSummary {
	const partFor = partResolver(profile, parts);
	const msBy = new Map<string, number>();
	profile.samples.forEach((id, index) => {
		// Each sample stands for the time until the next one; the deltas are in microseconds.
		const ms = (profile.timeDeltas[index + 1] ?? 0) / 1000;
		const part = partFor(id);
		msBy.set(part, (msBy.get(part) ?? 0) + ms);
	});
	return summaryOf(msBy, parts);
}

/** A span of a profile's clock (microseconds, as its startTime): from `fromUs`, up to but not including `toUs`. */
export interface ProfileWindow {
	fromUs: number;
	toUs: number;
}

/**
 * Where the time of each window went: a sample counts for the window it was
 * taken in, and lasts until the next sample (the profile's clock is the
 * machine's monotonic clock, as process.hrtime's).
 */
export function summarizeWindows(
	profile: CpuProfile,
	parts: readonly ProfilePart[],
	windows: readonly ProfileWindow[],
): ProfileSummary[] {
	const partFor = partResolver(profile, parts);
	const msBy = windows.map(() => new Map<string, number>());
	let at = profile.startTime;
	profile.samples.forEach((id, index) => {
		at += profile.timeDeltas[index] ?? 0;
		const window = windows.findIndex((w) => at >= w.fromUs && at < w.toUs);
		if (window < 0) return;
		const ms = (profile.timeDeltas[index + 1] ?? 0) / 1000;
		const part = partFor(id);
		msBy[window].set(part, (msBy[window].get(part) ?? 0) + ms);
	});
	return msBy.map((byPart) => summaryOf(byPart, parts));
}
