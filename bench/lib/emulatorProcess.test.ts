import { freePort } from '../../test/e2e/n8nInstance';
import { EmulatorProcess } from './emulatorProcess';

/**
 * The benchmark's floors rest on these: the transfer counts the bytes that
 * crossed the socket (compressed when the emulator compressed them), and
 * configure() reaches the emulator in its own process.
 */
describe('the emulator process the benchmark measures against', () => {
	let emulator: EmulatorProcess;
	beforeAll(async () => {
		emulator = await EmulatorProcess.start(await freePort());
	});
	afterAll(async () => {
		await emulator.stop();
	});

	it('counts a plain answer at its JSON length, as the emulator logged it', async () => {
		await emulator.fillForm(200);
		const plain = await emulator.transfer();
		const { bytes } = await emulator.fetchAndParse();
		expect(plain.encoding).toBe('identity');
		expect(plain.wireBytes).toBe(bytes);
	});

	it('counts a compressed answer at its compressed size on the wire, the size the emulator logged', async () => {
		await emulator.fillForm(200);
		await emulator.configure({ compression: true });
		const plain = await emulator.transfer();
		const compressed = await emulator.transfer('gzip');
		const requests = (await emulator.control('GET', '/requests')) as Array<{
			wireBytes?: number;
			bodyBytes?: number;
		}>;
		const logged = requests[requests.length - 1];
		expect(compressed.encoding).toBe('gzip');
		expect(compressed.wireBytes).toBe(logged.wireBytes);
		expect(compressed.wireBytes).toBeLessThan(plain.wireBytes / 3);
		expect(logged.bodyBytes).toBe(plain.wireBytes);
	});

	it('applies the link it is configured with: the round trip delays the answer', async () => {
		await emulator.fillForm(10);
		await emulator.configure({ roundTripMs: 300 });
		const slow = await emulator.transfer();
		await emulator.configure({ roundTripMs: 0 });
		const fast = await emulator.transfer();
		expect(slow.ms).toBeGreaterThanOrEqual(300);
		expect(fast.ms).toBeLessThan(300);
	});
});
