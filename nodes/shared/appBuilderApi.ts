/** The name of the credential type every App Builder node authenticates with. */
export const CREDENTIAL_TYPE = 'appBuilderApi';

/**
 * The web-service operations of the App Builder API, each with its path, its
 * fixed `method` value, and whether it takes the account's apiKey parameter.
 */
export const WEB_SERVICE_ENDPOINTS = {
	addUser: { path: '/V4/webservices/addUser.php', method: 'addUser', sendsApiKey: true },
	editUser: { path: '/V4/webservices/editUser.php', method: 'editUser', sendsApiKey: true },
	formBuilderInquiries: {
		path: '/V4/webservices/FormBuilderApi.php',
		method: 'formBuilderInquiries',
		sendsApiKey: false,
	},
	getAppFeatures: {
		path: '/V4/webservices/AppFeatures.php',
		method: 'getAppFeatures',
		sendsApiKey: false,
	},
} as const;

export type WebServiceEndpoint = keyof typeof WEB_SERVICE_ENDPOINTS;

/** A form feature page ID as the API documents it: formbuilder_<digits>_<digits>. */
export const FORM_PAGE_ID_PATTERN = '^formbuilder_\\d+_\\d+$';

/** The form a FormBuilderApi call reads: the app's ID and the form feature page's ID. */
export interface FormTarget {
	appId: string;
	pageId: string;
}

/** The Connect API's OAuth 2 token endpoint (refresh_token grant). */
export const CONNECT_GRANT_PATH = '/v1/oauth2/token';

/** Public hosts of the service; users of a private deployment change them in the credential. */
export const DEFAULT_WEB_SERVICE_BASE_URL = 'https://api.appexecutable.com';
export const DEFAULT_CONNECT_BASE_URL = 'https://connectcloud.appypie.com';

/** Joins a base URL the user typed (with or without a trailing slash) and an absolute path. */
export function joinUrl(baseUrl: string, path: string): string {
	const base = baseUrl.trim();
	// A loop, not /\/+$/: that pattern is quadratic on a run of slashes not at the end.
	let end = base.length;
	while (end > 0 && base.charAt(end - 1) === '/') end--;
	return `${base.slice(0, end)}${path}`;
}
