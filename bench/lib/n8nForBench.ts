/* eslint-disable @n8n/community-nodes/no-restricted-imports -- n8n Cloud's limits are for nodes; this runs on Node itself (built-in modules) */
/**
 * One real n8n for the benchmark's side-by-side figures: the packed package
 * installed as n8n installs community packages, a credential pointing at the
 * emulator, and helpers to run workflows and read back what n8n recorded.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { credentialDataFor } from '../../test/emulator';
import { TRIVIAL_TRIGGER_DIR, type BenchWorkflow } from './benchWorkflows';
import { MAJOR_GC_PRELOAD, majorGcsBetween, readMajorGcs } from './majorGcs/majorGcs';
import { sleep } from '../../test/support/sleep';

const { N8nInstance, NoAnswerError, packPackage } =
	// eslint-disable-next-line @typescript-eslint/no-require-imports -- the e2e helpers are CommonJS JavaScript, typed through typeof import
	require('../../test/e2e/n8nInstance') as typeof import('../../test/e2e/n8nInstance');
const { N8N_VERSIONS } =
	// eslint-disable-next-line @typescript-eslint/no-require-imports -- as above
	require('../../test/e2e/n8nVersions') as typeof import('../../test/e2e/n8nVersions');

/** A call to n8n unanswered within the call timeout: whether n8n did what was asked is unknown. */
export { NoAnswerError };

/** The n8n the benchmark measures in: the newest the suites run. */
export function benchN8nVersion(): string {
	return N8N_VERSIONS.newest;
}

type Instance = Awaited<ReturnType<typeof N8nInstance.start>>;

export interface FinishedExecution {
	id: string;
	status: string;
	startedAt: string;
	stoppedAt: string;
	data?: {
		resultData: {
			runData: Record<
				string,
				Array<{
					executionTime: number;
					data?: { main: Array<Array<{ json: Record<string, unknown> }>> };
				}>
			>;
			error?: { message: string };
		};
	};
}

export class N8nForBench {
	private constructor(
		readonly n8n: Instance,
		readonly credential: { id: string; name: string },
		/** Where n8n's main process logs its major garbage collections, when it was started to. */
		private readonly gcLog?: string,
	) {}

	/**
	 * `inspectPort`: n8n's main process listens for an inspector there (the
	 * cycle profile starts V8's profiler in it); no other section sets it.
	 * `logMajorGcs`: n8n's main process logs its major garbage collections
	 * (majorGcs/preload.js), which `majorGcsBetween` counts.
	 * `callTimeoutMs`: a call to n8n's APIs unanswered by then fails (none by default).
	 */
	static async start(
		webUrl: string,
		env: Record<string, string> = {},
		{
			inspectPort,
			logMajorGcs = false,
			callTimeoutMs,
		}: { inspectPort?: number; logMajorGcs?: boolean; callTimeoutMs?: number } = {},
	): Promise<N8nForBench> {
		const tarball = packPackage(mkdtempSync(join(tmpdir(), 'appbuilder-bench-pack-')));
		const gcLog = logMajorGcs
			? join(mkdtempSync(join(tmpdir(), 'appbuilder-bench-gc-')), 'major.log')
			: undefined;
		const nodeOptions = [
			...(inspectPort === undefined ? [] : [`--inspect=127.0.0.1:${inspectPort}`]),
			...(gcLog === undefined ? [] : [`--require "${MAJOR_GC_PRELOAD}"`]),
		];
		const n8n = await N8nInstance.start({
			version: benchN8nVersion(),
			packageTarball: tarball,
			callTimeoutMs,
			// The benchmark's own trivial trigger, loaded from its folder: never part of the package.
			env: {
				N8N_CUSTOM_EXTENSIONS: TRIVIAL_TRIGGER_DIR,
				...(nodeOptions.length > 0 ? { NODE_OPTIONS: nodeOptions.join(' ') } : {}),
				...(gcLog === undefined ? {} : { N8N_BENCH_GC_LOG: gcLog }),
				...env,
			},
		});
		const name = 'App Builder (emulator)';
		const id = await n8n.createCredential(
			name,
			'appBuilderApi',
			credentialDataFor({ webUrl, connectUrl: webUrl }),
		);
		return new N8nForBench(n8n, { id, name }, gcLog);
	}

	/** How many major garbage collections paused n8n's main process from `from` to `to` (ms since 1970); NaN when it does not log them. */
	majorGcsBetween(from: number, to: number): number {
		return this.gcLog === undefined
			? Number.NaN
			: majorGcsBetween(readMajorGcs(this.gcLog), from, to);
	}

	/** n8n's main process (its task runners are its descendants). */
	get pid(): number | undefined {
		return this.n8n.process?.pid;
	}

	async activate(workflow: BenchWorkflow): Promise<string> {
		const id = await this.n8n.createWorkflow(workflow);
		await this.n8n.activate(id);
		return id;
	}

	async deactivate(workflowId: string): Promise<void> {
		await this.setActive(workflowId, false);
	}

	/**
	 * Turns a made workflow on or off. n8n carrying hundreds of polling
	 * workflows at once may answer 500 while it catches up (seen at 780
	 * triggers); the call is tried again a few times, and a failed answer
	 * counts as done when the workflow is in fact in the wanted state. A call
	 * n8n does not answer at all within the instance's call timeout is not
	 * asked again: an n8n that stopped answering only gets further behind.
	 */
	async setActive(workflowId: string, active: boolean): Promise<void> {
		const attempts = 6;
		let lastFailure = '';
		for (let attempt = 1; attempt <= attempts; attempt++) {
			lastFailure = await this.n8n
				.api('POST', `/workflows/${workflowId}/${active ? 'activate' : 'deactivate'}`)
				.then(
					() => '',
					(error: Error) => {
						if (error instanceof NoAnswerError) throw error;
						return error.message;
					},
				);
			if (!lastFailure) return;
			await sleep(5_000);
			const now = (await this.n8n.api('GET', `/workflows/${workflowId}`).catch(() => undefined)) as
				| { active?: boolean }
				| undefined;
			if (now?.active === active) return;
		}
		throw new Error(
			`workflow ${workflowId} not ${active ? 'activated' : 'deactivated'} after ${attempts} tries: ${lastFailure}`,
		);
	}

	/** Finished executions of a workflow, oldest first, without their data. */
	async finished(workflowId: string): Promise<FinishedExecution[]> {
		const list = (await this.n8n.api('GET', `/executions?workflowId=${workflowId}&limit=250`)) as {
			data: FinishedExecution[];
		};
		return list.data
			.filter(
				(execution) =>
					execution.stoppedAt && !['running', 'new', 'waiting'].includes(execution.status),
			)
			.sort((a, b) => Number(a.id) - Number(b.id));
	}

	/**
	 * Waits until the workflow has `count` finished executions; returns the
	 * newest, with its data. n8n busy with a large execution may drop API
	 * calls; they are tried again until the deadline, unless n8n has stopped.
	 */
	async waitForExecution(
		workflowId: string,
		count: number,
		timeoutMs: number,
	): Promise<FinishedExecution | undefined> {
		const deadline = Date.now() + timeoutMs;
		for (;;) {
			const done = await this.finished(workflowId).catch(async (error: unknown) => {
				if ((await this.stopped(0)) || Date.now() > deadline) throw error;
				return [];
			});
			if (done.length >= count) {
				return (await this.n8n.api(
					'GET',
					`/executions/${done[count - 1].id}?includeData=true`,
				)) as FinishedExecution;
			}
			if (Date.now() > deadline) return undefined;
			await sleep(250);
		}
	}

	/** Calls a production webhook; n8n registers it a moment after activation, so a 404 is retried. */
	async callWebhook(path: string, body: unknown): Promise<void> {
		for (let attempt = 0; ; attempt++) {
			const { response } = await this.n8n.call('POST', `/webhook/${path}`, {
				headers: { 'Content-Type': 'application/json' },
				body: JSON.stringify(body),
			});
			if (response.ok) return;
			if (response.status !== 404 || attempt >= 30)
				throw new Error(`webhook ${path}: ${response.status}`);
			await sleep(1000);
		}
	}

	/** Whether n8n's process has ended, or ends within `graceMs` (it can run out of memory on a large workflow). */
	async stopped(graceMs = 15_000): Promise<boolean> {
		const deadline = Date.now() + graceMs;
		for (;;) {
			const child = this.n8n.process;
			if (!child || (child.exitCode ?? child.signalCode) !== null) return true;
			if (Date.now() > deadline) return false;
			await sleep(250);
		}
	}

	/** The last lines n8n wrote that say why it stopped. */
	lastWords(): string {
		const lines = this.n8n.logs().trim().split('\n');
		const reason = [...lines]
			.reverse()
			.find((line) => /heap out of memory|FATAL|Killed|Error|exceeds/i.test(line));
		return (reason ?? lines[lines.length - 1] ?? '').trim().slice(0, 200);
	}

	/** Starts n8n again after it stopped, with a workflow that must not run again turned off. */
	async restartWithout(workflowId: string): Promise<void> {
		await this.n8n.stop();
		await this.n8n.restart();
		await this.deactivate(workflowId);
	}

	async stop(): Promise<void> {
		await this.n8n.destroy();
	}
}
