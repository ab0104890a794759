/* eslint-disable @n8n/community-nodes/no-restricted-imports -- n8n Cloud's limits are for nodes; this runs on Node itself (timers, process, built-in modules) */
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RecordedRequest {
	method: string;
	url: string;
	headers: IncomingHttpHeaders;
	body: string;
}

export interface Answer {
	status: number;
	headers?: Record<string, string>;
	body?: unknown;
	/** Bytes sent as they are instead of `body` (a compressed or corrupt answer), written as the client reads them. */
	bytes?: Iterable<Buffer>;
}

export interface RecordingServer {
	/** http://127.0.0.1:<port>, no trailing slash. */
	url: string;
	requests: RecordedRequest[];
	/** Bytes of `bytes` answers the client took before the answer ended or it hung up. */
	bytesSent(): number;
	close(): Promise<void>;
}

/**
 * A loopback HTTP server that records every request (headers and raw body)
 * and answers with `answer`: a stand-in for a proxy that redirects, or for the
 * host a redirect points to, so a test can see what would have reached it.
 */
export async function startRecordingServer(
	answer: (request: RecordedRequest) => Answer,
): Promise<RecordingServer> {
	const requests: RecordedRequest[] = [];
	let bytesSent = 0;
	const server = createServer((req, res) => {
		const chunks: Buffer[] = [];
		req.on('data', (chunk: Buffer) => chunks.push(chunk));
		req.on('end', () => {
			const recorded = {
				method: req.method ?? '',
				url: req.url ?? '',
				headers: req.headers,
				body: Buffer.concat(chunks).toString('utf8'),
			};
			requests.push(recorded);
			const { status, headers = {}, body, bytes } = answer(recorded);
			res.writeHead(status, { 'Content-Type': 'application/json', ...headers });
			if (bytes) writeAsRead(res, bytes[Symbol.iterator](), (sent) => (bytesSent += sent));
			else res.end(body === undefined ? '' : JSON.stringify(body));
		});
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as AddressInfo;
	return {
		url: `http://127.0.0.1:${port}`,
		requests,
		bytesSent: () => bytesSent,
		close: async () =>
			await new Promise<void>((resolve, reject) => {
				server.closeAllConnections();
				server.close((error) => (error ? reject(error) : resolve()));
			}),
	};
}

/** Writes `chunks` while the client keeps reading, and stops when it hangs up. */
function writeAsRead(
	res: ServerResponse,
	chunks: Iterator<Buffer>,
	sent: (bytes: number) => void,
): void {
	const more = (): void => {
		while (!res.destroyed) {
			const next = chunks.next();
			if (next.done === true) {
				res.end();
				return;
			}
			sent(next.value.length);
			if (!res.write(next.value)) {
				res.once('drain', more);
				return;
			}
		}
	};
	more();
}

/**
 * A host that answers every request like a Connect token endpoint would, and a
 * redirector in front of it answering `status` with a Location that has a path
 * and a query (which no error may repeat). Whatever reaches the sink leaked.
 */
export async function startRedirectToSink(status: number): Promise<{
	redirector: RecordingServer;
	sink: RecordingServer;
	close(): Promise<void>;
}> {
	const sink = await startRecordingServer(() => ({
		status: 200,
		body: {
			access_token: 'sink-access-token',
			refresh_token: 'sink-refresh-token',
			expires_at: 4102444800,
			type: 'bearer',
			successCode: '200',
			message: 'ok',
		},
	}));
	const redirector = await startRecordingServer(() => ({
		status,
		headers: { Location: `${sink.url}/collect/secret-path?leak=query-value` },
	}));
	return {
		redirector,
		sink,
		close: async () => {
			await Promise.all([redirector.close(), sink.close()]);
		},
	};
}
