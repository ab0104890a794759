/* eslint-disable @n8n/community-nodes/no-restricted-imports -- n8n Cloud's limits are for nodes; this test serves an answer with Node's HTTP server */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

import type { IDataObject, INodeType, IPollFunctions } from 'n8n-workflow';

import { MemoryCredentialsHelper, runPoll } from '../../test/harness';

// eslint-disable-next-line @typescript-eslint/no-require-imports -- the benchmark's trigger is plain JavaScript that n8n loads as it is
const { BenchTrivialTrigger } = require('./trivialTrigger/BenchTrivialTrigger.node.js') as {
	BenchTrivialTrigger: new () => {
		poll(this: IPollFunctions): Promise<Array<Array<{ json: IDataObject }>>>;
	};
};

/** One poll of the benchmark's trivial trigger with State Size set to `stateBytes`; what it returned and the static data it left. */
async function pollWithState(stateBytes: number) {
	const staticData: IDataObject = {};
	const context = {
		getNodeParameter: (name: string) => (name === 'stateBytes' ? stateBytes : undefined),
		getWorkflowStaticData: () => staticData,
	} as unknown as IPollFunctions;
	const output = await new BenchTrivialTrigger().poll.call(context);
	return { items: output[0], staticData };
}

describe("the benchmark's trivial trigger", () => {
	it('returns 10 items that carry the moment the poll started, and keeps no state by default', async () => {
		const before = Date.now();
		const { items, staticData } = await pollWithState(0);
		expect(items).toHaveLength(10);
		expect(items[0].json.pollStartedAt).toBeGreaterThanOrEqual(before);
		expect(staticData).toEqual({});
	});

	it('keeps a state of about the size asked, shaped like a cursor, replaced on every poll', async () => {
		const { staticData } = await pollWithState(41_111);
		const size = JSON.stringify(staticData).length;
		expect(size).toBeGreaterThan(40_000);
		expect(size).toBeLessThan(42_000);
		const cursor = staticData.cursor as { seen: Record<string, number> };
		expect(Object.keys(cursor.seen)[0]).toMatch(/^[0-9a-f]{24}$/);
	});

	it("receives an answer through n8n's HTTP helper when given one, counting every byte of it", async () => {
		const body = Buffer.alloc(300_000, 'x');
		const seen: Array<{ token?: string; request: string }> = [];
		const server = createServer((req, res) => {
			const parts: Buffer[] = [];
			req.on('data', (part: Buffer) => parts.push(part));
			req.on('end', () => {
				seen.push({
					token: req.headers.accesstoken as string | undefined,
					request: Buffer.concat(parts).toString(),
				});
				res.end(body);
			});
		});
		await new Promise<void>((ready) => server.listen(0, '127.0.0.1', ready));
		try {
			const { port } = server.address() as AddressInfo;
			const outcome = await runPoll({
				nodeType: new BenchTrivialTrigger() as unknown as INodeType,
				typeName: 'CUSTOM.benchTrivialTrigger',
				parameters: {
					stateBytes: 0,
					answerUrl: `http://127.0.0.1:${port}/answer`,
					answerRequest: JSON.stringify({ method: 'formBuilderInquiries' }),
					answerHeaders: JSON.stringify({ ACCESSTOKEN: 'token' }),
				},
				credentialsHelper: new MemoryCredentialsHelper({ types: {}, credentials: {} }),
			});
			expect(outcome.error).toBeUndefined();
			expect(outcome.result?.[0]).toHaveLength(10);
			expect(outcome.result?.[0][0].json.receivedBytes).toBe(body.length);
			expect(seen).toEqual([{ token: 'token', request: '{"method":"formBuilderInquiries"}' }]);
		} finally {
			server.close();
		}
	});
});
