import { ACCEPT_ENCODING } from '../../nodes/shared/http/contentCoding';
import { FIXTURE } from '../../test/emulator';
import type { BenchWorkflow } from '../lib/benchWorkflows';
import type { EmulatorProcess } from '../lib/emulatorProcess';
import { NoAnswerError, type N8nForBench } from '../lib/n8nForBench';
import { sleep } from '../../test/support/sleep';
import { ScaleN8n, TriggerPool } from './triggersPerMain';

/**
 * An n8n that keeps what is active, and refuses the calls `refuse` says to, as an overloaded one answers 503;
 * an activation `unanswered` says goes unanswered, and n8n carries it out anyway, as one that is far behind does.
 */
function fakeN8n(
	refuse: (call: string, workflowId: string) => boolean,
	unanswered: (workflowId: string) => boolean = () => false,
) {
	const active = new Set<string>();
	const made: BenchWorkflow[] = [];
	const fail = () =>
		Promise.reject(new Error('503 {"code":503,"message":"Database is not ready!"}'));
	const bench = {
		credential: { id: '1', name: 'App Builder' },
		n8n: {
			createWorkflow: async (workflow: BenchWorkflow) => `w${made.push(workflow)}`,
		},
		setActive: async (workflowId: string) => {
			if (refuse('activate', workflowId)) return await fail();
			active.add(workflowId);
			if (unanswered(workflowId))
				throw new NoAnswerError(`POST /api/v1/workflows/${workflowId}/activate: no answer`);
		},
		deactivate: async (workflowId: string) =>
			refuse('deactivate', workflowId) ? fail() : void active.delete(workflowId),
	};
	return { bench: bench as unknown as N8nForBench, active, made };
}
const emulator = { webUrl: 'http://127.0.0.1:1' } as EmulatorProcess;
const ids = (pool: TriggerPool) => pool.active.map((trigger) => trigger.workflowId);

describe('the triggers-per-main pool of workflows', () => {
	it('counts what n8n activated when it refuses one in a batch, and carries on from there', async () => {
		let refusing = true;
		const n8n = fakeN8n((call, id) => refusing && call === 'activate' && id === 'w2');
		const pool = new TriggerPool(n8n.bench, emulator, 'ours', 1000, 0, 10);
		await expect(pool.setK(5)).rejects.toThrow('Database is not ready');
		// w1 and w3 of the first batch are active in n8n, and the pool knows it.
		expect(ids(pool)).toEqual(['w1', 'w3']);
		expect([...n8n.active].sort()).toEqual(ids(pool));
		refusing = false;
		await pool.setK(5);
		expect(ids(pool)).toEqual(['w1', 'w2', 'w3', 'w4', 'w5']);
		expect(n8n.active.size).toBe(5);
		await pool.setK(2);
		expect(ids(pool)).toEqual(['w1', 'w2']);
		expect([...n8n.active].sort()).toEqual(['w1', 'w2']);
	});

	it('turns off a workflow whose activation n8n did not answer before anything else, since n8n may have run it', async () => {
		let answering = false;
		const n8n = fakeN8n(
			() => false,
			(id) => !answering && id === 'w3',
		);
		const pool = new TriggerPool(n8n.bench, emulator, 'n8n', 1000, 0, 10);
		await expect(pool.setK(5)).rejects.toThrow('no answer');
		expect(ids(pool)).toEqual(['w1', 'w2']);
		// Lower after the refusal: only what the pool counts runs in n8n, w3 included in nothing.
		await pool.setK(2);
		expect([...n8n.active].sort()).toEqual(['w1', 'w2']);
		// Up again once n8n answers: w3 activated as any other.
		answering = true;
		await pool.setK(4);
		expect([...n8n.active].sort()).toEqual(['w1', 'w2', 'w3', 'w4']);
		answering = false;
		// Released with one activation unanswered: n8n runs none of the pool's workflows after.
		const second = fakeN8n(
			() => false,
			(id) => id === 'w2',
		);
		const released = new TriggerPool(second.bench, emulator, 'n8n', 1000, 0, 10);
		await expect(released.setK(3)).rejects.toThrow('no answer');
		expect([...second.active].sort()).toEqual(['w1', 'w2', 'w3']);
		await released.release();
		expect(second.active.size).toBe(0);
	});

	it('asks again while n8n refuses, and gives back the workflows made, or why it gave up', async () => {
		jest.useFakeTimers();
		try {
			let refusals = 3;
			const pool = new TriggerPool(
				fakeN8n((call) => call === 'activate' && refusals-- > 0).bench,
				emulator,
				'peer',
				1000,
				0,
				10,
			);
			const first = pool.setKRetrying(4);
			await jest.advanceTimersByTimeAsync(60_000);
			// Made across the tries, every one of them new: the peer's first runs are all still ahead.
			expect(await first).toEqual({ ok: true, value: pool.active });
			expect(ids(pool)).toEqual(['w1', 'w2', 'w3', 'w4']);
			// Back to 2 and up to 4 again: nothing new is made.
			await pool.setKRetrying(2);
			expect(await pool.setKRetrying(4)).toEqual({ ok: true, value: [] });

			const stuck = new TriggerPool(
				fakeN8n((call) => call === 'deactivate').bench,
				emulator,
				'ours',
				1000,
				0,
				10,
			);
			await stuck.setK(2);
			const released = stuck.release();
			const settled = expect(released).rejects.toThrow(
				/n8n did not deactivate the ours's workflows within 2 minutes \(\d+ tries: 503/,
			);
			await jest.advanceTimersByTimeAsync(3 * 60_000);
			await settled;
			expect(ids(stuck)).toEqual(['w1', 'w2']);
		} finally {
			jest.useRealTimers();
		}
	});

	it('gives up on a K n8n activates too slowly, at the first batch past the time, without asking again', async () => {
		jest.useFakeTimers();
		try {
			const n8n = fakeN8n(() => false);
			// Every call answered, each after a minute: three workflows a minute, as n8n past its ceiling.
			const answered = n8n.bench.setActive.bind(n8n.bench);
			n8n.bench.setActive = async (workflowId: string, active: boolean) => {
				await sleep(60_000);
				await answered(workflowId, active);
			};
			const pool = new TriggerPool(n8n.bench, emulator, 'n8n', 1000, 0, 60);
			const slow = pool.setKRetrying(60, 10 * 60_000);
			await jest.advanceTimersByTimeAsync(20 * 60_000);
			expect(await slow).toEqual({
				ok: false,
				error: 'n8n had activated 33 of 60 workflows when the time to activate them ran out',
				tries: 1,
			});
			// What it did activate stays counted, and a K without a bound still gets there.
			expect(n8n.active.size).toBe(33);
			const unbounded = pool.setKRetrying(60);
			await jest.advanceTimersByTimeAsync(20 * 60_000);
			expect((await unbounded).ok).toBe(true);
			expect(n8n.active.size).toBe(60);
		} finally {
			jest.useRealTimers();
		}
	});

	it('runs the window after one that failed, and another kind, in a fresh n8n; a shared n8n is released instead', async () => {
		const started: Array<ReturnType<typeof fakeN8n> & { stopped: boolean }> = [];
		const start = async () => {
			const n8n = { ...fakeN8n(() => false), stopped: false };
			(n8n.bench as unknown as { stop: () => Promise<void> }).stop = async () => {
				n8n.stopped = true;
			};
			started.push(n8n);
			return n8n.bench;
		};
		const ours = { who: 'ours' as const, size: 1000, max: 10 };
		const scale = new ScaleN8n(emulator, { peerHistory: 0 }, await start(), true, start);
		const first = await scale.forWindow(ours);
		await first.pool.setK(4);
		// Passed: the next window carries on in the same n8n, from the same workflows.
		const second = await scale.forWindow(ours);
		expect(second.pool).toBe(first.pool);
		await second.pool.setK(6);
		scale.overloaded = true;
		// Failed: the next window starts in a fresh n8n with none active, the old one stopped.
		const third = await scale.forWindow(ours);
		expect(started).toHaveLength(2);
		expect(started[0].stopped).toBe(true);
		expect(third.bench).toBe(started[1].bench);
		expect(third.pool.active).toEqual([]);
		await third.pool.setK(3);
		// Another kind: fresh again; and released after a failure means a fresh n8n too.
		await scale.switchTo({ who: 'n8n', size: 1000 });
		expect(started).toHaveLength(3);
		await (await scale.forWindow({ who: 'n8n', size: 1000, max: 10 })).pool.setK(2);
		scale.overloaded = true;
		await scale.releaseAll();
		expect(started).toHaveLength(4);
		expect(started[2].stopped).toBe(true);

		// Shared: never stopped, whatever failed; other kinds' workflows turned off, one by one.
		const shared = fakeN8n(() => false);
		const inShared = new ScaleN8n(emulator, { peerHistory: 0 }, shared.bench, false, start);
		await (await inShared.forWindow(ours)).pool.setK(3);
		inShared.overloaded = true;
		const again = await inShared.forWindow(ours);
		expect(again.bench).toBe(shared.bench);
		expect(shared.active.size).toBe(3);
		await inShared.switchTo({ who: 'peer', size: 1000 });
		expect(shared.active.size).toBe(0);
		expect(started).toHaveLength(4);
	});

	it("makes n8n's trivial triggers ask for ours' answer, form by form, on ours' seconds", async () => {
		const ours = fakeN8n(() => false);
		await new TriggerPool(ours.bench, emulator, 'ours', 1000, 0, 10).setK(2);
		const n8n = fakeN8n(() => false);
		await new TriggerPool(n8n.bench, emulator, 'n8n', 1000, 0, 10).setK(2);
		const pollTimes = (workflow: BenchWorkflow) => workflow.nodes[0].parameters.pollTimes;
		expect(n8n.made.map(pollTimes)).toEqual(ours.made.map(pollTimes));
		const second = n8n.made[1].nodes[0].parameters;
		expect(n8n.made[1].nodes[0].type).toBe('CUSTOM.benchTrivialTrigger');
		expect(second.answerUrl).toBe('http://127.0.0.1:1/V4/webservices/FormBuilderApi.php');
		expect(JSON.parse(second.answerRequest as string)).toEqual({
			method: 'formBuilderInquiries',
			appId: FIXTURE.appId,
			pageId: (ours.made[1].nodes[0].parameters.pageId as { value: string }).value,
		});
		// The headers ours sends: the emulator's compression setting then codes both answers alike.
		expect(JSON.parse(second.answerHeaders as string)).toEqual({
			Accept: 'application/json',
			'Accept-Encoding': ACCEPT_ENCODING,
			ACCESSTOKEN: FIXTURE.accessToken,
		});
	});
});
