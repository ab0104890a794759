import { tryFor } from './tryFor';

describe('a call to an n8n catching up after a window', () => {
	it('is tried again until it answers', async () => {
		let calls = 0;
		const tried = await tryFor(
			async () => {
				calls++;
				if (calls < 3) throw new Error('503 Database is not ready!');
				return 'listed';
			},
			{ forMs: 1_000, everyMs: 10 },
		);
		expect(tried).toEqual({ ok: true, value: 'listed' });
		expect(calls).toBe(3);
	});

	it('gives the last failure back once its time is spent, instead of throwing', async () => {
		let calls = 0;
		const started = Date.now();
		const tried = await tryFor(
			async () => {
				calls++;
				throw new Error(`503 attempt ${calls}`);
			},
			{ forMs: 100, everyMs: 20 },
		);
		expect(tried).toEqual({ ok: false, error: `503 attempt ${calls}`, tries: calls });
		expect(calls).toBeGreaterThan(1);
		expect(Date.now() - started).toBeLessThan(1_000);
	});

	it('gives a failure asking again cannot mend back at once', async () => {
		let calls = 0;
		const tried = await tryFor(
			async () => {
				calls++;
				throw new Error(calls === 1 ? '503 busy' : 'too slow');
			},
			{ forMs: 60_000, everyMs: 10 },
			(error) => error instanceof Error && error.message === 'too slow',
		);
		expect(tried).toEqual({ ok: false, error: 'too slow', tries: 2 });
	});
});
