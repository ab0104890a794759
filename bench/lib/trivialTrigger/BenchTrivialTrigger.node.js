// @ts-check
'use strict';

/**
 * A polling trigger that does nothing but return 10 fixed items: what a poll
 * cycle costs in n8n itself, with no request and no reading. The benchmark
 * loads it into its own n8n through N8N_CUSTOM_EXTENSIONS; it is not part of
 * the package. Each item carries the moment the poll started, so the
 * benchmark can split a cycle into n8n's scheduling, the poll and the
 * execution.
 *
 * With State Size above 0 it also replaces, on every poll, a static-data
 * value of about that many bytes shaped like the App Builder Trigger's
 * cursor (keys and times), so the benchmark can measure what n8n spends on
 * keeping a trigger's state apart from everything else.
 *
 * With an Answer URL it also receives an answer on every poll, through
 * n8n's own HTTP helper as a stream, counting its bytes and nothing more:
 * the least any node does to receive it inside n8n's process.
 */
class BenchTrivialTrigger {
	/** @type {import('n8n-workflow').INodeTypeDescription} */
	description = {
		displayName: 'Bench Trivial Trigger',
		name: 'benchTrivialTrigger',
		group: ['trigger'],
		version: 1,
		description: 'Returns 10 fixed items on every poll (benchmark only)',
		defaults: { name: 'Bench Trivial Trigger' },
		polling: true,
		inputs: [],
		outputs: [/** @type {import('n8n-workflow').NodeConnectionType} */ ('main')],
		properties: [
			{
				displayName: 'State Size',
				name: 'stateBytes',
				type: 'number',
				default: 0,
				description: 'Bytes of static data replaced on every poll (0: none)',
			},
			{
				displayName: 'Answer URL',
				name: 'answerUrl',
				type: 'string',
				default: '',
				description: 'Where to POST for an answer received on every poll (empty: none)',
			},
			{
				displayName: 'Answer Request',
				name: 'answerRequest',
				type: 'json',
				default: '{}',
				description: "The request's JSON body",
			},
			{
				displayName: 'Answer Headers',
				name: 'answerHeaders',
				type: 'json',
				default: '{}',
				description: "The request's headers",
			},
		],
	};

	/**
	 * @this {import('n8n-workflow').IPollFunctions}
	 * @returns {Promise<import('n8n-workflow').INodeExecutionData[][]>}
	 */
	async poll() {
		const pollStartedAt = Date.now();
		const stateBytes = /** @type {number} */ (this.getNodeParameter('stateBytes', 0));
		if (stateBytes > 0)
			this.getWorkflowStaticData('node').cursor = cursorLike(stateBytes, pollStartedAt);
		const answerUrl = /** @type {string} */ (this.getNodeParameter('answerUrl', ''));
		const receivedBytes = answerUrl ? await receiveAnswer(this, answerUrl) : 0;
		return [
			Array.from({ length: 10 }, (_, index) => ({
				json: { index, pollStartedAt, receivedBytes },
			})),
		];
	}
}

/**
 * POSTs for the answer and counts its bytes as they arrive.
 * @param {import('n8n-workflow').IPollFunctions} context
 * @param {string} url
 */
async function receiveAnswer(context, url) {
	const json = (/** @type {string} */ name) =>
		JSON.parse(/** @type {string} */ (context.getNodeParameter(name, '{}')));
	const response = await context.helpers.httpRequest({
		method: 'POST',
		url,
		body: json('answerRequest'),
		headers: { 'Content-Type': 'application/json', ...json('answerHeaders') },
		json: true,
		encoding: 'stream',
		returnFullResponse: true,
	});
	let bytes = 0;
	for await (const chunk of /** @type {AsyncIterable<Buffer>} */ (response.body))
		bytes += chunk.length;
	return bytes;
}

/**
 * About `bytes` of JSON: 24-hex keys, each with a 13-digit time, as a cursor keeps them.
 * @param {number} bytes
 * @param {number} now
 */
function cursorLike(bytes, now) {
	/** @type {Record<string, number>} */
	const seen = {};
	const entryBytes = JSON.stringify({ ['0'.repeat(24)]: now }).length - 1;
	for (let index = 0; index < Math.floor(bytes / entryBytes); index++) {
		seen[(index + now).toString(16).padStart(24, '0')] = now - index;
	}
	return { v: 2, scope: 'bench', floor: { time: now, key: '' }, seen, undated: '' };
}

module.exports = { BenchTrivialTrigger };
