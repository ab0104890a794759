import type { IExecuteFunctions, ILoadOptionsFunctions, IPollFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { CREDENTIAL_TYPE, DEFAULT_WEB_SERVICE_BASE_URL } from '../../shared/appBuilderApi';

type CredentialContext = IExecuteFunctions | IPollFunctions | ILoadOptionsFunctions;

/** What the web-service calls need of the credential: no Connect token, ever. */
export interface WebServiceCredentials {
	baseUrl: string;
	accessToken: string;
	apiKey: string;
	/** Every secret of the credential, as stored and as sent, to keep out of errors and items. */
	secrets: unknown[];
}

/**
 * The credential, read once per node run (or poll): n8n decrypts it from
 * its database on every read, which over a thousand items costs more than
 * the requests themselves.
 */
const credentialsOfRun = new WeakMap<CredentialContext, Promise<WebServiceCredentials>>();

export async function readWebServiceCredentials(
	context: CredentialContext,
	itemIndex = 0,
): Promise<WebServiceCredentials> {
	let cached = credentialsOfRun.get(context);
	if (!cached) {
		cached = context.getCredentials(CREDENTIAL_TYPE, itemIndex).then((data) => {
			const text = (value: unknown) => (typeof value === 'string' ? value : '');
			return {
				baseUrl: checkedBaseUrl(
					context,
					text(data.baseUrl).trim() || DEFAULT_WEB_SERVICE_BASE_URL,
					itemIndex,
				),
				accessToken: text(data.accessToken).trim(),
				apiKey: text(data.apiKey).trim(),
				secrets: [
					data.accessToken,
					data.apiKey,
					data.clientSecret,
					data.refreshToken,
					data.connectAccessToken,
				],
			};
		});
		// A failed read is not kept, so the next item reports its own error.
		cached.catch(() => credentialsOfRun.delete(context));
		credentialsOfRun.set(context, cached);
	}
	return await cached;
}

function checkedBaseUrl(context: CredentialContext, baseUrl: string, itemIndex: number): string {
	let protocol: string | undefined;
	try {
		protocol = new URL(baseUrl).protocol;
	} catch {
		protocol = undefined;
	}
	if (protocol !== 'https:' && protocol !== 'http:') {
		throw new NodeOperationError(
			context.getNode(),
			'The Web Service Base URL in the App Builder API credential is not a web address',
			{
				itemIndex,
				description: `Set it to the address of the App Builder web services, starting with https:// (for example ${DEFAULT_WEB_SERVICE_BASE_URL}).`,
			},
		);
	}
	return baseUrl;
}
