import { ObservableObject, type IDataObject } from 'n8n-workflow';

import {
	readTriggerPosition,
	writeTriggerPosition,
	type TriggerStores,
} from '../../../../../nodes/AppBuilder/trigger/saved/storage';
import { UnusablePosition } from '../../../../../nodes/AppBuilder/trigger/saved/migrations';
import type { TriggerPosition } from '../../../../../nodes/AppBuilder/trigger/saved/position';
import { savedPosition } from '../../../../support/savedPosition';

/** The stores as n8n hands them to a poll by default: the workflow's static data, observable, and the node's within it. */
function observableStores(workflowData: IDataObject): TriggerStores {
	const workflow = ObservableObject.create(workflowData, undefined, {
		ignoreEmptyOnFirstChild: true,
	});
	workflow['node:Trigger'] ??= {};
	return { workflow, node: workflow['node:Trigger'] as IDataObject };
}

const seen: Record<string, number> = { k1: 1_000, k2: 2_000 };
Object.defineProperty(seen, '__proto__', {
	value: 3_000,
	enumerable: true,
	writable: true,
	configurable: true,
});
const POSITION: TriggerPosition = savedPosition({
	form_1: { floor: { time: 500, key: '' }, seen, undated: '' },
});

/** What n8n stores and loads: JSON. */
const saved = (stores: TriggerStores) =>
	JSON.parse(JSON.stringify({ workflow: stores.workflow })) as { workflow: IDataObject };

describe('reading the saved position out of n8n static data', () => {
	it('reads a position from observable static data as it was written, "__proto__" key and all', () => {
		const written = observableStores({});
		writeTriggerPosition('trigger-id', written, POSITION, 10_000);
		const stores = observableStores(saved(written).workflow);

		const position = readTriggerPosition('trigger-id', stores);
		const tracked = position?.forms.form_1.cursor.seen as Record<string, number>;
		expect(Object.keys(tracked).sort()).toEqual(['__proto__', 'k1', 'k2']);
		expect(Object.getOwnPropertyDescriptor(tracked, '__proto__')?.value).toBe(3_000);
		expect(Object.getPrototypeOf(tracked)).toBe(Object.prototype);
		expect(position?.forms.form_1.cursor.floor).toEqual({ time: 500, key: '' });
	});

	it('hands the poll a copy: changing what it read leaves the stored position as it is', () => {
		const stores = observableStores({});
		writeTriggerPosition('trigger-id', stores, POSITION, 10_000);
		const before = JSON.stringify(stores.workflow);

		const position = readTriggerPosition('trigger-id', stores) as TriggerPosition;
		position.forms.form_1.cursor.seen.k3 = 4_000;
		position.leftOver.push('form_2');
		expect(JSON.stringify(stores.workflow)).toBe(before);
		// The copy does not mark n8n's static data as changed either: nothing to save.
		expect((stores.workflow as { __dataChanged?: boolean }).__dataChanged).toBe(false);
	});

	it('refuses a stored value nested deeper than any position, without running out of stack', () => {
		let deep: IDataObject = {};
		const damaged: IDataObject = { v: 5, scope: 'app_1/new', forms: { form_1: deep } };
		for (let level = 0; level < 100_000; level++) deep = deep.next = {};
		const stores: TriggerStores = { workflow: {}, node: { inquiryCursor: damaged } };
		expect(() => readTriggerPosition(undefined, stores)).toThrow(UnusablePosition);
	});
});
