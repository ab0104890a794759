import { createHash } from 'node:crypto';

import {
	TOKEN_REQUEST_DEADLINE_MS,
	type ConnectTokens,
	type TokenExchangeResult,
} from './connectToken';

// One token request per refresh token, within this process. The Connect refresh token is
// single-use: callers that find the access token expired at once would each send it, and all but
// the first be refused. Callers share a request under way and, briefly, its success (see
// ARCHITECTURE.md, "The Connect token").

export interface RefreshKey {
	tokenUrl: string;
	clientId: string;
	refreshToken: string;
}

export interface SharedRefreshOptions {
	/** Longest time a success is handed to late callers; never past the access token's expiry. */
	maxReuseMs?: number;
	/** Most successes kept at once; the oldest goes first. */
	maxEntries?: number;
	/**
	 * Longest a shared request may take: past it, every caller that joined
	 * it gets a failure, and the next caller sends a request of its own.
	 */
	deadlineMs?: number;
	now?: () => number;
}

interface Kept {
	tokens: ConnectTokens;
	/** Hash of the key the returned refresh token makes, to find this entry's successor. */
	nextId: string;
	reusableUntilMs: number;
}

const DEFAULT_MAX_REUSE_MS = 2 * 60_000;
const DEFAULT_MAX_ENTRIES = 100;

export class SharedRefresh {
	private readonly inFlight = new Map<string, Promise<TokenExchangeResult>>();

	private readonly kept = new Map<string, Kept>();

	private readonly maxReuseMs: number;

	private readonly maxEntries: number;

	private readonly now: () => number;

	/** Longest a shared request may take (see SharedRefreshOptions). */
	readonly deadlineMs: number;

	constructor(options: SharedRefreshOptions = {}) {
		this.maxReuseMs = options.maxReuseMs ?? DEFAULT_MAX_REUSE_MS;
		this.maxEntries = options.maxEntries ?? DEFAULT_MAX_ENTRIES;
		this.deadlineMs = options.deadlineMs ?? TOKEN_REQUEST_DEADLINE_MS;
		this.now = options.now ?? (() => Date.now());
	}

	/**
	 * The result for `key`: a request under way, a recent success, or a new
	 * request made with `exchange`. `heldAccessToken` is the Connect access
	 * token the caller has now: a kept success carrying that very token is not
	 * handed back, since the caller asks precisely because it was refused.
	 * `exchange` is given a signal that aborts at the shared request's deadline.
	 */
	async run(
		key: RefreshKey,
		heldAccessToken: string,
		exchange: (signal: AbortSignal) => Promise<TokenExchangeResult>,
	): Promise<TokenExchangeResult> {
		const id = hashOf(key);
		const pending = this.inFlight.get(id);
		if (pending) return copyOf(await pending);

		this.dropStale();
		const kept = this.kept.get(id);
		if (kept && kept.tokens.accessToken !== heldAccessToken) {
			return { ok: true, tokens: { ...kept.tokens } };
		}

		// Registered before exchange runs, so a caller arriving meanwhile finds it.
		const request = this.withDeadline(exchange)
			.then((result) => {
				if (result.ok) this.keep(key, id, result.tokens);
				return result;
			})
			.finally(() => this.inFlight.delete(id));
		this.inFlight.set(id, request);
		return copyOf(await request);
	}

	/**
	 * The exchange's result, or a failure at the deadline whether or not the
	 * exchange stops then (it is asked to, through the signal).
	 */
	private async withDeadline(
		exchange: (signal: AbortSignal) => Promise<TokenExchangeResult>,
	): Promise<TokenExchangeResult> {
		const deadline = AbortSignal.timeout(this.deadlineMs);
		let onDeadline: () => void = () => {};
		const timedOut = new Promise<TokenExchangeResult>((resolve) => {
			onDeadline = () =>
				resolve({
					ok: false,
					reason: 'timed_out',
					status: 0,
					bound: Math.ceil(this.deadlineMs / 1000),
				});
			deadline.addEventListener('abort', onDeadline, { once: true });
		});
		try {
			return await Promise.race([
				Promise.resolve().then(async () => await exchange(deadline)),
				timedOut,
			]);
		} finally {
			deadline.removeEventListener('abort', onDeadline);
		}
	}

	/** Number of successes kept now (for tests of the bounds). */
	get size(): number {
		this.dropStale();
		return this.kept.size;
	}

	/** Forgets every kept success (requests under way finish as they are). */
	clear(): void {
		this.kept.clear();
	}

	private keep(key: RefreshKey, id: string, tokens: ConnectTokens): void {
		const now = this.now();
		const until =
			tokens.expiresAtMs > 0
				? Math.min(now + this.maxReuseMs, tokens.expiresAtMs)
				: now + this.maxReuseMs;
		const nextId = hashOf({ ...key, refreshToken: tokens.refreshToken });
		// A late caller still holding an older refresh token of this chain gets
		// the newest tokens, never ones whose refresh token is already spent.
		for (const [earlierId, earlier] of this.kept) {
			if (earlier.nextId === id && earlierId !== id) {
				this.kept.set(earlierId, {
					tokens: { ...tokens },
					nextId,
					reusableUntilMs: Math.min(earlier.reusableUntilMs, until),
				});
			}
		}
		this.kept.delete(id);
		if (until <= now) return;
		while (this.kept.size >= this.maxEntries) {
			const oldest = this.kept.keys().next();
			if (oldest.done === true) break;
			this.kept.delete(oldest.value);
		}
		this.kept.set(id, { tokens: { ...tokens }, nextId, reusableUntilMs: until });
	}

	/** Timestamps instead of timers: stale entries go whenever the map is next used. */
	private dropStale(): void {
		const now = this.now();
		for (const [id, kept] of this.kept) {
			if (kept.reusableUntilMs <= now) this.kept.delete(id);
		}
	}
}

/** The one instance the credential uses in this process. */
export const connectRefreshes = new SharedRefresh();

function hashOf(key: RefreshKey): string {
	return createHash('sha256')
		.update(JSON.stringify([key.tokenUrl, key.clientId, key.refreshToken]))
		.digest('hex');
}

function copyOf(result: TokenExchangeResult): TokenExchangeResult {
	return result.ok ? { ok: true, tokens: { ...result.tokens } } : { ...result };
}
