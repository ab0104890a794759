/** Checks for values from outside: answers, and static data, which is JSON anyone may have edited. */
export function isRecord(value: unknown): value is Record<string, unknown> {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function isTime(value: unknown): value is number {
	return typeof value === 'number' && Number.isFinite(value);
}
