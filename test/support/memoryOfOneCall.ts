/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports, no-console -- n8n Cloud's limits are for nodes; this runs on Node itself (timers, process, n8n's own modules); it prints its measurement */
/**
 * Run in a fresh process (tsx): how much memory one call of the package adds
 * while it reads what a server sends. The highest resident set size seen
 * while the call runs (sampled every millisecond, and the process's maximum
 * when that is higher), less the resident set size just before it.
 *
 * Usage: tsx memoryOfOneCall.ts <path> <web service base URL>
 * Paths: getManyLimit, getManyAll, getManyAllFormsLimit, getManyAllFormsAll
 * (Get Many over every form the server lists), poll (a later poll whose floor every record
 * is above, so each may be emitted), firstPoll (Only New Leads, so no record is
 * kept), fetchTestEvent. The form is MEASURED_FORM; a warm-up call first reads the
 * form WARMUP_FORM the same way, so modules and the HTTP stack are loaded.
 * Prints a line MEASURED_LINE and {"peakAddedBytes", "items", "error",
 * "logged"} as JSON: the error the call ended with, and the errors it logged
 * (a later poll logs a failure instead of throwing it).
 */
import { Logger } from '@n8n/backend-common';
import { Container } from '@n8n/di';
import type { IDataObject } from 'n8n-workflow';

import { AppBuilderApi } from '../../credentials/AppBuilderApi.credentials';
import { FIXTURE } from '../emulator';
import { MemoryCredentialsHelper, runNode, runPoll } from '../harness';
import { MEASURED_FORM, MEASURED_LINE, WARMUP_FORM } from './inquiryAnswers';
import { AppBuilder, AppBuilderTrigger } from './nodeClasses';
import { peakRssAddedDuring } from './peakDuring';

const CREDENTIALS = { appBuilderApi: { id: '1', name: 'App Builder' } };

interface CallOutcome {
	items: number;
	error?: string;
}

/** What n8n's logger was given as errors while the measured call ran. */
const logged: string[] = [];
Container.get(Logger).error = (message: string) => void logged.push(message);

type Call = (pageId: string) => Promise<CallOutcome>;

function helperFor(baseUrl: string): MemoryCredentialsHelper {
	return new MemoryCredentialsHelper({
		types: { appBuilderApi: new AppBuilderApi() },
		credentials: {
			appBuilderApi: {
				accessToken: FIXTURE.accessToken,
				apiKey: FIXTURE.apiKey,
				baseUrl,
				useConnect: false,
				connectAccessToken: '',
			},
		},
	});
}

function getMany(helper: MemoryCredentialsHelper, extra: IDataObject): Call {
	return async (pageId) => {
		const run = await runNode({
			nodeType: new AppBuilder(),
			typeName: 'n8n-nodes-appbuilder.appBuilder',
			parameters: {
				resource: 'inquiry',
				operation: 'getAll',
				appId: FIXTURE.appId,
				pageId: { __rl: true, mode: 'id', value: pageId },
				simplify: true,
				filters: {},
				...extra,
			},
			credentials: CREDENTIALS,
			credentialsHelper: helper,
		});
		return { items: run.items.length, error: run.error?.message };
	};
}

function acrossForms(helper: MemoryCredentialsHelper, extra: IDataObject): Call {
	const oneForm = getMany(helper, extra);
	const allForms = getMany(helper, { ...extra, readFrom: 'allForms' });
	return async (pageId) => await (pageId === WARMUP_FORM ? oneForm : allForms)(pageId);
}

function poll(helper: MemoryCredentialsHelper, mode: 'trigger' | 'manual', floor?: number): Call {
	return async (pageId) => {
		const staticData: IDataObject =
			floor === undefined
				? {}
				: {
						inquiryCursor: {
							v: 1,
							scope: `${FIXTURE.appId}/${pageId}/new`,
							floor,
							seen: {},
							undated: [],
						},
					};
		const outcome = await runPoll({
			nodeType: new AppBuilderTrigger(),
			typeName: 'n8n-nodes-appbuilder.appBuilderTrigger',
			parameters: {
				event: 'new',
				appId: FIXTURE.appId,
				pageId: { __rl: true, mode: 'id', value: pageId },
				simplify: true,
				options: {},
			},
			credentials: CREDENTIALS,
			credentialsHelper: helper,
			staticData,
			mode,
		});
		return { items: outcome.result?.[0]?.length ?? 0, error: outcome.error?.message };
	};
}

function callFor(path: string, helper: MemoryCredentialsHelper): Call {
	switch (path) {
		case 'getManyLimit':
			return getMany(helper, { returnAll: false, limit: 50 });
		case 'getManyAll':
			return getMany(helper, { returnAll: true });
		case 'poll':
			return poll(helper, 'trigger', 0);
		case 'firstPoll':
			return poll(helper, 'trigger');
		case 'fetchTestEvent':
			return poll(helper, 'manual');
		// Every form the server's getAppFeatures lists (MEASURED_FORM among them); the warm-up reads one form.
		case 'getManyAllFormsLimit':
			return acrossForms(helper, { returnAll: false, limit: 50 });
		case 'getManyAllFormsAll':
			return acrossForms(helper, { returnAll: true });
		default:
			throw new Error(`unknown path ${path}`);
	}
}

async function main(): Promise<void> {
	const [path, baseUrl] = process.argv.slice(2);
	const call = callFor(path, helperFor(baseUrl));
	await call(WARMUP_FORM);
	logged.length = 0;
	const { value: outcome, peakAddedBytes } = await peakRssAddedDuring(
		async () => await call(MEASURED_FORM),
	);
	// On a line of its own, after anything n8n's engine wrote to stdout.
	process.stdout.write(
		`\n${MEASURED_LINE}${JSON.stringify({ peakAddedBytes, ...outcome, logged })}\n`,
	);
}

main().catch((error: unknown) => {
	console.error(error);
	process.exit(1);
});
