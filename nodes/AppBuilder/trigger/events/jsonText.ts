/**
 * JSON text of a value at any depth, written with a loop and a stack of the
 * lists and objects being written instead of recursion, for hashing. On what
 * JSON.stringify accepts it writes the same text (with `sortKeys` false), so
 * a key computed from either is the same; JSON.stringify stops at a depth set
 * by the call stack, this does not. With `sortKeys`, object keys are written
 * in code-unit order, so the text does not depend on the order a server wrote
 * them in. What JSON cannot carry is written as fixed text rather than
 * thrown: a BigInt as its digits and `n`, an object met again inside itself
 * (a cycle) as "[cycle]".
 */
interface Frame {
	container: object;
	/** The list's items, or the object's members still to be written. */
	keys: string[] | undefined;
	length: number;
	next: number;
	/** Members written so far (members JSON leaves out write nothing). */
	written: number;
}

export function jsonText(value: unknown, sortKeys: boolean): string {
	const out: string[] = [];
	const stack: Frame[] = [];
	// The lists and objects on the stack, to spot cycles.
	const open = new Set<object>();

	/** Writes a value already passed through toJsonValue: a scalar, or the opening of its list or object. */
	const write = (current: unknown): void => {
		const scalar = scalarText(current);
		if (scalar !== undefined) {
			out.push(scalar);
		} else if (typeof current !== 'object' || current === null) {
			// undefined, a function or a symbol, at the top or in a list: null, as JSON.stringify writes in a list.
			out.push('null');
		} else if (open.has(current)) {
			out.push('"[cycle]"');
		} else {
			open.add(current);
			const keys = Array.isArray(current) ? undefined : Object.keys(current);
			if (keys !== undefined && sortKeys) keys.sort();
			out.push(keys === undefined ? '[' : '{');
			const length = keys === undefined ? (current as unknown[]).length : keys.length;
			stack.push({ container: current, keys, length, next: 0, written: 0 });
		}
	};

	write(toJsonValue(value, ''));
	while (stack.length > 0) {
		const frame = stack[stack.length - 1];
		if (frame.next >= frame.length) {
			stack.pop();
			open.delete(frame.container);
			out.push(frame.keys === undefined ? ']' : '}');
			continue;
		}
		const index = frame.next++;
		const key = frame.keys === undefined ? String(index) : frame.keys[index];
		const member = toJsonValue((frame.container as Record<string, unknown>)[key], key);
		if (frame.keys !== undefined) {
			// Left out of an object, as JSON.stringify does.
			if (member === undefined || typeof member === 'function' || typeof member === 'symbol')
				continue;
			out.push(`${frame.written > 0 ? ',' : ''}${JSON.stringify(key)}:`);
		} else if (index > 0) {
			out.push(',');
		}
		frame.written++;
		write(member);
	}
	return out.join('');
}

/** What JSON.stringify writes in a value's place: toJSON's result, a boxed primitive's value. */
function toJsonValue(value: unknown, key: string): unknown {
	if (typeof value !== 'object' || value === null) return value;
	let current: unknown = value;
	const toJSON = (value as { toJSON?: unknown }).toJSON;
	if (typeof toJSON === 'function') current = (toJSON as (key: string) => unknown).call(value, key);
	if (current instanceof Number || current instanceof String || current instanceof Boolean)
		return current.valueOf();
	return current;
}

function scalarText(value: unknown): string | undefined {
	if (value === null) return 'null';
	if (typeof value === 'string') return JSON.stringify(value);
	if (typeof value === 'boolean') return value ? 'true' : 'false';
	if (typeof value === 'number') return Number.isFinite(value) ? String(value) : 'null';
	if (typeof value === 'bigint') return JSON.stringify(`${value}n`);
	return undefined;
}
