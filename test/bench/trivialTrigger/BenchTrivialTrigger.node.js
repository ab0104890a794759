// @ts-check
'use strict';

/**
 * A polling trigger that does nothing but return 10 fixed items: what a poll
 * cycle costs in n8n itself, with no request and no reading. The benchmark
 * loads it into its own n8n through N8N_CUSTOM_EXTENSIONS; it is not part of
 * the package. Each item carries the moment the poll started, so the
 * benchmark can split a cycle into n8n's scheduling, the poll and the
 * execution.
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
		properties: [],
	};

	/** @returns {Promise<import('n8n-workflow').INodeExecutionData[][]>} */
	async poll() {
		const pollStartedAt = Date.now();
		return [Array.from({ length: 10 }, (_, index) => ({ json: { index, pollStartedAt } }))];
	}
}

module.exports = { BenchTrivialTrigger };
