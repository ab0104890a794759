/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-dangerous-functions -- n8n Cloud's limits are for nodes; this test runs on Node itself (timers, Buffer, built-in modules, a child process) */
import { execFile } from 'node:child_process';
import { resolve } from 'node:path';

import { highestDuring } from './peakDuring';
import { sleep } from './sleep';

describe('the highest reading while work runs', () => {
	it('catches a rise that is gone again before the work ends, and gives the reading before and the work’s value', async () => {
		let level = 10;
		const { value, before, highest } = await highestDuring(
			() => level,
			async () => {
				level = 500;
				await sleep(20);
				level = 30;
				await sleep(5);
				return 'done';
			},
		);
		expect({ value, before, highest }).toEqual({ value: 'done', before: 10, highest: 500 });
	});

	it('stops sampling when the work fails', async () => {
		let reads = 0;
		await expect(
			highestDuring(
				() => ++reads,
				async () => {
					await sleep(5);
					throw new Error('failed');
				},
			),
		).rejects.toThrow('failed');
		const readsAtEnd = reads;
		await sleep(20);
		expect(reads).toBe(readsAtEnd);
	});

	// In a fresh process, as its callers measure: in a shared test worker a
	// collection that returns more pages than the work adds hides the rise.
	it('counts memory the work holds in the resident set size it adds', async () => {
		const script = [
			`const { peakRssAddedDuring } = require(${JSON.stringify(resolve(__dirname, 'peakDuring.ts'))});`,
			'peakRssAddedDuring(async () => {',
			'	const held = Buffer.alloc(64 * 1024 * 1024, 1);',
			'	await new Promise((r) => setTimeout(r, 20));',
			'	return held.length;',
			'}).then(({ peakAddedBytes }) => process.stdout.write(String(peakAddedBytes)));',
		].join('\n');
		const printed = await new Promise<string>((done, fail) =>
			execFile(process.execPath, ['--import', 'tsx', '--eval', script], (error, stdout, stderr) =>
				error ? fail(new Error(`${error.message}\n${stderr}`)) : done(stdout),
			),
		);
		expect(Number(printed)).toBeGreaterThanOrEqual(48 * 1024 * 1024);
	});
});
