/**
 * Recognises a thrown error as a network failure (no answer arrived) by the
 * system error code the HTTP client left on it or on its causes. Only the
 * codes listed here count: any other error is not a network failure and must
 * not be reworded as one.
 */
export interface NetworkFailure {
	ok: false;
	network: true;
	errorCode: string;
}

/** Failures that say nothing about the request itself, so a later attempt may pass. */
const TRANSIENT_CODES = new Set([
	'ECONNRESET',
	'ECONNABORTED',
	'ETIMEDOUT',
	'ESOCKETTIMEDOUT',
	'EPIPE',
	'EAI_AGAIN',
	'ECONNREFUSED',
	'ERR_SOCKET_CONNECTION_TIMEOUT',
]);

const WORDS: Record<string, string> = {
	ECONNRESET: 'the connection was reset',
	EPIPE: 'the connection was reset',
	ECONNABORTED: 'no answer in time',
	ETIMEDOUT: 'no answer in time',
	ESOCKETTIMEDOUT: 'no answer in time',
	ERR_SOCKET_CONNECTION_TIMEOUT: 'no answer in time',
	ECONNREFUSED: 'the connection was refused',
	ENOTFOUND: 'the host name was not found',
	EAI_AGAIN: 'the host name could not be looked up',
	EHOSTUNREACH: 'the host cannot be reached',
	ENETUNREACH: 'the network cannot be reached',
};

/** How far into a message a code is looked for: messages come from outside and may be long. */
const MESSAGE_SCAN_LENGTH = 1000;

export function asNetworkFailure(error: unknown): NetworkFailure | undefined {
	let current: unknown = error;
	for (let depth = 0; depth < 5 && current !== null && typeof current === 'object'; depth++) {
		const code = (current as { code?: unknown }).code;
		if (typeof code === 'string' && code in WORDS) return { ok: false, network: true, errorCode: code };
		current = (current as { cause?: unknown }).cause;
	}
	const message = (error instanceof Error ? error.message : String(error)).slice(0, MESSAGE_SCAN_LENGTH);
	const named = Object.keys(WORDS).find((code) => message.includes(code));
	if (named !== undefined) return { ok: false, network: true, errorCode: named };
	if (message.toLowerCase().includes('socket hang up')) return { ok: false, network: true, errorCode: 'ECONNRESET' };
	return undefined;
}

export function isTransient(failure: NetworkFailure): boolean {
	return TRANSIENT_CODES.has(failure.errorCode);
}

/** In words: n8n replaces a message that names a system code with its own generic text. */
export function networkFailureWords(failure: NetworkFailure): string {
	return WORDS[failure.errorCode] ?? 'the connection failed';
}
