import { useRealN8n } from './useRealN8n';
import { N8N_VERSIONS } from './n8nVersions';
import { checkUserLifecycle } from './scenarios';

/** The same tarball on the last n8n 1.x line, which many self-hosted users still run. */
describe(`the package in n8n ${N8N_VERSIONS.oldest}`, () => {
	const real = useRealN8n({
		version: N8N_VERSIONS.oldest,
		credential: { name: 'App Builder (emulator)' },
	});

	it("A: adds, updates and reads through n8n 1.x; a duplicate email ends in the node's clear error", async () => {
		const { emu, n8n, credential } = real();
		await checkUserLifecycle(n8n, emu, credential);
	});
});
