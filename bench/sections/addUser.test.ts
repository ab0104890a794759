import { idealMsOf, type AddUserRow } from './addUser';

describe('the ideal time of Add User', () => {
	const row = (rateLimitPerSecond: number | null, idealMs?: number): AddUserRow => ({
		label: 'App Builder',
		rateLimitPerSecond,
		items: 1_000,
		nodeMs: 0,
		idealMs,
		created: 0,
		failedItems: 0,
		calls: 0,
		executionStatus: 'success',
	});

	it('is items × latency ÷ concurrency with no rate limit', () => {
		expect(idealMsOf(row(null, 10_000))).toBe(10_000);
	});

	it('is no less than items ÷ rate under a rate limit, also for a node with no fixed concurrency', () => {
		expect(idealMsOf(row(20, 10_000))).toBe(50_000);
		expect(idealMsOf(row(20))).toBe(50_000);
		expect(idealMsOf(row(null))).toBeUndefined();
	});
});
