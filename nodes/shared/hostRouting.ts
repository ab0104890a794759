// Which of the credential's secrets a request may carry, decided by where it goes: the ACCESSTOKEN
// header only under the Web Service Base URL, the Connect bearer token only under the Connect Base
// URL, nothing anywhere else.

export type TokenDestination = 'webService' | 'connect' | 'other';

const WEB_SERVICE_PATH_PREFIX = '/v4/webservices/';

interface ServiceBase {
	destination: Exclude<TokenDestination, 'other'>;
	origin: string;
	/** The base URL's path without trailing slashes; '' for the host's root. */
	path: string;
}

export function destinationOf(
	requestUrl: string | undefined,
	requestBaseUrl: string | undefined,
	webServiceBaseUrl: string,
	connectBaseUrl: string | undefined,
): TokenDestination {
	const target = parseUrl(requestUrl ?? '', requestBaseUrl);
	if (!target) return 'other';
	const bases = [
		serviceBase('webService', webServiceBaseUrl),
		connectBaseUrl === undefined ? undefined : serviceBase('connect', connectBaseUrl),
	];
	const matching = bases.filter(
		(base): base is ServiceBase =>
			base !== undefined &&
			base.origin === target.origin &&
			isUnderPath(target.pathname, base.path),
	);
	if (matching.length === 0) return 'other';
	if (matching.length === 1) return matching[0].destination;

	// Both services behind one gateway: the longer base path is the more specific one.
	const [web, connect] = matching;
	if (web.path.length !== connect.path.length) {
		return web.path.length > connect.path.length ? web.destination : connect.destination;
	}
	// The same base URL for both (a local test server, or a gateway that routes by path itself).
	const rest = target.pathname.slice(web.path.length).toLowerCase();
	return rest.startsWith(WEB_SERVICE_PATH_PREFIX) ? 'webService' : 'connect';
}

function serviceBase(
	destination: ServiceBase['destination'],
	baseUrl: string,
): ServiceBase | undefined {
	const parsed = parseUrl(baseUrl.trim());
	// Only http(s) has a real origin; any other scheme's is the opaque "null", equal for all.
	if (!parsed || parsed.origin === 'null') return undefined;
	let path = parsed.pathname;
	while (path.endsWith('/')) path = path.slice(0, -1);
	return { destination, origin: parsed.origin, path };
}

/**
 * Whether `path` is `basePath` itself or below it, on whole path segments (/app is not under /ap).
 */
function isUnderPath(path: string, basePath: string): boolean {
	return basePath === '' || path === basePath || path.startsWith(`${basePath}/`);
}

function parseUrl(url: string, base?: string): URL | undefined {
	try {
		return base ? new URL(url, base) : new URL(url);
	} catch {
		return undefined;
	}
}
