/**
 * Sets `key` on `target` as its own data property, as JSON.parse does: a key
 * named "__proto__" stays a key and never reaches the prototype (plain
 * assignment would set the prototype, or drop the value).
 */
export function setOwnValue(target: object, key: string, value: unknown): void {
	if (key === '__proto__')
		Object.defineProperty(target, key, {
			value,
			enumerable: true,
			writable: true,
			configurable: true,
		});
	else (target as Record<string, unknown>)[key] = value;
}
