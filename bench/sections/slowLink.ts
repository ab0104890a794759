/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports, no-console -- n8n Cloud's limits are for nodes; this runs on Node itself (timers, process, built-in modules); it prints its progress and figures */
/**
 * One poll over a slow link: the emulator caps the answer's bytes per second
 * and waits a round trip before answering, with and without compressing the
 * answer. Ours is one poll of the trigger run by n8n-core's PollContext in
 * this process; the floor is the bytes on the wire ÷ the bandwidth + the
 * round trip; the peer is n8n's HTTP Request node in the bench n8n reading
 * the same answer over the same link, its own time as n8n records it.
 */
import { cpus } from 'node:os';

import { PEER_FETCH_NODE, peerFetchWorkflow } from '../lib/benchWorkflows';
import type { EmulatorProcess } from '../lib/emulatorProcess';
import { N8nForBench } from '../lib/n8nForBench';
import { TriggerPoller } from '../lib/triggerPoller';
import { ACCEPT_ENCODING } from '../../nodes/shared/http/contentCoding';
import { median } from '../lib/median';

export interface SlowLinkSettings {
	sizes: number[];
	bandwidthBytesPerSecond: number;
	roundTripMs: number;
	/** Timed polls per size and setting (an odd number: the median is one of them). */
	roundsFor: (size: number) => number;
	newPerPoll: number;
}

/** 50 Mbit/s and a 100 ms round trip; the smoke run takes the same paths on a small form and a fast link. */
export const SLOW_LINK: Record<'full' | 'smoke', SlowLinkSettings> = {
	full: {
		sizes: [10_000, 100_000],
		bandwidthBytesPerSecond: 50_000_000 / 8,
		roundTripMs: 100,
		roundsFor: (size) => (size >= 100_000 ? 1 : 3),
		newPerPoll: 10,
	},
	smoke: {
		sizes: [300],
		bandwidthBytesPerSecond: 50_000_000,
		roundTripMs: 5,
		roundsFor: () => 1,
		newPerPoll: 10,
	},
};

/** The targets: ours within this much of the floor; compression at least this much faster. */
export const SLOW_LINK_FLOOR_TARGET = 1.15;
export const COMPRESSION_TARGET = 5;

export interface SlowLinkRow {
	size: number;
	compression: boolean;
	/** The answer's JSON, and what crossed the socket (compressed when the server compressed it). */
	bodyBytes: number;
	wireBytes: number;
	/** The coding the emulator answered ours in, and the peer. */
	oursEncoding: string;
	peerEncoding?: string;
	floorMs: number;
	oursMs: number;
	/** The emulator's own time for ours' request: from receiving it to the last byte leaving. */
	servedMs: number;
	/** Ours around the answer: from the poll's start to the request reaching the emulator, and from the last byte leaving it to the poll's end. */
	beforeRequestMs: number;
	afterLastByteMs: number;
	peerMs?: number;
	/** The emulator's time for the peer's request, as servedMs for ours. */
	peerServedMs?: number;
	peerNote?: string;
	/** The untimed fetch before ours' median poll, with no cap and no round trip: the emulator building the answer (and compressing it) to keep it. */
	preparedMs: number;
	/** One more poll of ours with no cap and no round trip, in the same coding, the answer prepared: what reading it costs this process (decompressing included). */
	oursUncappedMs: number;
}

interface LoggedAnswer {
	path: string;
	receivedAt: number;
	finishedAt?: number;
	contentEncoding?: string;
	bodyBytes?: number;
	wireBytes?: number;
}

const INQUIRIES_PATH = '/V4/webservices/FormBuilderApi.php';
const now = () => Number(process.hrtime.bigint()) / 1e6;

/** The last inquiries answer the emulator sent, as it logged it. */
async function lastAnswer(emulator: EmulatorProcess): Promise<LoggedAnswer> {
	const answers = ((await emulator.control('GET', '/requests')) as LoggedAnswer[]).filter(
		(entry) => entry.path === INQUIRIES_PATH,
	);
	const last = answers[answers.length - 1];
	if (!last?.finishedAt) throw new Error('the emulator logged no finished inquiries answer');
	return last;
}

/** The least any client can take: the bytes that crossed the wire at the link's bandwidth, after one round trip. */
export function transferFloorMs(
	wireBytes: number,
	settings: Pick<SlowLinkSettings, 'bandwidthBytesPerSecond' | 'roundTripMs'>,
): number {
	return (wireBytes / settings.bandwidthBytesPerSecond) * 1000 + settings.roundTripMs;
}

function slowLink(settings: SlowLinkSettings, compression: boolean) {
	return {
		compression,
		bandwidthBytesPerSecond: settings.bandwidthBytesPerSecond,
		roundTripMs: settings.roundTripMs,
	};
}

/**
 * Has the emulator build the form's answer (and compress it in the coding the
 * trigger will be answered in) and keep it, by fetching it once with the cap
 * and the round trip lifted, then puts the link back: the poll that follows
 * then waits for the link alone, not also for the emulator compressing on the
 * cores it shares with the trigger, which a server of its own would not make
 * it do. The fetch's time is what building the answer costs the emulator.
 */
async function prepareAnswer(
	emulator: EmulatorProcess,
	link: ReturnType<typeof slowLink> | undefined,
): Promise<number> {
	await emulator.configure({ bandwidthBytesPerSecond: null, roundTripMs: 0 });
	const { ms: preparedMs } = await emulator.transfer(ACCEPT_ENCODING);
	if (link) await emulator.configure(link);
	return preparedMs;
}

/** Ours: a first poll on the fast link (the baseline, not timed), then timed polls on the slow one. */
async function measureOurs(
	emulator: EmulatorProcess,
	size: number,
	compression: boolean,
	settings: SlowLinkSettings,
) {
	await emulator.fillForm(size);
	// Kept whole up to this form's size (with the new inquiries), so each answer is built once, before its poll.
	await emulator.configure({ reusedAnswerMaxInquiries: 2 * size });
	const poller = new TriggerPoller(emulator.webUrl);
	await poller.poll();
	const link = slowLink(settings, compression);
	await emulator.configure(link);
	const polls: Array<{
		ms: number;
		answer: LoggedAnswer;
		beforeRequestMs: number;
		afterLastByteMs: number;
		preparedMs: number;
	}> = [];
	for (let round = 0; round < settings.roundsFor(size); round++) {
		await emulator.addNew(settings.newPerPoll);
		const preparedMs = await prepareAnswer(emulator, link);
		// The emulator logs in wall-clock time, so the poll's ends are taken in it too.
		const startedAt = Date.now();
		const start = now();
		const emitted = await poller.poll();
		const pollMs = now() - start;
		const endedAt = Date.now();
		if (emitted !== settings.newPerPoll)
			throw new Error(
				`slow link, ${size}: the poll emitted ${emitted}, expected ${settings.newPerPoll}`,
			);
		const answer = await lastAnswer(emulator);
		polls.push({
			ms: pollMs,
			answer,
			beforeRequestMs: answer.receivedAt - startedAt,
			afterLastByteMs: endedAt - (answer.finishedAt ?? endedAt),
			preparedMs,
		});
	}
	const oursMs = median(polls.map((poll) => poll.ms));
	return { oursMs, poller, ...(polls.find((poll) => poll.ms === oursMs) ?? polls[0]) };
}

/** The peer's HTTP Request node on the same link: its execution time as n8n recorded it, median of the rounds. */
async function measurePeer(
	emulator: EmulatorProcess,
	bench: N8nForBench,
	size: number,
	compression: boolean,
	settings: SlowLinkSettings,
) {
	const path = `bench-slow-link-${size}-${compression ? 'compressed' : 'plain'}`;
	const workflowId = await bench.activate(
		peerFetchWorkflow(bench.credential, emulator.webUrl, path),
	);
	const times: number[] = [];
	const served: number[] = [];
	let encoding: string | undefined;
	let note: string | undefined;
	try {
		for (let round = 1; round <= settings.roundsFor(size); round++) {
			await bench.callWebhook(path, {});
			const execution = await bench.waitForExecution(workflowId, round, 10 * 60_000);
			const run = execution?.data?.resultData.runData[PEER_FETCH_NODE]?.[0];
			const answer = await lastAnswer(emulator);
			encoding = answer.contentEncoding ?? 'identity';
			served.push((answer.finishedAt ?? answer.receivedAt) - answer.receivedAt);
			if (!execution || execution.status !== 'success') {
				note = execution ? `ended with status ${execution.status}` : 'did not finish in 10 min';
				break;
			}
			// n8n may hand back a very large execution without its node data: then the execution's own span, which is the node's and the webhook's.
			if (run) times.push(run.executionTime);
			else {
				times.push(Date.parse(execution.stoppedAt) - Date.parse(execution.startedAt));
				note =
					"n8n returned the execution without its node data (too large): the whole execution's time";
			}
		}
	} finally {
		await bench.deactivate(workflowId);
	}
	return {
		peerMs: times.length > 0 ? median(times) : undefined,
		servedMs: served.length > 0 ? median(served) : undefined,
		encoding,
		note,
	};
}

export async function measureSlowLink(
	emulator: EmulatorProcess,
	bench: N8nForBench,
	settings: SlowLinkSettings,
): Promise<SlowLinkRow[]> {
	const rows: SlowLinkRow[] = [];
	try {
		await measureAll(emulator, bench, settings, rows);
	} finally {
		await emulator.configure({ compression: false, bandwidthBytesPerSecond: null, roundTripMs: 0 });
	}
	return rows;
}

/** `--only=slowLink`: one poll over a slow link, the peer in an n8n of its own as in the full run. */
export async function measureSlowLinkAlone(
	emulator: EmulatorProcess,
	settings: SlowLinkSettings,
): Promise<SlowLinkRow[]> {
	const bench = await N8nForBench.start(emulator.webUrl);
	try {
		return await measureSlowLink(emulator, bench, settings);
	} finally {
		await bench.stop();
	}
}

/** One more poll by the same poller with the cap and the round trip lifted, its answer prepared as the timed ones. */
async function uncappedPoll(
	emulator: EmulatorProcess,
	poller: TriggerPoller,
	newPerPoll: number,
): Promise<number> {
	await emulator.addNew(newPerPoll);
	await prepareAnswer(emulator, undefined);
	const start = now();
	await poller.poll();
	return now() - start;
}

async function measureAll(
	emulator: EmulatorProcess,
	bench: N8nForBench,
	settings: SlowLinkSettings,
	rows: SlowLinkRow[],
): Promise<void> {
	for (const size of settings.sizes) {
		for (const compression of [false, true]) {
			const ours = await measureOurs(emulator, size, compression, settings);
			// The peer reads the same form as ours' median poll did, within a few new inquiries.
			const peer = await measurePeer(emulator, bench, size, compression, settings);
			const wireBytes = ours.answer.wireBytes ?? 0;
			const oursUncapped = await uncappedPoll(emulator, ours.poller, settings.newPerPoll);
			const row: SlowLinkRow = {
				size,
				compression,
				bodyBytes: ours.answer.bodyBytes ?? 0,
				wireBytes,
				oursEncoding: ours.answer.contentEncoding ?? 'identity',
				peerEncoding: peer.encoding,
				floorMs: transferFloorMs(wireBytes, settings),
				oursMs: ours.oursMs,
				servedMs: (ours.answer.finishedAt ?? ours.answer.receivedAt) - ours.answer.receivedAt,
				beforeRequestMs: ours.beforeRequestMs,
				afterLastByteMs: ours.afterLastByteMs,
				peerMs: peer.peerMs,
				peerServedMs: peer.servedMs,
				peerNote: peer.note,
				preparedMs: ours.preparedMs,
				oursUncappedMs: oursUncapped,
			};
			// A compressed row the server did not compress would measure nothing: the client must accept a coding.
			if (compression && row.oursEncoding === 'identity')
				throw new Error(
					`slow link, ${size}: the trigger's answer came uncompressed with compression on`,
				);
			rows.push(row);
			console.log(
				`slow   ${String(size).padStart(7)} inquiries  ${compression ? 'compressed' : 'plain     '}  body ${(row.bodyBytes / 1e6).toFixed(1)} MB  wire ${(wireBytes / 1e6).toFixed(1)} MB (${row.oursEncoding})` +
					`  floor ${row.floorMs.toFixed(0)} ms  ours ${row.oursMs.toFixed(0)} ms (before request ${row.beforeRequestMs} ms, served ${row.servedMs} ms, after last byte ${row.afterLastByteMs} ms; answer prepared in ${row.preparedMs.toFixed(0)} ms; uncapped: ours ${row.oursUncappedMs.toFixed(0)} ms)  peer ${row.peerMs ?? '-'} ms (${row.peerEncoding ?? '?'}, served ${row.peerServedMs ?? '-'} ms)${row.peerNote ? ` (${row.peerNote})` : ''}`,
			);
		}
	}
}

const ms = (value: number | undefined) =>
	value === undefined ? '-' : `${Math.round(value).toLocaleString('en')} ms`;
const mb = (bytes: number) => `${(bytes / 1e6).toFixed(1)} MB`;

function pairs(rows: SlowLinkRow[]) {
	const sizes = [...new Set(rows.map((row) => row.size))];
	return sizes.flatMap((size) => {
		const plain = rows.find((row) => row.size === size && !row.compression);
		const compressed = rows.find((row) => row.size === size && row.compression);
		return plain && compressed
			? [{ size, plain, compressed, speedup: plain.oursMs / compressed.oursMs }]
			: [];
	});
}

/** The targets table's two rows. */
export function slowLinkTargetRows(rows: SlowLinkRow[], settings: SlowLinkSettings): string[] {
	const link = linkName(settings);
	const ratios = rows.map((row) => ({ row, ratio: row.oursMs / row.floorMs }));
	const floorMet =
		ratios.length > 0 && ratios.every(({ ratio }) => ratio <= SLOW_LINK_FLOOR_TARGET);
	const floorFigures = ratios
		.map(
			({ row, ratio }) =>
				`${ratio.toFixed(2)}x at ${row.size.toLocaleString('en')} ${row.compression ? 'compressed' : 'plain'}`,
		)
		.join(', ');
	const speedups = pairs(rows);
	const speedMet =
		speedups.length > 0 && speedups.every((pair) => pair.speedup >= COMPRESSION_TARGET);
	const speedFigures = speedups
		.map((pair) => `${pair.speedup.toFixed(1)}x at ${pair.size.toLocaleString('en')}`)
		.join(', ');
	const verdict = (met: boolean) => (met ? 'met' : '**not met**');
	return [
		`| One poll over a slow link (${link}) against the transfer floor | within ${SLOW_LINK_FLOOR_TARGET}x, with and without compression | ${floorFigures || 'not measured'} | ${verdict(floorMet)} |`,
		`| One poll over the slow link, compressed against plain | at least ${COMPRESSION_TARGET}x faster | ${speedFigures || 'not measured'} | ${verdict(speedMet)} |`,
	];
}

function linkName(settings: SlowLinkSettings): string {
	const mbit = (settings.bandwidthBytesPerSecond * 8) / 1e6;
	return `${mbit.toLocaleString('en')} Mbit/s, ${settings.roundTripMs} ms round trip`;
}

/** Where a missed target's time goes, from what was measured. */
function whatBounds(rows: SlowLinkRow[]): string {
	const lines: string[] = [];
	for (const row of rows.filter((r) => r.oursMs / r.floorMs > SLOW_LINK_FLOOR_TARGET)) {
		lines.push(
			`- At ${row.size.toLocaleString('en')}, ${row.compression ? 'compressed' : 'plain'}: the emulator took ${ms(row.servedMs)} from the request to the last byte on the wire against the floor's ${ms(row.floorMs)}; around that, the poll took ${ms(row.beforeRequestMs)} from its start to the request reaching the emulator and ${ms(row.afterLastByteMs)} from the last byte to its end. With no cap and no round trip, a poll of ours reading the same answer in the same coding takes ${ms(row.oursUncappedMs)}: the least this process needs to decode and read it, on ${cpus().length} cores it shares with the emulator and n8n.`,
		);
	}
	for (const pair of pairs(rows).filter((p) => p.speedup < COMPRESSION_TARGET)) {
		const ratio = pair.compressed.bodyBytes / Math.max(1, pair.compressed.wireBytes);
		lines.push(
			`- At ${pair.size.toLocaleString('en')}, compression: the answer shrinks ${ratio.toFixed(1)}x on the wire (${pair.compressed.oursEncoding}), which bounds what the link can gain; with the cap and the round trip lifted, the emulator builds and compresses the answer in ${ms(pair.compressed.preparedMs)} and builds the plain one in ${ms(pair.plain.preparedMs)} (on ${cpus().length} cores shared with n8n and this process), against the compressed floor of ${ms(pair.compressed.floorMs)}.`,
		);
	}
	return lines.length === 0
		? ''
		: `\n\nWhere a target is missed, what bounds it (measured in this run):\n\n${lines.join('\n')}`;
}

export function slowLinkSection(rows: SlowLinkRow[], settings: SlowLinkSettings): string {
	const table = rows.map(
		(row) =>
			`| ${row.size.toLocaleString('en')} | ${row.compression ? `on (${row.oursEncoding})` : 'off'} | ${mb(row.bodyBytes)} | ${mb(row.wireBytes)} | ${ms(row.floorMs)} | ${ms(row.oursMs)} | **${(row.oursMs / row.floorMs).toFixed(2)}x** | ${ms(row.beforeRequestMs)} / ${ms(row.servedMs)} / ${ms(row.afterLastByteMs)} | ${ms(row.peerMs)}${row.peerEncoding ? ` (${row.peerEncoding})` : ''}${row.peerNote ? ` ${row.peerNote}` : ''} | ${ms(row.peerServedMs)} | ${ms(row.preparedMs)} / ${ms(row.oursUncappedMs)} |`,
	);
	const speedups = pairs(rows).map(
		(pair) =>
			`at ${pair.size.toLocaleString('en')}, ours is **${pair.speedup.toFixed(1)}x** faster compressed (target: at least ${COMPRESSION_TARGET}x)`,
	);
	return `## Over a slow link

The emulator sends its answers at ${linkName(settings)}: it caps the answer's
bytes per second and waits the round trip before answering; with compression
on it compresses the answer in the coding the client accepts (gzip or
deflate at level 1, brotli at quality 1). Before each timed poll the
benchmark fetches the answer once, untimed, with the cap and the round trip
lifted, so the emulator builds and compresses it then and keeps it: the
poll waits for the link, not also for the emulator compressing on the
cores it shares with the trigger (a real server compresses on cores of its
own). *Ours* is one poll of the App
Builder Trigger run by n8n-core's \`PollContext\` in this process (the first
poll, the baseline, runs on the fast link and is not timed; ${settings.newPerPoll} new inquiries
before each timed poll; median of ${settings.sizes.map((size) => `${settings.roundsFor(size)} at ${size.toLocaleString('en')}`).join(', ')}). The *floor* is the bytes
that crossed the wire for that poll ÷ the bandwidth + the round trip. The
*peer* is n8n's HTTP Request node in the bench n8n, the same request with the
same credential over the same link, its own time as n8n recorded it (the
coding the emulator answered it in, in brackets). *Request to last byte*
is the emulator's time from receiving a request to the answer's last byte
leaving it, as it logged it. *No cap* is that untimed fetch: what building
the answer, compressing included, costs the emulator; then one more poll of
ours with the cap and the round trip lifted, its answer prepared the same
way: what decoding and reading the answer costs the trigger.

| inquiries | compression | answer | on the wire | floor | ours | ours / floor | ours: start to request / request to last byte / last byte to end | peer's HTTP Request node | peer: request to last byte | no cap: answer prepared / one poll of ours |
| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |
${table.join('\n')}

${speedups.length > 0 ? `With compression, ${speedups.join('; ')}.` : ''}${whatBounds(rows)}
`;
}
