/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- n8n Cloud's limits are for nodes; this runs on Node itself (timers, process, built-in modules) */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';

// What a crash-suite test leaves behind when it fails, without any variable
// set: n8n's output of every start it killed and of the one running when it
// failed, its figures, the seed and the command that replays it. A failure
// one run in nine is a defect; its record is what finds the cause. A test
// that passes leaves nothing, unless CRASH_LOG_DIR names a folder, which
// keeps every test's record.

const ROOT = resolve(__dirname, '../..');
/**
 * How long one crash-suite test may run: a bound on a hang. Each takes 2 to 6
 * minutes on a quiet 2-core machine, and many times that beside heavy work
 * (every start of n8n, up to 22 a test, takes minutes then).
 */
export const CRASH_TEST_BOUND_MS = 60 * 60_000;

/** The folder each test of this run writes into: CRASH_LOG_DIR, or one of its own under test-results/. */
const runFolder =
	process.env.CRASH_LOG_DIR ??
	join(ROOT, 'test-results', 'crash-suite', new Date().toISOString().replace(/[:.]/g, '-'));

export class CrashRecord {
	readonly folder: string;
	/** Output read only if the test fails: the n8n (or worker) running then. */
	private readonly watched = new Map<string, () => string>();

	constructor(
		readonly test: string,
		/** The seed this test draws from, and CRASH_SEED, the suite's, which replays it. */
		private readonly seed: number,
		private readonly suiteSeed: number,
	) {
		this.folder = join(runFolder, test);
		rmSync(this.folder, { recursive: true, force: true });
		mkdirSync(this.folder, { recursive: true });
	}

	/** Writes `text` to `<name>.log` now (a killed start's output, a report's figures). */
	keep(name: string, text: string): void {
		writeFileSync(join(this.folder, `${name}.log`), text);
	}

	/** `output` is written to `<name>.log` if the test fails; a later watch of that name replaces it. */
	watch(name: string, output: () => string): void {
		this.watched.set(name, output);
	}

	/**
	 * Runs the test's body; a failure, or no end within CRASH_TEST_BOUND_MS,
	 * keeps the record and says where; a pass removes it (unless CRASH_LOG_DIR).
	 */
	async run(body: (record: CrashRecord) => Promise<void>): Promise<void> {
		let timer: NodeJS.Timeout | undefined;
		const bound = new Promise<never>((_, reject) => {
			timer = setTimeout(
				() =>
					reject(new Error(`the test did not end within ${CRASH_TEST_BOUND_MS / 60_000} minutes`)),
				CRASH_TEST_BOUND_MS,
			);
		});
		try {
			await Promise.race([body(this), bound]);
		} catch (error) {
			for (const [name, output] of this.watched) this.keep(name, output());
			const title = expect.getState().currentTestName ?? this.test;
			// jest's -t takes a pattern: the title's parentheses and pluses are meant as they are.
			const pattern = title.replace(/[$()*+.?[\\\]^{|}]/g, '\\$&');
			const replay = `CRASH_SEED=${this.suiteSeed} npx jest -c jest.e2e.config.js test/e2e/crashRecovery.e2e.test.ts -t ${JSON.stringify(pattern)}`;
			this.keep(
				'failure',
				[
					`test: ${title}`,
					`seed: ${this.seed} (the suite's ${this.suiteSeed})`,
					`replay: ${replay}`,
					'',
					error instanceof Error ? (error.stack ?? error.message) : String(error),
				].join('\n'),
			);
			process.stderr.write(
				`crash suite: "${title}" failed with seed ${this.seed}; n8n's output, the figures and the replay command are in ${relative(process.cwd(), this.folder)}\n`,
			);
			// eslint-disable-next-line @n8n/community-nodes/require-node-api-error -- not a node: the test fails with its own error
			throw error;
		} finally {
			clearTimeout(timer);
		}
		if (process.env.CRASH_LOG_DIR === undefined)
			rmSync(this.folder, { recursive: true, force: true });
	}
}

/**
 * The body of a crash-suite test, run so that its failure keeps a record
 * (CrashRecord) named `test`, and the test's timeout for jest, past the
 * record's own bound.
 */
export const recordedTest = (
	test: string,
	seed: number,
	suiteSeed: number,
	body: (record: CrashRecord) => Promise<void>,
): [() => Promise<void>, number] => [
	async () => await new CrashRecord(test, seed, suiteSeed).run(body),
	CRASH_TEST_BOUND_MS + 5 * 60_000,
];
