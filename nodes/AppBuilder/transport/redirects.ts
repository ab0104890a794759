/**
 * A redirect is never followed: it would carry the ACCESSTOKEN header, and on
 * 307/308 the body with the apiKey and a user's password, to wherever the
 * Location points. The error names only the origin it pointed to, since a
 * query string may itself hold a secret.
 */
export interface RedirectFailure {
	ok: false;
	redirect: true;
	httpStatus: number;
	/** scheme://host:port of the Location, or a description when it has none or it does not parse. */
	target: string;
}

export function redirectFailure(
	statusCode: number,
	headers: Record<string, unknown> | undefined,
	requestUrl: string,
): RedirectFailure | undefined {
	if (statusCode < 300 || statusCode >= 400 || statusCode === 304) return undefined;
	const location = headerText(headers, 'location');
	return { ok: false, redirect: true, httpStatus: statusCode, target: originOf(location, requestUrl) };
}

function originOf(location: string | undefined, requestUrl: string): string {
	if (location === undefined || location.trim() === '') return 'no address';
	try {
		const origin = new URL(location.trim(), requestUrl).origin;
		return origin === 'null' ? 'an address that is not a web address' : origin;
	} catch {
		return 'an address that does not parse';
	}
}

function headerText(headers: Record<string, unknown> | undefined, name: string): string | undefined {
	if (!headers) return undefined;
	for (const [key, value] of Object.entries(headers)) {
		if (key.toLowerCase() !== name) continue;
		const first: unknown = Array.isArray(value) ? value[0] : value;
		return typeof first === 'string' ? first.slice(0, 4096) : undefined;
	}
	return undefined;
}
