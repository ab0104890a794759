import { sleep } from 'n8n-workflow';

import { readForms } from '../../../../nodes/AppBuilder/acrossForms/readForms';

describe('reading several forms', () => {
	const wait = async (ms: number) => await sleep(ms);

	it('reads a few at a time, keeps each failure to its form, and reports each in the given order', async () => {
		let running = 0;
		let most = 0;
		const results = await readForms(
			['a', 'b', 'c', 'd', 'e'],
			async (form) => {
				running++;
				most = Math.max(most, running);
				await wait(20);
				running--;
				if (form === 'c') throw new Error('c failed');
				return form.toUpperCase();
			},
			{ concurrency: 2 },
		);
		expect(most).toBe(2);
		expect(results.map((result) => (result.kind === 'read' ? result.list : result.kind))).toEqual([
			'A',
			'B',
			'failed',
			'D',
			'E',
		]);
	});

	it('starts no further form once startBefore has passed, but always the first', async () => {
		const started: string[] = [];
		const results = await readForms(
			['a', 'b', 'c'],
			async (form) => {
				started.push(form);
				await wait(30);
				return form;
			},
			{ concurrency: 1, startBefore: Date.now() - 1 },
		);
		expect(started).toEqual(['a']);
		expect(results.map((result) => result.kind)).toEqual(['read', 'not-reached', 'not-reached']);
	});
});
