/* eslint-disable @n8n/community-nodes/no-restricted-globals -- n8n Cloud's limits are for nodes; this runs on Node itself (timers, process, built-in modules) */
import type {
	ConnectTokens,
	TokenExchangeResult,
} from '../../../../nodes/shared/connect/connectToken';
import { SharedRefresh } from '../../../../nodes/shared/connect/sharedRefresh';

/**
 * One token request per refresh token within the process: a fake token
 * endpoint that rotates refresh tokens (and refuses a spent one, as the
 * Connect API does) counts the requests, and a fake clock moves time.
 */
describe('SharedRefresh', () => {
	const tokenUrl = 'https://connect.example/v1/oauth2/token';
	const clientId = 'client';

	function setUp(options: { maxReuseMs?: number; maxEntries?: number; lifetimeMs?: number } = {}) {
		let nowMs = 1_000_000;
		let issued = 0;
		const spent = new Set<string>();
		const requests: string[] = [];
		let release: (() => void) | undefined;
		let holdNext = false;
		const shared = new SharedRefresh({ ...options, now: () => nowMs });
		const exchangeFor = (refreshToken: string) => async (): Promise<TokenExchangeResult> => {
			requests.push(refreshToken);
			if (holdNext) {
				holdNext = false;
				await new Promise<void>((resolve) => (release = resolve));
			}
			if (spent.has(refreshToken)) return { ok: false, reason: 'invalid_grant', status: 400 };
			spent.add(refreshToken);
			issued++;
			const tokens: ConnectTokens = {
				accessToken: `access-${issued}`,
				refreshToken: `refresh-${issued}`,
				expiresAtMs: nowMs + (options.lifetimeMs ?? 3_600_000),
			};
			return { ok: true, tokens };
		};
		const refresh = async (refreshToken: string, held = '') =>
			await shared.run({ tokenUrl, clientId, refreshToken }, held, exchangeFor(refreshToken));
		return {
			shared,
			refresh,
			requests,
			advance: (ms: number) => (nowMs += ms),
			holdNextRequest: () => (holdNext = true),
			releaseHeldRequest: () => release?.(),
		};
	}

	it('makes one request for callers that arrive together with the same refresh token, and gives each the result', async () => {
		const { refresh, requests } = setUp();
		const results = await Promise.all([1, 2, 3, 4, 5].map(async () => await refresh('refresh-0')));
		expect(requests).toEqual(['refresh-0']);
		for (const result of results)
			expect(result).toEqual({
				ok: true,
				tokens: expect.objectContaining({ accessToken: 'access-1', refreshToken: 'refresh-1' }),
			});
		// Each caller gets its own copy.
		expect(new Set(results.map((result) => (result.ok ? result.tokens : undefined))).size).toBe(5);
	});

	it('shares a failure among the callers waiting for it, but does not keep it', async () => {
		const failing = new SharedRefresh();
		let calls = 0;
		const exchange = async (): Promise<TokenExchangeResult> => {
			calls++;
			return { ok: false, reason: 'unreachable', status: 0, detail: 'the connection was refused' };
		};
		const key = { tokenUrl, clientId, refreshToken: 'refresh-0' };
		const results = await Promise.all(
			[1, 2, 3].map(async () => await failing.run(key, '', exchange)),
		);
		expect(calls).toBe(1);
		for (const result of results)
			expect(result).toMatchObject({ ok: false, reason: 'unreachable' });
		await failing.run(key, 'access-held', exchange);
		await failing.run(key, '', exchange);
		expect(calls).toBe(3);
	});

	it('shares a request that throws with the callers waiting for it, and lets the next caller ask again', async () => {
		const throwing = new SharedRefresh();
		let calls = 0;
		const exchange = async (): Promise<TokenExchangeResult> => {
			calls++;
			throw new Error('boom');
		};
		const key = { tokenUrl, clientId, refreshToken: 'refresh-0' };
		const settled = await Promise.allSettled(
			[1, 2].map(async () => await throwing.run(key, '', exchange)),
		);
		expect(settled.map((s) => s.status)).toEqual(['rejected', 'rejected']);
		expect(calls).toBe(1);
		await expect(throwing.run(key, '', exchange)).rejects.toThrow('boom');
		expect(calls).toBe(2);
	});

	it('gives a caller that arrives after the request finished, with the now spent refresh token, the same tokens', async () => {
		const { refresh, requests, advance } = setUp();
		const first = await refresh('refresh-0');
		advance(30_000);
		const late = await refresh('refresh-0', 'access-0');
		expect(requests).toEqual(['refresh-0']);
		expect(late).toEqual(first);
	});

	it('keeps a success no longer than its window: after it, a spent refresh token is sent again (and refused)', async () => {
		const { refresh, requests, advance } = setUp({ maxReuseMs: 60_000 });
		await refresh('refresh-0');
		advance(60_000);
		const late = await refresh('refresh-0');
		expect(requests).toEqual(['refresh-0', 'refresh-0']);
		expect(late).toMatchObject({ ok: false, reason: 'invalid_grant' });
	});

	it('keeps a success no longer than its access token lives', async () => {
		const { refresh, requests, advance } = setUp({ maxReuseMs: 60_000, lifetimeMs: 10_000 });
		await refresh('refresh-0');
		advance(9_999);
		expect(await refresh('refresh-0')).toMatchObject({ ok: true });
		advance(1);
		await refresh('refresh-0');
		expect(requests).toEqual(['refresh-0', 'refresh-0']);
	});

	it('does not hand a caller back the access token it already holds: it was refused, so a new request goes out', async () => {
		const { refresh, requests } = setUp();
		await refresh('refresh-0');
		await refresh('refresh-0', 'access-1');
		expect(requests).toEqual(['refresh-0', 'refresh-0']);
	});

	it('gives a late caller of an older refresh token the newest tokens of its chain, never a spent refresh token', async () => {
		const { refresh, requests } = setUp();
		await refresh('refresh-0');
		// access-1 was refused; the saved refresh-1 is used next.
		const second = await refresh('refresh-1', 'access-1');
		const late = await refresh('refresh-0', 'access-0');
		expect(requests).toEqual(['refresh-0', 'refresh-1']);
		expect(late).toEqual(second);
		expect(late).toMatchObject({ ok: true, tokens: { refreshToken: 'refresh-2' } });
	});

	it('shares a request still under way with a caller holding the same refresh token', async () => {
		const { refresh, requests, holdNextRequest, releaseHeldRequest } = setUp();
		holdNextRequest();
		const first = refresh('refresh-0');
		await new Promise((resolve) => setImmediate(resolve));
		const second = refresh('refresh-0');
		await new Promise((resolve) => setImmediate(resolve));
		releaseHeldRequest();
		expect(await second).toEqual(await first);
		expect(requests).toEqual(['refresh-0']);
	});

	it('keeps refresh tokens apart: a different refresh token, client or URL makes its own request', async () => {
		const shared = new SharedRefresh();
		const seen: string[] = [];
		const exchange = (label: string) => async (): Promise<TokenExchangeResult> => {
			seen.push(label);
			return {
				ok: true,
				tokens: { accessToken: `a-${label}`, refreshToken: `r-${label}`, expiresAtMs: 0 },
			};
		};
		await Promise.all([
			shared.run({ tokenUrl, clientId, refreshToken: 'one' }, '', exchange('1')),
			shared.run({ tokenUrl, clientId, refreshToken: 'two' }, '', exchange('2')),
			shared.run({ tokenUrl, clientId: 'other-client', refreshToken: 'one' }, '', exchange('3')),
			shared.run(
				{ tokenUrl: 'https://other.example/v1/oauth2/token', clientId, refreshToken: 'one' },
				'',
				exchange('4'),
			),
		]);
		expect(seen.sort()).toEqual(['1', '2', '3', '4']);
	});

	it('keeps at most maxEntries successes, the oldest going first', async () => {
		const { shared, refresh, requests } = setUp({ maxEntries: 3 });
		for (const token of ['a', 'b', 'c', 'd', 'e']) await refresh(token);
		expect(shared.size).toBe(3);
		await refresh('e');
		await refresh('a');
		expect(requests).toEqual(['a', 'b', 'c', 'd', 'e', 'a']);
	});

	it('holds no refresh token as a key', async () => {
		const { shared, refresh } = setUp();
		await refresh('refresh-token-in-clear');
		const internals = shared as unknown as {
			kept: Map<string, unknown>;
			inFlight: Map<string, unknown>;
		};
		const keys = [...internals.kept.keys(), ...internals.inFlight.keys()].join(' ');
		expect(keys).not.toContain('refresh-token-in-clear');
		expect(internals.kept.size).toBe(1);
	});

	describe('a request that does not end', () => {
		it('is given 30 seconds unless told otherwise', () => {
			expect(new SharedRefresh().deadlineMs).toBe(30_000);
		});

		it('fails for every caller that joined it at its deadline, aborts it, and lets the next caller start afresh', async () => {
			const shared = new SharedRefresh({ deadlineMs: 300 });
			const signals: AbortSignal[] = [];
			let answer: 'never' | 'tokens' = 'never';
			const exchange = async (signal: AbortSignal): Promise<TokenExchangeResult> => {
				signals.push(signal);
				if (answer === 'never') return await new Promise<TokenExchangeResult>(() => {});
				return { ok: true, tokens: { accessToken: 'a', refreshToken: 'r', expiresAtMs: 0 } };
			};
			const key = { tokenUrl, clientId, refreshToken: 'refresh-0' };
			const started = Date.now();
			const results = await Promise.all(
				[1, 2, 3].map(async () => await shared.run(key, '', exchange)),
			);
			expect(Date.now() - started).toBeGreaterThanOrEqual(290);
			for (const result of results)
				expect(result).toEqual({ ok: false, reason: 'timed_out', status: 0, bound: 1 });
			expect(signals).toHaveLength(1);
			expect(signals[0].aborted).toBe(true);

			answer = 'tokens';
			expect(await shared.run(key, '', exchange)).toMatchObject({ ok: true });
			expect(signals).toHaveLength(2);
		});
	});
});
