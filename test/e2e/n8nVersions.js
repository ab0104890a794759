// @ts-check
'use strict';

/**
 * The n8n releases the end-to-end suites, the demo and the benchmark run,
 * in one place. `newest` is the newest 2.x that installs from the npm
 * registry: n8n 2.41.3 (the registry's latest tag) pins n8n-core 2.41.2,
 * @n8n/config 2.39.1 and other packages of its own that the registry does
 * not serve, so it cannot be installed; 2.41.1 is the newest whose every
 * dependency is there. `oldest` is the last 1.x line, which many
 * self-hosted users still run. test/e2e/install-n8n.sh reads this file too.
 */
const N8N_VERSIONS = Object.freeze({ newest: '2.41.1', oldest: '1.123.81' });

module.exports = { N8N_VERSIONS };
