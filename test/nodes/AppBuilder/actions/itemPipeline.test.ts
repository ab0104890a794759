/* eslint-disable @n8n/community-nodes/no-restricted-globals -- n8n Cloud's limits are for nodes; this runs on Node itself (timers, process, built-in modules) */
import { pipelineItems } from '../../../../nodes/AppBuilder/actions/itemPipeline';
import { sleep } from '../../../support/sleep';

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('pipelineItems', () => {
	it('keeps input order and never sends more than the limit at once', async () => {
		let running = 0;
		let peak = 0;
		const results = await pipelineItems(20, 3, {
			prepare: (index) => index * 2,
			send: async (prepared) => {
				running++;
				peak = Math.max(peak, running);
				await tick();
				await tick();
				running--;
				return prepared;
			},
		});
		expect(results).toEqual(Array.from({ length: 20 }, (_, i) => i * 2));
		expect(peak).toBe(3);
	});

	it('prepares later items while the sends wait on the network', async () => {
		const prepared: number[] = [];
		let preparedWhenFirstAnswered = 0;
		await pipelineItems(12, 2, {
			prepare: (index) => {
				prepared.push(index);
				return index;
			},
			send: async (index) => {
				await sleep(30);
				if (index === 0) preparedWhenFirstAnswered = prepared.length;
				return index;
			},
		});
		// Without preparing ahead only the two items being sent would be ready.
		expect(preparedWhenFirstAnswered).toBeGreaterThan(2);
		expect([...prepared].sort((a, b) => a - b)).toEqual(Array.from({ length: 12 }, (_, i) => i));
	});

	it('starts nothing new after a failure and throws the lowest failed index', async () => {
		const started: number[] = [];
		await expect(
			pipelineItems(50, 2, {
				prepare: (index) => index,
				send: async (index) => {
					started.push(index);
					await tick();
					if (index === 3 || index === 4) throw new Error(`item ${index}`);
					return index;
				},
			}),
		).rejects.toThrow('item 3');
		expect(Math.max(...started)).toBeLessThan(8);
	});

	it("never sends an item whose preparation failed, and reports it as that item's failure", async () => {
		const sent: number[] = [];
		await expect(
			pipelineItems(6, 2, {
				prepare: (index) => {
					if (index === 2) throw new Error('bad email in item 2');
					return index;
				},
				send: async (index) => {
					sent.push(index);
					await tick();
					return index;
				},
			}),
		).rejects.toThrow('bad email in item 2');
		expect(sent).not.toContain(2);
	});

	it('lets recover turn failures into results and goes on with the rest', async () => {
		const results = await pipelineItems(6, 3, {
			prepare: (index) => {
				if (index === 1) throw new Error('prepare 1');
				return index;
			},
			send: async (index) => {
				await tick();
				if (index === 4) throw new Error('send 4');
				return `ok ${index}`;
			},
			recover: (error) => `failed: ${(error as Error).message}`,
		});
		expect(results).toEqual([
			'ok 0',
			'failed: prepare 1',
			'ok 2',
			'ok 3',
			'failed: send 4',
			'ok 5',
		]);
	});

	it('stops when recover rethrows', async () => {
		await expect(
			pipelineItems(4, 1, {
				prepare: (index) => index,
				send: async (index) => {
					if (index === 1) throw new Error('send 1');
					return index;
				},
				recover: (error) => {
					throw error;
				},
			}),
		).rejects.toThrow('send 1');
	});
});
