/**
 * Tells a network failure (no answer could be had from the host) apart from
 * every other error an HTTP helper throws (a malformed URL, a blocked host, a
 * rejected certificate), so only the first is reported as "could not reach".
 */
const NETWORK_FAILURE_WORDS: Record<string, string> = {
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

export interface NetworkFailure {
	code: string;
	/** In words rather than the code: n8n replaces a message that names a system code with its own generic text. */
	words: string;
}

/** The network failure behind `error` (looked for in its cause chain), or undefined when it is some other error. */
export function networkFailureOf(error: unknown): NetworkFailure | undefined {
	let current: unknown = error;
	for (let depth = 0; depth < 5 && typeof current === 'object' && current !== null; depth++) {
		const code = (current as { code?: unknown }).code;
		if (typeof code === 'string' && Object.hasOwn(NETWORK_FAILURE_WORDS, code)) {
			return { code, words: NETWORK_FAILURE_WORDS[code] };
		}
		const message = (current as { message?: unknown }).message;
		if (typeof message === 'string' && message.toLowerCase().includes('socket hang up')) {
			return { code: 'ECONNRESET', words: NETWORK_FAILURE_WORDS.ECONNRESET };
		}
		current = (current as { cause?: unknown }).cause;
	}
	return undefined;
}
