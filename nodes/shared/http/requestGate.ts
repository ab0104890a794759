/**
 * How many requests of one node run may be in flight, lowered while the API
 * answers 429 and raised again as requests pass: items that keep colliding
 * with a rate limit stop colliding once fewer of them are sent at a time
 * (additive increase, multiplicative decrease). Waiting needs no timer: a
 * request that leaves lets the next waiter in.
 */
export class RequestGate {
	/** No limit until the first 429: the node's Concurrency option bounds it until then. */
	private limit = Number.POSITIVE_INFINITY;
	private inFlight = 0;
	private passedSinceChange = 0;
	private readonly waiting: Array<() => void> = [];

	get currentLimit(): number {
		return this.limit;
	}

	async enter(): Promise<void> {
		if (this.inFlight < this.limit) {
			this.inFlight++;
			return;
		}
		await new Promise<void>((resolve) => this.waiting.push(resolve));
	}

	leave(): void {
		this.inFlight--;
		this.admitWaiting();
	}

	/** A 429 arrived: halve what may be in flight, at least one. */
	rateLimited(): void {
		this.limit = Math.max(1, Math.floor(Math.min(this.limit, this.inFlight) / 2));
		this.passedSinceChange = 0;
	}

	/** A request passed: after as many passes as the limit, one more may be in flight. */
	passed(): void {
		if (!Number.isFinite(this.limit)) return;
		this.passedSinceChange++;
		if (this.passedSinceChange < this.limit) return;
		this.passedSinceChange = 0;
		this.limit = this.limit + 1 >= UNLIMITED_FROM ? Number.POSITIVE_INFINITY : this.limit + 1;
		this.admitWaiting();
	}

	private admitWaiting(): void {
		while (this.inFlight < this.limit && this.waiting.length > 0) {
			this.inFlight++;
			this.waiting.shift()?.();
		}
	}
}

/** The node's largest Concurrency: from there on the gate has nothing left to limit. */
const UNLIMITED_FROM = 50;
