/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports, no-console -- n8n Cloud's limits are for nodes; this runs on Node itself (timers, process, built-in modules); it prints its progress and figures */
/**
 * Reading a compressed answer: one poll of the trigger reading the same
 * answer gzip-compressed and plain, against zlib inflating the compressed
 * bytes alone. Reading compressed should cost at most plain + inflate.
 *
 * The answer is recorded from the emulator, plain and as the emulator sends
 * it gzip-compressed, and served again from memory by a process of its own
 * (answerReplay.ts): the emulator compresses an answer of more than 20,000
 * inquiries anew on every request, and a smaller one on the first request
 * after the form changed, on the very cores the poll runs on, so a poll it
 * serves compressed also pays the server's compressing. That is measured
 * too, apart: one more poll per round that the emulator serves compressed,
 * with the CPU the emulator used meanwhile.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';

import { FIXTURE } from '../../test/emulator';
import { median, quantile } from '../lib/median';
import { AnswerReplay } from '../lib/answerReplay';
import type { EmulatorProcess } from '../lib/emulatorProcess';
import { cpuMsOfTrees } from '../lib/processUsage';
import { structuralPass } from '../lib/structuralPass';
import { TriggerPoller } from '../lib/triggerPoller';

export interface CompressedReadSettings {
	sizes: number[];
	/** Timed rounds at each size (at least 5, for a median with a spread beside it). */
	rounds: number;
	/** New inquiries before each poll the emulator serves (the replayed answer never changes). */
	newPerPoll: number;
}

export interface CompressedReadRow {
	size: number;
	/** The answer's JSON, and its gzip coding as the emulator sent it. */
	bodyBytes: number;
	codedBytes: number;
	/** Per round: one poll reading the replayed answer plain, and gzip-compressed. */
	plainMs: number[];
	gzipMs: number[];
	/** This process's CPU (every thread, user and system) during each of those polls. */
	plainCpuMs: number[];
	gzipCpuMs: number[];
	/** zlib.gunzipSync of the same compressed bytes, in this process. */
	inflateMs: number[];
	/** A bare pass over the plain bytes that only finds each string's end and counts brackets (structuralPass.ts). */
	structuralMs: number[];
	/** One poll the emulator served gzip-compressed, compressing as it sent, and the emulator's CPU meanwhile. */
	servedMs: number[];
	servedEmulatorCpuMs: number[];
}

/** One poll reading a gzip answer against a plain one + inflate, each size from an answer replayed by a process of its own. */
export const COMPRESSED_READ: Record<'full' | 'smoke', CompressedReadSettings> = {
	full: {
		sizes: [10_000, 100_000],
		// A poll varies by a third, and at 100,000 by up to 2x, on a shared machine (7 rounds at 100,000 read 0.76x
		// in one run and 1.09x in the next): 15 rounds at each size, about a minute at 100,000.
		rounds: 15,
		newPerPoll: 10,
	},
	smoke: { sizes: [1_000], rounds: 5, newPerPoll: 10 },
};

/** The target: a poll reading the compressed answer at most this much of plain + inflate. */
export const COMPRESSED_READ_TARGET = 1;

export const COMPRESSED_READ_HEADING = '## Reading a compressed answer';

/** The median plain poll against the median bare structural pass over the same bytes. */
export function structuralRatio(row: CompressedReadRow): number {
	return median(row.plainMs) / median(row.structuralMs);
}

/** The median poll reading the compressed answer against the median plain poll + the median inflate. */
export function compressedReadRatio(row: CompressedReadRow): number {
	return median(row.gzipMs) / (median(row.plainMs) + median(row.inflateMs));
}

const now = () => Number(process.hrtime.bigint()) / 1e6;

/** This process's CPU so far, every thread, in ms. */
const cpuMs = () => {
	const used = process.cpuUsage();
	return (used.user + used.system) / 1000;
};

/** The inquiries answer's bytes as they crossed the socket: with `acceptEncoding`, still coded. */
async function recordAnswer(webUrl: string, acceptEncoding?: string): Promise<Buffer> {
	return await new Promise((done, fail) => {
		const req = request(
			`${webUrl}/V4/webservices/FormBuilderApi.php`,
			{
				method: 'POST',
				agent: false,
				headers: {
					'Content-Type': 'application/json',
					ACCESSTOKEN: FIXTURE.accessToken,
					...(acceptEncoding ? { 'Accept-Encoding': acceptEncoding } : {}),
				},
			},
			(res) => {
				const parts: Buffer[] = [];
				res.on('data', (chunk: Buffer) => parts.push(chunk));
				res.on('end', () => done(Buffer.concat(parts)));
				res.on('error', fail);
			},
		);
		req.on('error', fail);
		req.end(
			JSON.stringify({
				method: 'formBuilderInquiries',
				appId: FIXTURE.appId,
				pageId: FIXTURE.formPageId,
			}),
		);
	});
}

async function timedPoll(
	poller: TriggerPoller,
	expected: number,
): Promise<{ ms: number; cpuMs: number }> {
	const cpu = cpuMs();
	const start = now();
	const emitted = await poller.poll();
	const ms = now() - start;
	const used = cpuMs() - cpu;
	if (emitted !== expected) throw new Error(`the poll emitted ${emitted}, expected ${expected}`);
	return { ms, cpuMs: used };
}

export async function measureCompressedRead(
	emulator: EmulatorProcess,
	settings: CompressedReadSettings,
): Promise<CompressedReadRow[]> {
	const rows: CompressedReadRow[] = [];
	try {
		for (const size of settings.sizes) rows.push(await measureSize(emulator, size, settings));
	} finally {
		await emulator.configure({ compression: false });
	}
	return rows;
}

async function measureSize(
	emulator: EmulatorProcess,
	size: number,
	settings: CompressedReadSettings,
): Promise<CompressedReadRow> {
	await emulator.fillForm(size);
	await emulator.configure({ compression: false });
	const plain = await recordAnswer(emulator.webUrl);
	await emulator.configure({ compression: ['gzip'] });
	const coded = await recordAnswer(emulator.webUrl, 'gzip');
	if (!gunzipSync(coded).equals(plain))
		throw new Error(`reading a compressed answer, ${size}: the gzip answer is not the plain one`);
	const folder = mkdtempSync(join(tmpdir(), 'appbuilder-bench-answer-'));
	writeFileSync(join(folder, 'plain.json'), plain);
	writeFileSync(join(folder, 'gzip.bin'), coded);
	const row: CompressedReadRow = {
		size,
		bodyBytes: plain.length,
		codedBytes: coded.length,
		plainMs: [],
		gzipMs: [],
		plainCpuMs: [],
		gzipCpuMs: [],
		inflateMs: [],
		structuralMs: [],
		servedMs: [],
		servedEmulatorCpuMs: [],
	};
	const replay = await AnswerReplay.start(join(folder, 'plain.json'), join(folder, 'gzip.bin'));
	try {
		const plainPoller = new TriggerPoller(replay.url(false));
		const gzipPoller = new TriggerPoller(replay.url(true));
		const servedPoller = new TriggerPoller(emulator.webUrl);
		// The first polls: the baselines, not timed.
		await Promise.all([plainPoller.poll(), gzipPoller.poll()]);
		await servedPoller.poll();
		// One untimed round first, so every path runs warm.
		for (let round = -1; round < settings.rounds; round++) {
			await emulator.addNew(settings.newPerPoll);
			await emulator.trimForm(size);
			const [emulatorBefore] = cpuMsOfTrees(emulator.pid === undefined ? [] : [emulator.pid]);
			const served = await timedPoll(servedPoller, settings.newPerPoll);
			const [emulatorAfter] = cpuMsOfTrees(emulator.pid === undefined ? [] : [emulator.pid]);
			const start = now();
			gunzipSync(coded);
			const inflateMs = now() - start;
			const passStart = now();
			structuralPass(plain);
			const structuralMs = now() - passStart;
			// The replayed answer never changes: after the first poll neither emits. Each side goes first in turn.
			const first = round % 2 === 0 ? 'plain' : 'gzip';
			const a = await timedPoll(first === 'plain' ? plainPoller : gzipPoller, 0);
			const b = await timedPoll(first === 'plain' ? gzipPoller : plainPoller, 0);
			if (round < 0) continue;
			const [plainPoll, gzipPoll] = first === 'plain' ? [a, b] : [b, a];
			row.plainMs.push(plainPoll.ms);
			row.plainCpuMs.push(plainPoll.cpuMs);
			row.gzipMs.push(gzipPoll.ms);
			row.gzipCpuMs.push(gzipPoll.cpuMs);
			row.inflateMs.push(inflateMs);
			row.structuralMs.push(structuralMs);
			row.servedMs.push(served.ms);
			row.servedEmulatorCpuMs.push((emulatorAfter ?? 0) - (emulatorBefore ?? 0));
		}
	} finally {
		await replay.stop();
		rmSync(folder, { recursive: true, force: true });
	}
	console.log(
		`compressed ${String(size).padStart(7)} inquiries  ${(row.bodyBytes / 1e6).toFixed(1)} MB, gzip ${(row.codedBytes / 1e6).toFixed(1)} MB  plain ${median(row.plainMs).toFixed(0)} ms (a bare structural pass ${median(row.structuralMs).toFixed(0)} ms)  gzip ${median(row.gzipMs).toFixed(0)} ms  inflate ${median(row.inflateMs).toFixed(0)} ms  ratio ${compressedReadRatio(row).toFixed(2)}  served by the emulator compressing ${median(row.servedMs).toFixed(0)} ms`,
	);
	return row;
}

/** "median ms (10th to 90th percentile)". */
const spread = (values: readonly number[]) =>
	`${fmt(median(values))} (${fmt(quantile(values, 0.1))} to ${fmt(quantile(values, 0.9))})`;
const fmt = (ms: number) => `${Math.round(ms).toLocaleString('en')} ms`;
const verdict = (ratio: number) => (ratio <= COMPRESSED_READ_TARGET ? 'met' : '**not met**');

/** The row of the targets table: every size measured against its plain poll + inflate. */
export function compressedReadTargetRow(rows: readonly CompressedReadRow[]): string {
	const sizes = rows.map((row) => row.size.toLocaleString('en')).join(' and ');
	const ratios = rows
		.map((row) => `${compressedReadRatio(row).toFixed(2)}x at ${row.size.toLocaleString('en')}`)
		.join(', ');
	const met = rows.every((row) => compressedReadRatio(row) <= COMPRESSED_READ_TARGET);
	return `| One poll reading a gzip answer against a plain poll + inflate at ${sizes} | at most ${COMPRESSED_READ_TARGET.toFixed(1)}x | ${ratios} | ${met ? 'met' : '**not met**'} |`;
}

/** The section of docs/benchmarks.md. */
export function compressedReadSection(
	rows: readonly CompressedReadRow[],
	settings: CompressedReadSettings,
): string {
	const table = rows
		.map((row) => {
			const ratio = compressedReadRatio(row);
			return `| ${row.size.toLocaleString('en')} | ${(row.bodyBytes / 1e6).toFixed(1)} MB | ${(row.codedBytes / 1e6).toFixed(1)} MB | ${spread(row.plainMs)} | ${spread(row.gzipMs)} | ${spread(row.inflateMs)} | **${ratio.toFixed(2)}x** ${verdict(ratio)} | ${fmt(median(row.plainCpuMs))} / ${fmt(median(row.gzipCpuMs))} |`;
		})
		.join('\n');
	const rounds = rows
		.map((row) => `${row.plainMs.length} rounds at ${row.size.toLocaleString('en')}`)
		.join(', ');
	const passes = rows
		.map(
			(row) =>
				`| ${row.size.toLocaleString('en')} | ${spread(row.plainMs)} | ${spread(row.structuralMs)} | **${structuralRatio(row).toFixed(2)}x** |`,
		)
		.join('\n');
	const served = rows
		.map(
			(row) =>
				`| ${row.size.toLocaleString('en')} | ${spread(row.servedMs)} | ${fmt(median(row.servedEmulatorCpuMs))} | ${spread(row.gzipMs)} |`,
		)
		.join('\n');
	return `${COMPRESSED_READ_HEADING}

One poll of the App Builder Trigger (n8n-core's \`PollContext\` in this process,
as in [One poll against the physical floor](#one-poll-against-the-physical-floor))
reading the same answer gzip-compressed and plain, against zlib inflating the
compressed bytes alone (\`zlib.gunzipSync\` in this process, nothing else timed).
Reading compressed should cost at most plain + inflate. The answer is recorded
from the emulator once, plain and gzip-compressed as the emulator sends it (level 1,
flushed as it streams), and served again from memory by a process of its own
(\`bench/lib/answerReplay.ts\`), so a poll's time is the reading alone: n8n's HTTP
helper decoding the answer (axios, through Node's zlib, which hands every 16 KB
it inflates back to JavaScript) and the trigger scanning it, bounds and all. The
replayed answer does not change, so each poll reads all of it and emits nothing.
${rounds} after an untimed one, the two sides taking turns to go first; the
median of each, with the 10th to 90th percentile in brackets. CPU is this
process's, every thread (user and system), during the poll: inflating runs on
a thread of Node's pool beside the scan.

| inquiries | answer | gzip | one poll, plain | one poll, gzip | inflate alone | gzip / (plain + inflate) | CPU per poll, plain / gzip |
| --- | --- | --- | --- | --- | --- | --- | --- |
${table}

Reading every byte is what a poll of a large form costs, compressed or not.
Against it, the least a JavaScript reader that follows JSON's structure does
with the same plain bytes, in this process, same rounds: a bare pass
(\`bench/lib/structuralPass.ts\`) that looks at every byte once, finds each
string's end past its escapes and counts brackets, reading nothing out. The
poll also takes the bytes through n8n's HTTP helper, reads each record's keys,
its identity and its time, and plans the cursor. Most of an inquiry's bytes
are its \`formbuilderData\`, a JSON text inside a string, with an escaped quote
every few bytes: no search for the string's end skips ahead of a byte loop there.

| inquiries | one poll, plain | a bare structural pass | poll / pass |
| --- | --- | --- | --- |
${passes}

The emulator compresses on the cores the poll runs on: an answer of more than
20,000 inquiries on every request (it does not keep one that large whole), a
smaller one on the first request after the form changed (it keeps the coded
bytes until the next change). A poll it serves compressed, after ${settings.newPerPoll} new
inquiries, takes in the server's compressing too; same rounds, beside the
replayed poll above:

| inquiries | one poll, gzip, served by the emulator compressing | the emulator's CPU meanwhile | one poll, gzip, replayed |
| --- | --- | --- | --- |
${served}

That difference is the server's work on a machine this one shares, not the
reading: a server across a network compresses on its own cores.
`;
}
