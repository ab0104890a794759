/* eslint-disable @n8n/community-nodes/no-restricted-globals -- n8n Cloud's limits are for nodes; tests run on Node itself (timers) */
/** Waits this many milliseconds. */
export const sleep = (ms: number): Promise<void> =>
	new Promise<void>((resolve) => setTimeout(resolve, ms));
