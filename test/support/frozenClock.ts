/**
 * The trigger's clock held still at a chosen instant and moved only by the
 * test, so that what a poll decides by the time (when a watch began, the
 * lookback, quiet spells) never depends on how fast the machine runs. Timers
 * are not touched: answers and their deadlines run in real time.
 */
export function freezeClock(at: number) {
	let now = at;
	const spy = jest.spyOn(Date, 'now').mockImplementation(() => now);
	return {
		get now(): number {
			return now;
		},
		set(time: number): void {
			now = time;
		},
		advance(ms: number): void {
			now += ms;
		},
		restore(): void {
			spy.mockRestore();
		},
	};
}

/** A frozen clock for each test of a suite, back at `at` at the start of each. */
export function useFrozenClock(at: number) {
	let clock: ReturnType<typeof freezeClock> | undefined;
	beforeEach(() => {
		clock = freezeClock(at);
	});
	afterEach(() => clock?.restore());
	return {
		get now(): number {
			return (clock as ReturnType<typeof freezeClock>).now;
		},
		set: (time: number) => clock?.set(time),
		advance: (ms: number) => clock?.advance(ms),
	};
}
