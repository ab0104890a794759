/** The web-service operations of the App Builder API, each with its path and fixed `method` value. */
export const WEB_SERVICE_ENDPOINTS = {
	addUser: { path: '/V4/webservices/addUser.php', method: 'addUser' },
	editUser: { path: '/V4/webservices/editUser.php', method: 'editUser' },
	formBuilderInquiries: { path: '/V4/webservices/FormBuilderApi.php', method: 'formBuilderInquiries' },
	getAppFeatures: { path: '/V4/webservices/AppFeatures.php', method: 'getAppFeatures' },
} as const;

export type WebServiceEndpoint = keyof typeof WEB_SERVICE_ENDPOINTS;

/** The Connect API's OAuth 2 token endpoint (refresh_token grant). */
export const CONNECT_GRANT_PATH = '/v1/oauth2/token';

/** Public hosts of the service; users of a private deployment change them in the credential. */
export const DEFAULT_WEB_SERVICE_BASE_URL = 'https://api.appexecutable.com';
export const DEFAULT_CONNECT_BASE_URL = 'https://connectcloud.appypie.com';

/** Joins a base URL the user typed (with or without a trailing slash) and an absolute path. */
export function joinUrl(baseUrl: string, path: string): string {
	return `${baseUrl.trim().replace(/\/+$/, '')}${path}`;
}
