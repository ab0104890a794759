import { appBuilderApiCredentialTest } from './credentialTest';
import { searchFormPages } from './listSearch';

/** The methods both nodes offer n8n: the Form picker's list and the credential test. */
export const appBuilderMethods = {
	listSearch: { searchFormPages },
	credentialTest: { appBuilderApiCredentialTest },
};
