/** The name of the credential type every App Builder node authenticates with. */
export const CREDENTIAL_TYPE = 'appBuilderApi';
