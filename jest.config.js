/** @type {import('jest').Config} */
module.exports = {
	testEnvironment: 'node',
	roots: ['<rootDir>/test'],
	testMatch: ['**/*.test.ts'],
	testPathIgnorePatterns: ['/node_modules/', '\\.e2e\\.test\\.ts$'],
	transform: {
		'^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.json' }],
	},
	testTimeout: 30000,
	// One fast-check seed per run, printed, and taken from PROPERTY_SEED to replay a failure.
	setupFilesAfterEnv: ['<rootDir>/test/support/propertySeed.ts'],
	// The engine and emulator suites each start servers; two workers match the machine.
	maxWorkers: 2,
};
