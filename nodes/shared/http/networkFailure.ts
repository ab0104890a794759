// Tells a network failure (no answer could be had from the host) apart from every other error an
// HTTP helper throws (a malformed URL, a rejected certificate, an answer that is not HTTP), by the
// system error code the client left on the error or its causes. Only those are reported as "could
// not reach"; any other error keeps its own message.

export interface NetworkFailure {
	ok: false;
	kind: 'network';
	errorCode: string;
}

/**
 * In words rather than the code: n8n replaces a message that names a system
 * code with its own generic text.
 */
const WORDS: Record<string, string> = {
	ECONNREFUSED: 'the connection was refused',
	ENOTFOUND: 'the host name was not found',
	EAI_AGAIN: 'the host name could not be looked up',
	EHOSTUNREACH: 'the host is unreachable',
	EHOSTDOWN: 'the host is down',
	ENETUNREACH: 'the network is unreachable',
	ENETDOWN: 'the network is down',
	ECONNRESET: 'the connection was reset',
	EPIPE: 'the connection was reset',
	ECONNABORTED: 'no answer in time',
	ETIMEDOUT: 'no answer in time',
	ESOCKETTIMEDOUT: 'no answer in time',
	ERR_SOCKET_CONNECTION_TIMEOUT: 'no answer in time',
	UND_ERR_CONNECT_TIMEOUT: 'no answer in time',
	UND_ERR_SOCKET: 'the connection was reset',
};

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
	'UND_ERR_CONNECT_TIMEOUT',
	'UND_ERR_SOCKET',
]);

/**
 * The network failure behind `error` (looked for in its cause chain), or
 * undefined when it is some other error.
 */
export function asNetworkFailure(error: unknown): NetworkFailure | undefined {
	let current: unknown = error;
	for (let depth = 0; depth < 5 && typeof current === 'object' && current !== null; depth++) {
		const code = (current as { code?: unknown }).code;
		if (typeof code === 'string' && Object.hasOwn(WORDS, code))
			return { ok: false, kind: 'network', errorCode: code };
		const message = (current as { message?: unknown }).message;
		if (
			typeof message === 'string' &&
			message.slice(0, 1000).toLowerCase().includes('socket hang up')
		) {
			return { ok: false, kind: 'network', errorCode: 'ECONNRESET' };
		}
		current = (current as { cause?: unknown }).cause;
	}
	return undefined;
}

export function isTransient(failure: NetworkFailure): boolean {
	return TRANSIENT_CODES.has(failure.errorCode);
}

export function networkFailureWords(failure: NetworkFailure): string {
	return WORDS[failure.errorCode] ?? 'the connection failed';
}
