import { setSafeRegexEngine, type RegexEngine } from 'n8n-workflow';

/**
 * n8n matches a parameter's pattern (a resource locator's validation, its
 * extractValue) in a vm that gives up after 250 ms of wall clock
 * (n8n-workflow's safe-regex.ts), and the run then fails with "Regular
 * expression execution timed out". A busy machine that pauses the process
 * for longer (descheduled, or a long garbage collection) in the middle of a
 * match fails it however linear the pattern: a test would fail on the
 * machine's speed alone. Tests match the same patterns with the same RegExp
 * and no clock; that every pattern of the package is linear is checked by
 * eslint (regexp/no-super-linear-backtracking).
 */
const sameRegExpWithoutClock: RegexEngine = {
	exec: (pattern, input, flags) => new RegExp(pattern, flags).exec(input),
	test: (pattern, input, flags) => new RegExp(pattern, flags).test(input),
	replace: (pattern, input, flags, replacement) =>
		input.replace(new RegExp(pattern, flags), replacement),
	matchAll: (pattern, input, flags = '') => [
		...input.matchAll(new RegExp(pattern, flags.includes('g') ? flags : `${flags}g`)),
	],
	split: (pattern, input, flags) => input.split(new RegExp(pattern, flags)),
};

setSafeRegexEngine(sameRegExpWithoutClock);
