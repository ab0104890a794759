/**
 * Removes secret values from any text that may reach an error, a log line or an
 * output item. APIs and proxies sometimes echo what they received ("Invalid API
 * Key abc123..."), so every message built from a response passes through here.
 */
const MIN_SECRET_LENGTH = 4;

export function redactSecrets(text: string, secrets: Array<unknown>): string {
	let result = text;
	for (const secret of secrets) {
		if (typeof secret !== 'string' || secret.length < MIN_SECRET_LENGTH) continue;
		result = result.split(secret).join('[redacted]');
	}
	return result;
}
