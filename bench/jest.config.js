/** The bench's own unit tests: its report text, its measuring helpers and the processes it starts. */
/** @type {import('jest').Config} */
module.exports = {
	testEnvironment: 'node',
	roots: ['<rootDir>'],
	testMatch: ['**/*.test.ts'],
	transform: {
		'^.+\\.ts$': ['ts-jest', { tsconfig: '<rootDir>/tsconfig.json' }],
	},
	testTimeout: 30000,
	// Some suites start the emulator or a Node process with an inspector; two workers match the machine.
	maxWorkers: 2,
};
