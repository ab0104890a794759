import { headerValue } from './headerValue';

/**
 * Requests that carry secrets are sent with redirects turned off: a redirect
 * would resend the body (client secret, refresh token, API key) and custom
 * headers (ACCESSTOKEN) to wherever the answer points. This reads where a 3xx
 * answer pointed, as an origin only, so the error can name it without
 * repeating a path or query that may hold a token.
 */
const MAX_LOCATION_LENGTH = 2048;

export function isRedirectStatus(statusCode: number): boolean {
	return statusCode >= 300 && statusCode < 400;
}

/**
 * scheme://host[:port] of the Location header, resolved against the request URL;
 * undefined when none is usable.
 */
export function redirectOrigin(headers: unknown, requestUrl: string): string | undefined {
	const location = headerValue(headers, 'location');
	if (location === undefined || location === '') return undefined;
	try {
		const target = new URL(location.slice(0, MAX_LOCATION_LENGTH), requestUrl);
		// host leaves out user:password@ and the default port, and there is no path or query in it.
		return `${target.protocol}//${target.host}`;
	} catch {
		return undefined;
	}
}

/**
 * What to put in an error about a 3xx answer: its status and, when known, the origin it pointed to.
 */
export function describeRedirect(statusCode: number, headers: unknown, requestUrl: string): string {
	const origin = redirectOrigin(headers, requestUrl);
	return origin
		? `a redirect (HTTP ${statusCode}) to ${origin}`
		: `a redirect (HTTP ${statusCode}) without a usable Location`;
}

/** A web-service answer that was a redirect: never followed, and named by its origin only. */
export interface RedirectFailure {
	ok: false;
	kind: 'redirect';
	httpStatus: number;
	/** scheme://host[:port] of the Location, or a description when it has none usable. */
	target: string;
}

export function redirectFailure(
	statusCode: number,
	headers: unknown,
	requestUrl: string,
): RedirectFailure | undefined {
	if (!isRedirectStatus(statusCode)) return undefined;
	const target =
		redirectOrigin(headers, requestUrl) ?? 'an address that is missing or does not parse';
	return { ok: false, kind: 'redirect', httpStatus: statusCode, target };
}
