/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-dangerous-functions -- n8n Cloud's limits are for nodes; this runs on Node itself (timers, process, built-in modules, child processes) */
import { spawn, type ChildProcess } from 'node:child_process';
import { request } from 'node:http';
import { resolve } from 'node:path';

import { FIXTURE } from '../../test/emulator';
import type { AnswerToReceive } from './benchWorkflows';

/**
 * The emulator in a process of its own, so what is measured in this
 * process (time, memory) is the client's work only.
 */
export class EmulatorProcess {
	private constructor(
		private readonly child: ChildProcess | undefined,
		readonly webUrl: string,
	) {}

	/** An emulator another process started. */
	static attach(webUrl: string): EmulatorProcess {
		return new EmulatorProcess(undefined, webUrl);
	}

	static async start(port: number): Promise<EmulatorProcess> {
		const child = spawn(
			process.execPath,
			[resolve(__dirname, '../../test/emulator/cli.js'), '--port', String(port), '--seed', 'test'],
			{
				stdio: ['ignore', 'pipe', 'inherit'],
			},
		);
		await new Promise<void>((ready, fail) => {
			child.stdout?.on('data', (chunk: Buffer) => {
				if (chunk.toString().includes('web services at')) ready();
			});
			child.once('exit', (code) => fail(new Error(`emulator exited (${code})`)));
		});
		return new EmulatorProcess(child, `http://127.0.0.1:${port}`);
	}

	async control(method: string, path: string, body?: unknown): Promise<unknown> {
		// A connection of its own for every call (no keep-alive): a kept-alive socket the emulator closes
		// the moment it is reused ("other side closed" on a loaded machine) would lose a change, which
		// cannot be sent again safely.
		const payload = body === undefined ? undefined : JSON.stringify(body);
		return await new Promise((done, fail) => {
			const req = request(
				`${this.webUrl}/__emulator${path}`,
				{
					method,
					agent: false,
					headers: { 'Content-Type': 'application/json', Connection: 'close' },
				},
				(res) => {
					const chunks: Buffer[] = [];
					res.on('data', (chunk: Buffer) => chunks.push(chunk));
					res.on('end', () => {
						try {
							done(JSON.parse(Buffer.concat(chunks).toString('utf8')));
						} catch (error) {
							fail(error instanceof Error ? error : new Error(String(error)));
						}
					});
					res.on('error', fail);
				},
			);
			req.on('error', fail);
			req.end(payload);
		});
	}

	/** The process's ID, to read the CPU time it used (its serving counted apart from the client's). */
	get pid(): number | undefined {
		return this.child?.pid;
	}

	/** A form of `count` inquiries of about 2 KB (10 fields), one a second up to now; everything else is reset. */
	async fillForm(count: number, pageId: string = FIXTURE.formPageId): Promise<void> {
		await this.control('POST', '/reset', { seed: 'test' });
		await this.control('POST', '/inquiries/bulk', {
			appId: FIXTURE.appId,
			pageId,
			count,
			fieldsPerRecord: 10,
			startTime: Date.now() - count * 1000 - 60_000,
		});
	}

	async addNew(count: number, pageId: string = FIXTURE.formPageId): Promise<void> {
		await this.control('POST', '/inquiries/bulk', {
			appId: FIXTURE.appId,
			pageId,
			count,
			fieldsPerRecord: 10,
			startTime: Date.now(),
			spacingMs: 1,
		});
	}

	/** Deletes the form's oldest inquiries until `keep` are left: the form keeps its size as new ones arrive. */
	async trimForm(keep: number, pageId: string = FIXTURE.formPageId): Promise<void> {
		await this.control('POST', '/inquiries/trim', { appId: FIXTURE.appId, pageId, keep });
	}

	/** Makes the forms `pageIds` hold the very inquiries of the form `from` (one list in the emulator). */
	async shareForm(from: string, pageIds: string[]): Promise<void> {
		await this.control('POST', '/forms/share', { appId: FIXTURE.appId, from, pageIds });
	}

	/** The floor: the same request over loopback, and JSON.parse of the body. */
	async fetchAndParse(): Promise<{ bytes: number; records: unknown[] }> {
		const response = await fetch(`${this.webUrl}/V4/webservices/FormBuilderApi.php`, {
			method: 'POST',
			headers: {
				'Content-Type': 'application/json',
				Accept: 'application/json',
				ACCESSTOKEN: FIXTURE.accessToken,
			},
			body: JSON.stringify({
				method: 'formBuilderInquiries',
				appId: FIXTURE.appId,
				pageId: FIXTURE.formPageId,
			}),
		});
		const text = await response.text();
		const body = JSON.parse(text) as { data: unknown[] };
		return { bytes: Buffer.byteLength(text), records: body.data };
	}

	/**
	 * Sets emulator config values (latency, rate limit, and for a slow link
	 * compression, bandwidthBytesPerSecond and roundTripMs). fillForm resets
	 * the emulator to the config it started with, so call this after it.
	 */
	async configure(config: Record<string, unknown>): Promise<void> {
		await this.control('POST', '/configure', config);
	}

	/** The request for the fixture form's inquiries, as the transfer and the trivial trigger receiving it send it. */
	get formAnswer(): AnswerToReceive {
		return {
			url: `${this.webUrl}/V4/webservices/FormBuilderApi.php`,
			request: { method: 'formBuilderInquiries', appId: FIXTURE.appId, pageId: FIXTURE.formPageId },
			headers: { ACCESSTOKEN: FIXTURE.accessToken },
		};
	}

	/**
	 * The transfer alone: the inquiries request over loopback, its answer's
	 * bytes read as they come and counted as they arrive on the socket (still
	 * compressed if the server compressed them), nothing parsed.
	 */
	async transfer(
		acceptEncoding?: string,
	): Promise<{ ms: number; wireBytes: number; encoding: string }> {
		const answer = this.formAnswer;
		const body = JSON.stringify(answer.request);
		const started = process.hrtime.bigint();
		return await new Promise((done, fail) => {
			const req = request(
				answer.url,
				{
					method: 'POST',
					headers: {
						'Content-Type': 'application/json',
						...answer.headers,
						...(acceptEncoding ? { 'Accept-Encoding': acceptEncoding } : {}),
					},
				},
				(res) => {
					let wireBytes = 0;
					res.on('data', (chunk: Buffer) => (wireBytes += chunk.length));
					res.on('end', () =>
						done({
							ms: Number(process.hrtime.bigint() - started) / 1e6,
							wireBytes,
							encoding: String(res.headers['content-encoding'] ?? 'identity'),
						}),
					);
					res.on('error', fail);
				},
			);
			req.on('error', fail);
			req.end(body);
		});
	}

	/** A small request that loads the same code paths as the measured one. */
	async fetchSecondForm(): Promise<void> {
		await fetch(`${this.webUrl}/V4/webservices/FormBuilderApi.php`, {
			method: 'POST',
			headers: { 'Content-Type': 'application/json', ACCESSTOKEN: FIXTURE.accessToken },
			body: JSON.stringify({
				method: 'formBuilderInquiries',
				appId: FIXTURE.appId,
				pageId: FIXTURE.secondFormPageId,
			}),
		}).then((r) => r.text());
	}

	async stop(): Promise<void> {
		const child = this.child;
		if (!child || child.exitCode !== null) return;
		const exited = new Promise((r) => child.once('exit', r));
		child.kill('SIGTERM');
		await exited;
	}
}
