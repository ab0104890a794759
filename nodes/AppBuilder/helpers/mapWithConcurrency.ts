/**
 * Runs `task` over indices 0..count-1 with at most `concurrency` in flight,
 * keeping results in input order. After the first failure no new task starts;
 * tasks already in flight finish (a request that is sent is not abandoned
 * halfway), then the failure of the lowest index is thrown.
 */
export async function mapWithConcurrency<T>(
	count: number,
	concurrency: number,
	task: (index: number) => Promise<T>,
): Promise<T[]> {
	const results = new Array<T>(count);
	const failures = new Map<number, unknown>();
	let next = 0;

	const worker = async (): Promise<void> => {
		while (next < count && failures.size === 0) {
			const index = next++;
			try {
				results[index] = await task(index);
			} catch (error) {
				failures.set(index, error);
			}
		}
	};

	const workers = Array.from({ length: Math.max(1, Math.min(concurrency, count)) }, worker);
	await Promise.all(workers);
	if (failures.size > 0) {
		const firstFailed = Math.min(...failures.keys());
		throw failures.get(firstFailed);
	}
	return results;
}
