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
		return [Array.from({ length: 10 }, (_, index) => ({ json: { index, pollStartedAt } }))];
	}
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
