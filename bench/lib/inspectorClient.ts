/* eslint-disable @n8n/community-nodes/no-restricted-imports -- n8n Cloud's limits are for nodes; this runs on Node itself (built-in modules) */
/**
 * A client for another process's inspector (a process started with
 * `--inspect`): the DevTools protocol over a WebSocket, enough of it to
 * start and stop V8's sampling profiler in n8n's process from the benchmark.
 * Node 20 has no WebSocket client of its own and `ws` is not a dependency of
 * the package, so the few frames the protocol needs are written here: text
 * frames out (masked, as a client must), text frames in (whole or in
 * pieces, of any length), ping answered, close.
 */
import { randomBytes } from 'node:crypto';
import { request } from 'node:http';
import type { Socket } from 'node:net';

/** The WebSocket address of the first target an inspector on `port` lists. */
export async function inspectorTarget(port: number): Promise<string> {
	const response = await fetch(`http://127.0.0.1:${port}/json/list`);
	const targets = (await response.json()) as Array<{ webSocketDebuggerUrl?: string }>;
	const url = targets.find((target) => target.webSocketDebuggerUrl)?.webSocketDebuggerUrl;
	if (!url) throw new Error(`the inspector on port ${port} lists no target`);
	return url;
}

const OPCODE = { continuation: 0, text: 1, close: 8, ping: 9, pong: 10 } as const;

/** One client frame: FIN set, the payload masked with a fresh key. */
export function encodeFrame(opcode: number, payload: Buffer): Buffer {
	const length = payload.length;
	const header =
		length < 126
			? Buffer.from([0x80 | opcode, 0x80 | length])
			: length < 65_536
				? Buffer.from([0x80 | opcode, 0x80 | 126, length >> 8, length & 0xff])
				: Buffer.concat([
						Buffer.from([0x80 | opcode, 0x80 | 127]),
						(() => {
							const eight = Buffer.alloc(8);
							eight.writeBigUInt64BE(BigInt(length));
							return eight;
						})(),
					]);
	const mask = randomBytes(4);
	const masked = Buffer.alloc(length);
	for (let index = 0; index < length; index++) masked[index] = payload[index] ^ mask[index & 3];
	return Buffer.concat([header, mask, masked]);
}

export interface Frame {
	fin: boolean;
	opcode: number;
	payload: Buffer;
}

/**
 * The frames whole in `buffer`, and how many bytes they took; a frame not yet
 * whole is left for the next call, and `needed` says how many bytes from
 * `used` it takes when its header is in. Frames from a server are not
 * masked, but a masked one is read too.
 */
export function decodeFrames(buffer: Buffer): { frames: Frame[]; used: number; needed?: number } {
	const frames: Frame[] = [];
	let at = 0;
	let needed: number | undefined;
	for (;;) {
		if (buffer.length - at < 2) break;
		const first = buffer[at];
		const second = buffer[at + 1];
		let length = second & 0x7f;
		let offset = at + 2;
		if (length === 126) {
			if (buffer.length - offset < 2) break;
			length = buffer.readUInt16BE(offset);
			offset += 2;
		} else if (length === 127) {
			if (buffer.length - offset < 8) break;
			length = Number(buffer.readBigUInt64BE(offset));
			offset += 8;
		}
		const masked = (second & 0x80) !== 0;
		const mask = masked ? buffer.subarray(offset, offset + 4) : undefined;
		if (masked) offset += 4;
		if (buffer.length - offset < length) {
			needed = offset + length - at;
			break;
		}
		let payload = buffer.subarray(offset, offset + length);
		if (mask) payload = Buffer.from(payload.map((byte, index) => byte ^ mask[index & 3]));
		frames.push({ fin: (first & 0x80) !== 0, opcode: first & 0x0f, payload });
		at = offset + length;
	}
	return { frames, used: at, needed };
}

/** One DevTools protocol session over a WebSocket. */
export class InspectorClient {
	private nextId = 1;
	private readonly pending = new Map<
		number,
		{ done: (result: unknown) => void; fail: (error: Error) => void }
	>();
	private received: Buffer[] = [];
	private receivedBytes = 0;
	/** Bytes the frame being received takes, once its header is in: nothing is decoded before. */
	private neededBytes = 0;
	/** The pieces of a message that came in more than one frame. */
	private message: Buffer[] = [];

	private constructor(private readonly socket: Socket) {
		socket.on('data', (chunk: Buffer) => this.onData(chunk));
		const failAll = (error: Error) => {
			for (const { fail } of this.pending.values()) fail(error);
			this.pending.clear();
		};
		socket.on('error', failAll);
		socket.on('close', () => failAll(new Error('the inspector closed the connection')));
	}

	static async connect(url: string): Promise<InspectorClient> {
		const { hostname, port, pathname } = new URL(url);
		return await new Promise((done, fail) => {
			const upgrade = request({
				hostname,
				port,
				path: pathname,
				headers: {
					Connection: 'Upgrade',
					Upgrade: 'websocket',
					'Sec-WebSocket-Version': '13',
					'Sec-WebSocket-Key': randomBytes(16).toString('base64'),
				},
			});
			upgrade.on('upgrade', (_response, socket, head) => {
				const client = new InspectorClient(socket);
				if (head.length > 0) client.onData(head);
				done(client);
			});
			upgrade.on('response', (response) =>
				fail(new Error(`the inspector refused the WebSocket: ${response.statusCode}`)),
			);
			upgrade.on('error', fail);
			upgrade.end();
		});
	}

	/** Sends a protocol command and waits for its result. */
	async post<Result = unknown>(method: string, params: object = {}): Promise<Result> {
		const id = this.nextId++;
		const answered = new Promise<unknown>((done, fail) => this.pending.set(id, { done, fail }));
		this.socket.write(
			encodeFrame(OPCODE.text, Buffer.from(JSON.stringify({ id, method, params }))),
		);
		return (await answered) as Result;
	}

	close(): void {
		this.socket.end(encodeFrame(OPCODE.close, Buffer.alloc(0)));
		this.socket.destroy();
	}

	private onData(chunk: Buffer): void {
		this.received.push(chunk);
		this.receivedBytes += chunk.length;
		// A profile's answer comes in many chunks: they are joined once the whole frame is in, not on every chunk.
		if (this.receivedBytes < this.neededBytes) return;
		const buffer = this.received.length === 1 ? this.received[0] : Buffer.concat(this.received);
		const { frames, used, needed } = decodeFrames(buffer);
		const rest = buffer.subarray(used);
		this.received = rest.length > 0 ? [rest] : [];
		this.receivedBytes = rest.length;
		this.neededBytes = needed ?? 0;
		for (const frame of frames) this.onFrame(frame);
	}

	private onFrame(frame: Frame): void {
		if (frame.opcode === OPCODE.ping) {
			this.socket.write(encodeFrame(OPCODE.pong, frame.payload));
			return;
		}
		if (frame.opcode === OPCODE.close) {
			this.socket.destroy();
			return;
		}
		if (frame.opcode !== OPCODE.text && frame.opcode !== OPCODE.continuation) return;
		this.message.push(frame.payload);
		if (!frame.fin) return;
		const text = Buffer.concat(this.message).toString('utf8');
		this.message = [];
		const message = JSON.parse(text) as {
			id?: number;
			result?: unknown;
			error?: { message: string };
		};
		// Events (no id) are not asked for here.
		if (message.id === undefined) return;
		const waiting = this.pending.get(message.id);
		this.pending.delete(message.id);
		if (message.error) waiting?.fail(new Error(`inspector: ${message.error.message}`));
		else waiting?.done(message.result);
	}
}
