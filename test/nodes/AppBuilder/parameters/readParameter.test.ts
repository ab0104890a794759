import type { INode, INodeParameters } from 'n8n-workflow';

import { wholeNumberFrom } from '../../../../nodes/AppBuilder/parameters/parameterValues';
import {
	checkedParameter,
	holdsExpression,
} from '../../../../nodes/AppBuilder/parameters/readParameter';
import { appBuilderNode } from '../../../harness/workflowNode';

const nodeWith = (parameters: INodeParameters): INode => appBuilderNode(parameters);

const LIMIT = { label: 'Limit', path: 'limit' };
const refusedLimit = wholeNumberFrom(-2, { min: 1 });

describe('checkedParameter', () => {
	it('returns an accepted value unchanged', () => {
		expect(checkedParameter(nodeWith({}), LIMIT, wholeNumberFrom('3', { min: 1 }), 0)).toBe(3);
	});

	it('names the field, what it takes, what the expression gave and the item', () => {
		const run = () =>
			checkedParameter(nodeWith({ limit: '={{ $json.limit }}' }), LIMIT, refusedLimit, 4);
		expect(run).toThrow(
			'Limit must be a whole number of 1 or more, but the expression gave "-2" [item 4]',
		);
		try {
			run();
		} catch (error) {
			expect((error as { context: { itemIndex?: number } }).context.itemIndex).toBe(4);
			expect((error as { description?: string }).description).toMatch(
				/^Set Limit to a whole number of 1 or more\./,
			);
		}
	});

	it('does not blame an expression for a fixed value', () => {
		expect(() => checkedParameter(nodeWith({ limit: -2 }), LIMIT, refusedLimit, 0)).toThrow(
			'Limit must be a whole number of 1 or more, but it is "-2" [item 0]',
		);
	});

	it('finds the expression inside a collection or a resource locator, or holding the whole of it', () => {
		const field = { label: 'Concurrency', path: 'options.concurrency' };
		expect(() =>
			checkedParameter(
				nodeWith({ options: { concurrency: '={{ NaN }}' } }),
				field,
				refusedLimit,
				0,
			),
		).toThrow(/but the expression gave/);
		expect(() =>
			checkedParameter(nodeWith({ options: '={{ { concurrency: -2 } }}' }), field, refusedLimit, 0),
		).toThrow(/but the expression gave/);
		expect(() =>
			checkedParameter(nodeWith({ options: { concurrency: -2 } }), field, refusedLimit, 0),
		).toThrow(/but it is/);
		const form = { label: 'Form', path: 'pageId.value' };
		const locator = { __rl: true, mode: 'list', value: '={{ $json.page }}' };
		expect(() => checkedParameter(nodeWith({ pageId: locator }), form, refusedLimit, 0)).toThrow(
			/but the expression gave/,
		);
		// Read by its own path, a resource locator is judged by the value it holds.
		const formField = { label: 'Form', path: 'pageId' };
		expect(() =>
			checkedParameter(nodeWith({ pageId: locator }), formField, refusedLimit, 0),
		).toThrow(/but the expression gave/);
		const fixedLocator = { __rl: true, mode: 'id', value: 'formbuilder_1' };
		expect(() =>
			checkedParameter(nodeWith({ pageId: fixedLocator }), formField, refusedLimit, 0),
		).toThrow(/but it is/);
	});

	it('leaves the item out when there is none (the trigger)', () => {
		expect(() => checkedParameter(nodeWith({ limit: '=-2' }), LIMIT, refusedLimit)).toThrow(
			/^Limit must be a whole number of 1 or more, but the expression gave "-2"$/,
		);
	});
});

describe('holdsExpression', () => {
	it('finds an expression at the path, holding it, or anywhere inside it', () => {
		expect(holdsExpression({ email: '={{ $json.email }}' }, 'email')).toBe(true);
		expect(holdsExpression({ options: '={{ { concurrency: 2 } }}' }, 'options.concurrency')).toBe(
			true,
		);
		expect(
			holdsExpression({ filters: { dates: [{ after: '={{ $json.after }}' }] } }, 'filters'),
		).toBe(true);
	});

	it('says a fixed value, an unset one, or a text with = inside it holds none', () => {
		expect(holdsExpression({ passwordFormat: 'md5' }, 'passwordFormat')).toBe(false);
		expect(holdsExpression({ additionalFields: {} }, 'additionalFields.status')).toBe(false);
		expect(holdsExpression({ filters: { dates: [{ after: 'a=b' }], limit: 3 } }, 'filters')).toBe(
			false,
		);
	});
});
