/** @type {import('jest').Config} */
module.exports = {
	testEnvironment: 'node',
	roots: ['<rootDir>/test'],
	testMatch: ['**/*.test.ts'],
	testPathIgnorePatterns: ['/node_modules/', '\\.e2e\\.test\\.ts$'],
	transform: {
		'^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.json' }],
	},
	// A bound on a hang, not on speed: the slowest test takes under a minute on a quiet 2-core machine and
	// up to several minutes beside heavy work. A test that waits for something names it in its own error.
	testTimeout: 15 * 60_000,
	// One fast-check seed per run, printed, and taken from PROPERTY_SEED to replay a failure.
	setupFilesAfterEnv: ['<rootDir>/test/support/propertySeed.ts'],
	// n8n's pattern matches without its wall-clock bound, in every suite (test/harness/regexWithoutClock.ts).
	setupFiles: ['<rootDir>/test/harness/regexWithoutClock.ts'],
	// A worker more than a 2-core machine has: several engine suites mostly wait (paced answers, retries'
	// back-off, timeouts), and a core they leave idle runs another suite meanwhile.
	maxWorkers: 3,
};
