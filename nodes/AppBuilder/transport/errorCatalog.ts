/**
 * What each code of the App Builder API's error table means to a workflow
 * builder, and what to do about it. The API's own texts are terse ("Invalid API
 * Key"); the `fix` here is what the node shows as the error's description.
 */
export interface ApiErrorMeaning {
	message: string;
	fix: string;
	/**
	 * What the code is about, which decides the rest (failureClass.ts): whether
	 * the call tries again and the cause n8n is told.
	 */
	about: ApiErrorSubject;
}

/**
 * What an error code is about: the access token or API key, where the node
 * points, a passing trouble worth sending again, a rate limit, or the values
 * of one item (an email in use), which is no cause of the call.
 */
export type ApiErrorSubject = 'credential' | 'configuration' | 'transient' | 'rate-limit' | 'item';

/** How errors name the credential a user fixes. */
export const CREDENTIAL = 'the App Builder API credential';

/**
 * The fix of a failure worth trying again. What the node did about it (how
 * often it tried, why it stopped, when the API said to come back) and when
 * to try again depend on the call, so webServiceError.ts says them before it.
 */
const SUPPORT = 'If it keeps failing, contact App Builder support.';

export const API_ERROR_CATALOG: Record<number, ApiErrorMeaning> = {
	400: {
		message: 'The App Builder API rejected the request as invalid',
		fix: "Check the node's fields against the API's message above; a field filled by an expression may be empty or wrong for this item.",
		about: 'configuration',
	},
	401: {
		message: 'The App Builder API did not accept the access token',
		fix: `Copy the access token again from the Authentication section of your App Builder developer account into the Access Token field of ${CREDENTIAL}.`,
		about: 'credential',
	},
	403: {
		message: 'This App Builder API method is for administrators only',
		fix: 'Use an access token of an account that has administrator rights for this app.',
		about: 'credential',
	},
	404: {
		message: 'The App Builder API does not know this method',
		fix: `Check the Web Service Base URL in ${CREDENTIAL}; it should be the App Builder web-service host (for example https://api.appexecutable.com).`,
		about: 'configuration',
	},
	405: {
		message: 'The App Builder API does not allow this HTTP method here',
		fix: `Check the Web Service Base URL in ${CREDENTIAL}: leave it at https://api.appexecutable.com unless App Builder gave you another address.`,
		about: 'configuration',
	},
	406: {
		message: 'The App Builder API cannot answer in the requested format',
		fix: `Check the Web Service Base URL in ${CREDENTIAL} (https://api.appexecutable.com unless App Builder gave you another). If it is right, ask whoever runs your n8n whether a proxy changes its requests.`,
		about: 'configuration',
	},
	410: {
		message: 'This App Builder API request has been removed',
		fix: 'The service retired this operation; update the n8n-nodes-appbuilder package to its newest version.',
		about: 'configuration',
	},
	429: {
		message: 'The App Builder API is receiving too many requests',
		fix: 'To meet the limit less often, lower the Concurrency option, or spread the work over time (for example with a Loop Over Items node and a Wait node).',
		about: 'rate-limit',
	},
	500: {
		message: 'The App Builder API had an internal error',
		fix: SUPPORT,
		about: 'transient',
	},
	502: {
		message: 'A gateway in front of the App Builder API failed',
		fix: SUPPORT,
		about: 'transient',
	},
	503: {
		message: 'The App Builder API is temporarily unavailable (maintenance)',
		fix: SUPPORT,
		about: 'transient',
	},
	504: {
		message: 'A gateway in front of the App Builder API timed out',
		fix: SUPPORT,
		about: 'transient',
	},
	2032: {
		message: "The App Builder API needs the account's API key",
		fix: `Fill in the API Key field of ${CREDENTIAL}. It is generated in your app's back-end, in the user registration API section.`,
		about: 'credential',
	},
	2034: {
		message: "The App Builder API needs the user's email",
		fix: 'Set the Email field of the node; if it comes from an expression, check that the expression gives a value for this item.',
		about: 'item',
	},
	2036: {
		message: 'The App Builder API key is not valid for this account',
		fix: `Copy the API key again from your app's back-end (user registration API section) into the API Key field of ${CREDENTIAL}.`,
		about: 'credential',
	},
	2038: {
		message: 'The App Builder API key is malformed',
		fix: `The API Key field of ${CREDENTIAL} holds something that is not an API key (spaces or missing characters?). Copy it again from your app's back-end.`,
		about: 'credential',
	},
	2039: {
		message: 'This email already belongs to an app user',
		fix: "This person already has an account: send them to the app to log in (or reset their password there). To carry on with the other items, set the node's Settings > On Error to Continue (using error output) and route this case, or register another email. Update User changes an existing user but needs their current password.",
		about: 'item',
	},
	2040: {
		message: 'This phone number already belongs to another app user',
		fix: 'Each app user needs their own phone number: check the number for this item, or leave Phone out of this step if the app does not need it.',
		about: 'item',
	},
	2041: {
		message: 'The App Builder API says the email is not valid',
		fix: 'Set the Email field to a valid address such as jane@example.com.',
		about: 'item',
	},
};

/** The meaning of a code the catalog does not list, by its class. */
export function meaningOf(code: number): ApiErrorMeaning {
	const known = API_ERROR_CATALOG[code];
	if (known) return known;
	if (code >= 500 && code < 600) {
		return {
			message: `The App Builder API failed with status ${code}`,
			fix: SUPPORT,
			about: 'transient',
		};
	}
	return {
		message: `The App Builder API returned error ${code}`,
		fix: "Check the node's fields; the API's own message is shown above.",
		about: 'item',
	};
}
