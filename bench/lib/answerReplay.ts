/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-dangerous-functions -- n8n Cloud's limits are for nodes; this runs on Node itself (process, child processes, built-in modules) */
/**
 * One answer of the web services, recorded from the emulator and served
 * again, unchanged, by a process of its own: as it was (`/plain/…`) and
 * gzip-compressed as it was recorded (`/gzip/…`), from memory, whatever was asked.
 * The emulator compresses an answer of more than 20,000 inquiries anew on
 * every request (it keeps only smaller ones whole), on the cores the reader
 * runs on; a server across a network compresses on its own. Served this way,
 * a poll's time is the reading alone.
 *
 * Run as a script (by AnswerReplay.start): `tsx answerReplay.ts <plain file> <gzip file>`;
 * it prints the port it listens on.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:http';
import { readFileSync } from 'node:fs';

export class AnswerReplay {
	private constructor(
		private readonly child: ChildProcess,
		private readonly port: number,
	) {}

	/** Serves `plainFile` as it is and `gzipFile` with Content-Encoding gzip. */
	static async start(plainFile: string, gzipFile: string): Promise<AnswerReplay> {
		const child = spawn(process.execPath, [...process.execArgv, __filename, plainFile, gzipFile], {
			stdio: ['ignore', 'pipe', 'inherit'],
		});
		const port = await new Promise<number>((ready, fail) => {
			let printed = '';
			child.stdout?.on('data', (chunk: Buffer) => {
				printed += chunk.toString();
				const match = /listening (\d+)/.exec(printed);
				if (match) ready(Number(match[1]));
			});
			child.once('exit', (code) => fail(new Error(`the answer replay exited (${code})`)));
		});
		return new AnswerReplay(child, port);
	}

	/** The base URL a credential points at to be served the answer plain, or coded. */
	url(coded: boolean): string {
		return `http://127.0.0.1:${this.port}/${coded ? 'gzip' : 'plain'}`;
	}

	async stop(): Promise<void> {
		if (this.child.exitCode !== null) return;
		const exited = new Promise((done) => this.child.once('exit', done));
		this.child.kill('SIGTERM');
		await exited;
	}
}

function serve(plainFile: string, gzipFile: string): void {
	const plain = readFileSync(plainFile);
	const coded = readFileSync(gzipFile);
	const server = createServer((req, res) => {
		// The request's body is read to its end and not looked at: every request gets the answer.
		req.resume();
		req.on('end', () => {
			const isCoded = req.url?.startsWith('/gzip/') === true;
			res.writeHead(200, {
				'Content-Type': 'application/json; charset=UTF-8',
				'Content-Length': String(isCoded ? coded.length : plain.length),
				...(isCoded ? { 'Content-Encoding': 'gzip', Vary: 'Accept-Encoding' } : {}),
			});
			res.end(isCoded ? coded : plain);
		});
	});
	server.listen(0, '127.0.0.1', () => {
		const address = server.address();
		process.stdout.write(`listening ${typeof address === 'object' ? address?.port : ''}\n`);
	});
}

if (require.main === module) {
	const [plainFile, gzipFile] = process.argv.slice(2);
	serve(plainFile, gzipFile);
}
