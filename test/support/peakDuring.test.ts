/* eslint-disable @n8n/community-nodes/no-restricted-globals -- n8n Cloud's limits are for nodes; this test runs on Node itself (timers, Buffer) */
import { highestDuring, peakRssAddedDuring } from './peakDuring';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

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

	it('counts memory the work holds in the resident set size it adds', async () => {
		const { peakAddedBytes } = await peakRssAddedDuring(async () => {
			const held = Buffer.alloc(64 * 1024 * 1024, 1);
			await sleep(20);
			return held.length;
		});
		expect(peakAddedBytes).toBeGreaterThanOrEqual(48 * 1024 * 1024);
	});
});
