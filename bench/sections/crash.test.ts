/* eslint-disable @n8n/community-nodes/no-restricted-imports -- n8n Cloud's limits are for nodes; this runs on Node itself (timers, process, built-in modules) */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { crashSection, landings } from './crash';

describe('the crash suite figures in the benchmark report', () => {
	it('counts the kills by where they landed, whatever the milliseconds', () => {
		expect(
			landings([
				{ landed: "27 ms after the poll's answer (cursor save / execution insert)" },
				{ landed: "43 ms after the poll's answer (cursor save / execution insert)" },
				{ landed: 'during the poll (answer not sent)' },
				{ landed: 'worker, 526 ms into its execution' },
			]),
		).toBe(
			"2 after the poll's answer (cursor save / execution insert); 1 during the poll (answer not sent); 1 worker, during its execution",
		);
	});

	it('shows each run with the leads it lost, and nothing when no run was recorded', () => {
		const file = join(mkdtempSync(join(tmpdir(), 'crash-figures-')), 'crash-suite.json');
		expect(crashSection(file)).toBe('');
		writeFileSync(
			file,
			JSON.stringify({
				recordedAt: '2026-11-23T15:00:00.000Z',
				n8nVersion: '2.41.1',
				runs: [
					{
						title: 'single instance',
						figures: {
							seed: 7,
							kills: [{ aim: 'poll', landed: 'during the poll (answer not sent)' }],
							leadsAdded: 5,
							leadsDelivered: 4,
							duplicates: [],
							executions: { success: 3, crashed: 1 },
							retriedCrashed: [{ status: 'success' }],
							seconds: 90,
						},
					},
					{
						title: 'worker killed',
						figures: {
							seed: 7,
							kills: [{ aim: 'worker', landed: 'worker, 526 ms into its execution' }],
							leadsAdded: 6,
							leadsDelivered: 3,
							lostWithStalledJob: ['a', 'b', 'c'],
							duplicates: [],
						},
					},
					{
						title: 'held window',
						figures: {
							cursorSavedBeforeKill: true,
							leadDelivered: false,
							executions: { success: 1 },
						},
					},
				],
			}),
		);
		const section = crashSection(file);
		expect(section).toContain('recorded on\n2026-11-23: a real n8n 2.41.1 killed');
		expect(section).toContain(
			"| single instance | 7 | 1 | 1 during the poll (answer not sent) | 5 | 4 | 1 (1 in the saved cursor, in no execution: n8n's window) | 0 | 3 success, 1 crashed | success | 90 s |",
		);
		expect(section).toContain(
			'| worker killed | 7 | 1 | 1 worker, during its execution | 6 | 3 | 3 (3 in an execution n8n stored as an error without its data after the worker died) |',
		);
		expect(section).toContain('| held window | - | 1 |');
	});
});
