import {
	isRecord,
	isTime,
	ownValue,
} from '../../../../../nodes/AppBuilder/trigger/cursor/storedShapes';

describe('shapes read back from static data', () => {
	it('takes only a plain object as a record', () => {
		expect(isRecord({})).toBe(true);
		expect([null, [], 'x', 3, undefined].map(isRecord)).toEqual([
			false,
			false,
			false,
			false,
			false,
		]);
	});

	it('takes only a finite number as a time', () => {
		expect(isTime(1_767_225_600_000)).toBe(true);
		expect([NaN, Infinity, '1', null].map(isTime)).toEqual([false, false, false, false]);
	});

	it('reads a record\'s own member only, "__proto__" and inherited names included', () => {
		const stored = JSON.parse('{"__proto__": {"floor": 1}, "form": 2}') as Record<string, unknown>;
		expect(ownValue(stored, '__proto__')).toEqual({ floor: 1 });
		expect(ownValue(stored, 'form')).toBe(2);
		expect(ownValue(stored, 'toString')).toBeUndefined();
		expect(ownValue(stored, 'constructor')).toBeUndefined();
		expect(ownValue(undefined, 'form')).toBeUndefined();
	});
});
