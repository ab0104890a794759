/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-dangerous-functions -- n8n Cloud's limits are for nodes; this runs on Node itself (child processes, the file system, process) */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { MAJOR_GC_PRELOAD, majorGcsBetween, parseMajorGcs, readMajorGcs } from './majorGcs';

describe("n8n's major garbage collections, as logged from inside its process", () => {
	it('logs each major collection of the process it is loaded into, and not those of its children', () => {
		const log = join(mkdtempSync(join(tmpdir(), 'appbuilder-gc-test-')), 'major.log');
		const before = Date.now();
		// Two full collections in the process, then a child that inherits NODE_OPTIONS and collects too.
		const script = `gc(); gc(); require('node:child_process').execFileSync(process.execPath, ['--expose-gc', '-e', 'gc(); gc(); gc();'], { env: process.env }); setTimeout(() => {}, 50);`;
		execFileSync(process.execPath, ['--expose-gc', '-e', script], {
			env: {
				...process.env,
				NODE_OPTIONS: `--require "${MAJOR_GC_PRELOAD}"`,
				N8N_BENCH_GC_LOG: log,
			},
		});
		const collections = readMajorGcs(log);
		expect(collections).toHaveLength(2);
		for (const gc of collections) {
			expect(gc.at).toBeGreaterThanOrEqual(before - 1);
			expect(gc.at).toBeLessThanOrEqual(Date.now());
			expect(gc.pauseMs).toBeGreaterThan(0);
		}
		expect(readFileSync(log, 'utf8')).toMatch(/^(?:\d+\.\d \d+\.\d{2}\n){2}$/);
	});

	it('counts the collections whose pause began in a window, passing over a line half written', () => {
		const collections = parseMajorGcs('1000.5 12.30\n2000.0 40.00\n3000.2 8.10\n3500');
		expect(collections).toEqual([
			{ at: 1000.5, pauseMs: 12.3 },
			{ at: 2000, pauseMs: 40 },
			{ at: 3000.2, pauseMs: 8.1 },
		]);
		expect(majorGcsBetween(collections, 1000, 2000)).toBe(2);
		expect(majorGcsBetween(collections, 2000.1, 3000)).toBe(0);
		expect(readMajorGcs(join(tmpdir(), 'appbuilder-no-such-gc-log'))).toEqual([]);
	});
});
