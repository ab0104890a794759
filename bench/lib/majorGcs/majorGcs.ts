/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- n8n Cloud's limits are for nodes; this runs on Node itself (the file system, __dirname) */
/**
 * n8n's major garbage collections, as `preload.js` logs them from inside
 * n8n's main process. A major collection of n8n's heap (about 200 MB once it
 * has run a while) pauses it for 10 to 60 ms, after up to about 100 ms of
 * marking in steps on its main thread; a cycle it falls into is slower by
 * about that, whichever trigger runs.
 */
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';

/** Given to n8n's Node with --require. */
export const MAJOR_GC_PRELOAD = resolve(__dirname, 'preload.js');

export interface MajorGc {
	/** When its pause began (ms since 1970). */
	at: number;
	pauseMs: number;
}

/** The collections a log holds; a line that does not read (one being written) is passed over. */
export function parseMajorGcs(text: string): MajorGc[] {
	const collections: MajorGc[] = [];
	for (const line of text.split('\n')) {
		const [at, pauseMs] = line.trim().split(' ').map(Number);
		if (Number.isFinite(at) && Number.isFinite(pauseMs)) collections.push({ at, pauseMs });
	}
	return collections;
}

export function readMajorGcs(file: string): MajorGc[] {
	return existsSync(file) ? parseMajorGcs(readFileSync(file, 'utf8')) : [];
}

/** How many major collections paused n8n from `from` to `to` (ms since 1970). */
export function majorGcsBetween(collections: readonly MajorGc[], from: number, to: number): number {
	return collections.filter((gc) => gc.at >= from && gc.at <= to).length;
}
