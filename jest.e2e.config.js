/** End-to-end suites: a real n8n per suite, one at a time. */
/** @type {import('jest').Config} */
module.exports = {
	testEnvironment: 'node',
	roots: ['<rootDir>/test/e2e'],
	testMatch: ['**/*.e2e.test.ts'],
	transform: { '^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.json' }] },
	// A bound on a hang; the tests that wait for n8n name what they wait for in their own errors.
	testTimeout: 10 * 60_000,
	maxWorkers: 1,
};
