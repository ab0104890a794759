/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-dangerous-functions -- n8n Cloud's limits are for nodes; this runs on Node itself (timers, process, built-in modules, a child process it pauses) */
import { spawn } from 'node:child_process';
import { resolve } from 'node:path';

// A child matches a linear pattern through n8n's safeRegex, over and over, while the test pauses it
// for 400 ms at a time, as a busy machine does to a process: a pause in the middle of a match is past
// n8n's 250 ms wall-clock bound.
const CHILD = `
const { safeRegex } = require('n8n-workflow');
if (process.argv[1] === 'harness') require(${JSON.stringify(resolve(__dirname, 'regexWithoutClock.ts'))});
let matches = 0;
let timedOut = 0;
let wrong = 0;
const PATTERN = '^formbuilder_\\\\d+_\\\\d+$';
let open = true;
process.stdin.on('end', () => (open = false)).resume();
(async () => {
	process.stdout.write('ready\\n');
	while (open) {
		const until = Date.now() + 50;
		while (Date.now() < until) {
			matches++;
			try {
				const answers = [safeRegex.test(PATTERN, 'formbuilder_1234_5678'), safeRegex.test(PATTERN, 'form_1')];
				if (answers[0] !== true || answers[1] !== false) wrong++;
			} catch (error) {
				timedOut++;
				process.stdout.write('timed out: ' + error.message + '\\n');
			}
		}
		await new Promise((next) => setImmediate(next));
	}
	process.stdout.write(JSON.stringify({ matches, timedOut, wrong }) + '\\n');
})();
`;

const PAUSE_MS = 400;

async function pausedMatches(
	engine: 'n8n' | 'harness',
	pauses: { upTo: number; untilATimeOut: boolean },
): Promise<{ matches: number; timedOut: number; wrong: number; pauses: number }> {
	const child = spawn(process.execPath, ['--import', 'tsx', '--eval', CHILD, engine], {
		stdio: ['pipe', 'pipe', 'inherit'],
	});
	let printed = '';
	child.stdout.on('data', (chunk: Buffer) => (printed += chunk.toString()));
	const printedSoFar = async (what: string, has: (text: string) => boolean) =>
		await new Promise<void>((done, fail) => {
			const check = () => {
				if (!has(printed)) return;
				child.stdout.off('data', check);
				done();
			};
			// After the listener above, which has appended the chunk by then.
			child.stdout.on('data', check);
			child.once('exit', (code) =>
				has(printed) ? done() : fail(new Error(`the child ended (${code}) before ${what}`)),
			);
			check();
		});
	const sleep = async (ms: number) => await new Promise((wake) => setTimeout(wake, ms));
	await printedSoFar('it was ready', (text) => text.includes('ready\n'));
	let paused = 0;
	while (paused < pauses.upTo && !(pauses.untilATimeOut && printed.includes('timed out'))) {
		child.kill('SIGSTOP');
		await sleep(PAUSE_MS);
		child.kill('SIGCONT');
		paused++;
		await sleep(PAUSE_MS / 2);
	}
	child.stdin.end();
	await printedSoFar('its summary', (text) => /^\{.*\}$/m.test(text));
	const summary = JSON.parse(/^\{.*\}$/m.exec(printed)?.[0] ?? '{}') as {
		matches: number;
		timedOut: number;
		wrong: number;
	};
	return { ...summary, pauses: paused };
}

describe("n8n's pattern matches in tests", () => {
	it("fail on a paused process with n8n's own engine (what the harness replaces)", async () => {
		const outcome = await pausedMatches('n8n', { upTo: 40, untilATimeOut: true });
		expect(outcome.timedOut).toBeGreaterThan(0);
	});

	it('give the same answers and never time out with the harness loaded', async () => {
		const outcome = await pausedMatches('harness', { upTo: 4, untilATimeOut: false });
		expect(outcome).toMatchObject({ timedOut: 0, wrong: 0, pauses: 4 });
		expect(outcome.matches).toBeGreaterThan(0);
	});
});
