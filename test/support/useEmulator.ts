import { startEmulator } from '../emulator';

export type Emulator = Awaited<ReturnType<typeof startEmulator>>;

/**
 * One emulator for a test file, started before its tests, reset before each
 * (state, configuration, faults and request log) and closed after them.
 * Returns a getter, since the emulator exists only once beforeAll has run.
 */
export function useEmulator(options: Parameters<typeof startEmulator>[0] = {}): () => Emulator {
	let emulator: Emulator | undefined;
	beforeAll(async () => {
		emulator = await startEmulator(options);
	});
	afterAll(async () => {
		await emulator?.close();
	});
	beforeEach(() => {
		emulator?.control.reset();
		emulator?.control.clearRequests();
	});
	return () => {
		if (!emulator) throw new Error('the emulator starts in beforeAll');
		return emulator;
	};
}
