/**
 * Which of the credential's secrets a request may carry, decided by where it
 * goes: the ACCESSTOKEN header only to the web-service host, the Connect
 * bearer token only to the Connect host, nothing to any other host.
 */
export type TokenDestination = 'webService' | 'connect' | 'other';

const WEB_SERVICE_PATH_PREFIX = '/v4/webservices/';

export function destinationOf(
	requestUrl: string | undefined,
	requestBaseUrl: string | undefined,
	webServiceBaseUrl: string,
	connectBaseUrl: string | undefined,
): TokenDestination {
	const target = parseUrl(requestUrl ?? '', requestBaseUrl);
	if (!target) return 'other';
	const web = parseUrl(webServiceBaseUrl);
	const connect = connectBaseUrl ? parseUrl(connectBaseUrl) : undefined;
	const isWeb = web !== undefined && web.origin === target.origin;
	const isConnect = connect !== undefined && connect.origin === target.origin;
	if (isWeb && isConnect) {
		// Both services behind one host (a gateway or a local test server): the path tells them apart.
		return target.pathname.toLowerCase().startsWith(WEB_SERVICE_PATH_PREFIX) ? 'webService' : 'connect';
	}
	if (isWeb) return 'webService';
	if (isConnect) return 'connect';
	return 'other';
}

function parseUrl(url: string, base?: string): URL | undefined {
	try {
		return base ? new URL(url, base) : new URL(url);
	} catch {
		return undefined;
	}
}
