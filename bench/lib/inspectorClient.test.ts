/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-dangerous-functions -- n8n Cloud's limits are for nodes; this test starts a Node process with an inspector */
import { spawn, type ChildProcess } from 'node:child_process';

import { freePort } from '../../test/e2e/n8nInstance';
import type { CpuProfile } from './cpuProfile';
import { decodeFrames, encodeFrame, InspectorClient, inspectorTarget } from './inspectorClient';
import { sleep } from '../../test/support/sleep';

/** A server's frame: not masked. */
function serverFrame(opcode: number, payload: Buffer, fin = true): Buffer {
	const length = payload.length;
	const header =
		length < 126
			? Buffer.from([(fin ? 0x80 : 0) | opcode, length])
			: length < 65_536
				? Buffer.from([(fin ? 0x80 : 0) | opcode, 126, length >> 8, length & 0xff])
				: Buffer.concat([Buffer.from([(fin ? 0x80 : 0) | opcode, 127]), bigLength(length)]);
	return Buffer.concat([header, payload]);
}

function bigLength(length: number): Buffer {
	const eight = Buffer.alloc(8);
	eight.writeBigUInt64BE(BigInt(length));
	return eight;
}

describe("the client for another process's inspector", () => {
	it('reads back what it writes, masked, at each of the three lengths a frame can give', () => {
		for (const length of [5, 300, 70_000]) {
			const payload = Buffer.alloc(length, 'x');
			const frame = encodeFrame(1, payload);
			// A client's frames are masked: the mask bit is set, and the bytes on the wire are not the payload's.
			expect(frame[1] & 0x80).toBe(0x80);
			const { frames, used } = decodeFrames(frame);
			expect(used).toBe(frame.length);
			expect(frames).toEqual([{ fin: true, opcode: 1, payload }]);
		}
	});

	it("leaves a server's frame that is not whole yet, and says how many bytes it takes", () => {
		const first = serverFrame(1, Buffer.from('{"id":1}'));
		const second = serverFrame(1, Buffer.alloc(70_000, 'y'));
		const both = Buffer.concat([first, second]);
		const partial = decodeFrames(both.subarray(0, first.length + 100));
		expect(partial.frames.map((frame) => frame.payload.toString())).toEqual(['{"id":1}']);
		expect(partial.used).toBe(first.length);
		expect(partial.needed).toBe(second.length);
		// Not even the length of the next frame in yet.
		expect(decodeFrames(both.subarray(0, first.length + 1)).needed).toBeUndefined();
		expect(decodeFrames(both).frames).toHaveLength(2);
	});

	describe('against a real inspector', () => {
		let child: ChildProcess;
		let port: number;
		beforeAll(async () => {
			port = await freePort();
			child = spawn(
				process.execPath,
				[
					`--inspect=127.0.0.1:${port}`,
					'-e',
					'setInterval(() => { let sum = 0; for (let i = 0; i < 1e5; i++) sum += i; }, 2)',
				],
				{ stdio: 'ignore' },
			);
			for (let attempt = 0; attempt < 50; attempt++) {
				if (await inspectorTarget(port).then(Boolean, () => false)) return;
				await sleep(100);
			}
		});
		afterAll(() => {
			child.kill();
		});

		it("starts and stops V8's profiler in the other process, on the machine's monotonic clock", async () => {
			const client = await InspectorClient.connect(await inspectorTarget(port));
			try {
				await client.post('Profiler.enable');
				await client.post('Profiler.setSamplingInterval', { interval: 200 });
				const before = Number(process.hrtime.bigint() / 1000n);
				await client.post('Profiler.start');
				const after = Number(process.hrtime.bigint() / 1000n);
				await sleep(300);
				const { profile } = await client.post<{ profile: CpuProfile }>('Profiler.stop');
				expect(profile.samples.length).toBeGreaterThan(100);
				expect(profile.nodes.some((node) => node.callFrame.functionName === '(root)')).toBe(true);
				// The profile's clock is process.hrtime's: its start lies between the two readings around starting it.
				expect(profile.startTime).toBeGreaterThanOrEqual(before - 1_000);
				expect(profile.startTime).toBeLessThanOrEqual(after + 1_000);
				await expect(client.post('No.such')).rejects.toThrow(/inspector/);
			} finally {
				client.close();
			}
		});
	});
});
