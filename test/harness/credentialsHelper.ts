import { ICredentialsHelper } from 'n8n-workflow';
import type {
	ICredentialDataDecryptedObject,
	ICredentialType,
	IDataObject,
	ICredentials,
	IHttpRequestHelper,
	IHttpRequestOptions,
	INode,
	INodeCredentialsDetails,
	INodeProperties,
	IWorkflowExecuteAdditionalData,
} from 'n8n-workflow';

/**
 * Stores decrypted credentials in memory and applies them the way n8n's own
 * CredentialsHelper (packages/cli) does: defaults of the type's properties,
 * `authenticate` (a function or the generic header/query form with
 * `={{$credentials.x}}` expressions), and `preAuthentication`, which runs only
 * for a type with a hidden expirable property, when that property is empty or
 * the caller says the credential expired, and whose result is written back
 * only when it contains the expirable property.
 */
export class MemoryCredentialsHelper extends ICredentialsHelper {
	private readonly types: Record<string, ICredentialType>;

	private readonly store: Record<string, ICredentialDataDecryptedObject>;

	preAuthenticationCalls = 0;

	/** How often a credential was read; n8n's own helper reads its database each time. */
	decryptedReads = 0;

	constructor(options: {
		types: Record<string, ICredentialType>;
		credentials: Record<string, ICredentialDataDecryptedObject>;
	}) {
		super();
		this.types = options.types;
		this.store = {};
		for (const [type, data] of Object.entries(options.credentials)) {
			this.store[type] = { ...defaultsOf(this.typeOf(type).properties), ...data };
		}
	}

	/** What is stored for a credential type now (a copy). */
	stored(type: string): ICredentialDataDecryptedObject {
		return { ...(this.store[type] ?? {}) };
	}

	getParentTypes(): string[] {
		return [];
	}

	isCredentialUsableByNode(): boolean {
		return true;
	}

	getCredentialsProperties(type: string): INodeProperties[] {
		return this.typeOf(type).properties;
	}

	async getDecrypted(
		_additionalData: IWorkflowExecuteAdditionalData,
		_nodeCredentials: INodeCredentialsDetails,
		type: string,
	): Promise<ICredentialDataDecryptedObject> {
		this.decryptedReads++;
		return { ...(this.store[type] ?? {}) };
	}

	async getCredentials(): Promise<ICredentials> {
		throw new Error('getCredentials is not used by these tests');
	}

	async updateCredentials(
		_nodeCredentials: INodeCredentialsDetails,
		type: string,
		data: ICredentialDataDecryptedObject,
	): Promise<void> {
		this.store[type] = { ...data };
	}

	async updateCredentialsOauthTokenData(
		nodeCredentials: INodeCredentialsDetails,
		type: string,
		data: ICredentialDataDecryptedObject,
	): Promise<void> {
		await this.updateCredentials(nodeCredentials, type, data);
	}

	async authenticate(
		credentials: ICredentialDataDecryptedObject,
		typeName: string,
		requestOptions: IHttpRequestOptions,
	): Promise<IHttpRequestOptions> {
		const authenticate = this.typeOf(typeName).authenticate;
		if (authenticate === undefined) return requestOptions;
		if (typeof authenticate === 'function') return await authenticate(credentials, requestOptions);
		const resolve = (value: unknown) =>
			typeof value === 'string'
				? value
						.replace(/^=/, '')
						.replace(/\{\{\s*\$credentials\.(\w+)\s*\}\}/g, (_m, key: string) =>
							String(credentials[key] ?? ''),
						)
				: value;
		const result: IHttpRequestOptions = { ...requestOptions };
		const { headers, qs, body } = authenticate.properties;
		if (headers) result.headers = { ...(result.headers ?? {}), ...mapValues(headers, resolve) };
		if (qs) result.qs = { ...(result.qs ?? {}), ...mapValues(qs, resolve) };
		if (body) result.body = { ...asObject(result.body), ...mapValues(body, resolve) };
		return result;
	}

	async preAuthentication(
		helpers: IHttpRequestHelper,
		credentials: ICredentialDataDecryptedObject,
		typeName: string,
		node: INode,
		credentialsExpired: boolean,
	): Promise<ICredentialDataDecryptedObject | undefined> {
		const type = this.typeOf(typeName);
		const expirable = type.properties.find(
			(property) => property.type === 'hidden' && property.typeOptions?.expirable === true,
		);
		if (expirable === undefined || typeof type.preAuthentication !== 'function') return undefined;
		if (credentials[expirable.name] !== '' && !credentialsExpired) return undefined;

		this.preAuthenticationCalls++;
		const output = await type.preAuthentication.call(helpers, credentials);
		if (output[expirable.name] === undefined) return undefined;
		const updated = { ...credentials, ...output } as ICredentialDataDecryptedObject;
		const nodeCredentials = node.credentials?.[typeName];
		if (nodeCredentials) await this.updateCredentials(nodeCredentials, typeName, updated);
		return updated;
	}

	async runPreAuthentication(
		helpers: IHttpRequestHelper,
		credentials: ICredentialDataDecryptedObject,
		typeName: string,
	): Promise<ICredentialDataDecryptedObject | undefined> {
		const type = this.typeOf(typeName);
		if (typeof type.preAuthentication !== 'function') return undefined;
		return (await type.preAuthentication.call(
			helpers,
			credentials,
		)) as ICredentialDataDecryptedObject;
	}

	private typeOf(name: string): ICredentialType {
		const type = this.types[name];
		if (!type) throw new Error(`Unknown credential type ${name}`);
		return type;
	}
}

function defaultsOf(properties: INodeProperties[]): ICredentialDataDecryptedObject {
	const defaults: ICredentialDataDecryptedObject = {};
	for (const property of properties) {
		if (property.default !== undefined) defaults[property.name] = property.default as never;
	}
	return defaults;
}

function mapValues(object: object, map: (value: unknown) => unknown): IDataObject {
	return Object.fromEntries(
		Object.entries(object).map(([key, value]) => [key, map(value)]),
	) as IDataObject;
}

/** A request body to add the credential's fields to: an object body as it is, nothing else. */
function asObject(body: IHttpRequestOptions['body']): object {
	return typeof body === 'object' && body !== null ? body : {};
}
