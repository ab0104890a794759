/** One header of an answer, by case-insensitive name: its first value as text, or undefined. */
export function headerValue(headers: unknown, name: string): string | undefined {
	if (typeof headers !== 'object' || headers === null) return undefined;
	const wanted = name.toLowerCase();
	for (const [key, value] of Object.entries(headers)) {
		if (key.toLowerCase() !== wanted) continue;
		const first: unknown = Array.isArray(value) ? value[0] : value;
		return first === undefined || first === null ? undefined : String(first);
	}
	return undefined;
}
