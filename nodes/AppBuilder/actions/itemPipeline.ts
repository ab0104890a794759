import { sleep } from 'n8n-workflow';

export interface PipelineStages<P, T> {
	/** The synchronous work for one item (reading and checking its parameters); may throw. */
	prepare: (index: number) => P;
	/** The item's request. */
	send: (prepared: P, index: number) => Promise<T>;
	/** Turns an item's failure into its result (Continue On Fail); rethrow to stop. */
	recover?: (error: unknown, index: number) => T;
}

type Prepared<P> = { ok: true; value: P } | { ok: false; error: unknown };

/**
 * Runs items 0..count-1 through `prepare` then `send`, with at most
 * `concurrency` sends in flight, keeping results in input order.
 *
 * Items are prepared ahead, one per turn of the event loop, while sends wait
 * on the network: reading parameters (n8n evaluates expressions in an
 * isolate) then costs no time between an answer and the next request.
 *
 * After the first unrecovered failure no new send starts; sends already in
 * flight finish (a request that is sent is not abandoned halfway), then the
 * failure of the lowest index is thrown.
 */
export async function pipelineItems<P, T>(
	count: number,
	concurrency: number,
	stages: PipelineStages<P, T>,
): Promise<T[]> {
	const results = new Array<T>(count);
	const prepared = new Array<Prepared<P> | undefined>(count);
	const failures = new Map<number, unknown>();
	let next = 0;
	let done = false;

	const prepareAt = (index: number): Prepared<P> => {
		let slot = prepared[index];
		if (slot === undefined) {
			try {
				slot = { ok: true, value: stages.prepare(index) };
			} catch (error) {
				slot = { ok: false, error };
			}
			prepared[index] = slot;
		}
		return slot;
	};

	const prepareAhead = async (): Promise<void> => {
		let ahead = 0;
		while (!done && failures.size === 0) {
			// A zero wait lets answers that arrived be handled before the next item is prepared.
			await sleep(0);
			ahead = Math.max(ahead, next);
			while (ahead < count && prepared[ahead] !== undefined) ahead++;
			if (ahead >= count) return;
			prepareAt(ahead);
		}
	};

	const settleFailure = (index: number, error: unknown): void => {
		if (!stages.recover) {
			failures.set(index, error);
			return;
		}
		try {
			results[index] = stages.recover(error, index);
		} catch (unrecovered) {
			failures.set(index, unrecovered);
		}
	};

	const sender = async (): Promise<void> => {
		while (next < count && failures.size === 0) {
			const index = next++;
			const slot = prepareAt(index);
			// Taken: the preparer skips it, and its parameters are not kept.
			prepared[index] = { ok: false, error: undefined };
			if (!slot.ok) {
				settleFailure(index, slot.error);
				continue;
			}
			try {
				results[index] = await stages.send(slot.value, index);
			} catch (error) {
				settleFailure(index, error);
			}
		}
	};

	const ahead = prepareAhead();
	await Promise.all(Array.from({ length: Math.max(1, Math.min(concurrency, count)) }, sender));
	done = true;
	await ahead;
	if (failures.size > 0) {
		const firstFailed = Math.min(...failures.keys());
		throw failures.get(firstFailed);
	}
	return results;
}
