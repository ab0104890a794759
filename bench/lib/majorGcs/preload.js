/**
 * Loaded into n8n's main process with --require (N8nForBench's `gcLog`):
 * appends a line for each major garbage collection V8 reports, so the
 * benchmark can tell which cycles one fell into. Each line: the wall-clock
 * time the collection's pause began (ms since 1970) and its length (ms).
 * Task runners, n8n's child processes, inherit NODE_OPTIONS but not the log
 * file, so only the main process writes.
 */
'use strict';
const { appendFileSync } = require('node:fs');
const { PerformanceObserver, constants, performance } = require('node:perf_hooks');

const file = process.env.N8N_BENCH_GC_LOG;
delete process.env.N8N_BENCH_GC_LOG;
if (file) {
	const observer = new PerformanceObserver((list) => {
		// Every entry: V8 can hand over several collections at once.
		const lines = list
			.getEntries()
			.filter(
				(entry) =>
					/** @type {{ detail?: { kind?: number } }} */ (entry).detail?.kind ===
					constants.NODE_PERFORMANCE_GC_MAJOR,
			)
			.map(
				(entry) =>
					`${(performance.timeOrigin + entry.startTime).toFixed(1)} ${entry.duration.toFixed(2)}\n`,
			);
		if (lines.length > 0) appendFileSync(file, lines.join(''));
	});
	observer.observe({ entryTypes: ['gc'] });
}
