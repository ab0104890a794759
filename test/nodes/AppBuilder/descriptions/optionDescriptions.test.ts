import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import { AppBuilder, AppBuilderTrigger } from '../../../support/nodeClasses';

/**
 * What the node UI says of each field and choice fits in two lines of n8n's
 * parameter panel: at most MAX_DESCRIPTION characters. The long rule goes to
 * the docs.
 */
const MAX_DESCRIPTION = 150;

type Described = Partial<INodeProperties & INodePropertyOptions> & { values?: Described[] };

function descriptions(properties: readonly Described[], path: string): Array<[string, string]> {
	return properties.flatMap((property) => {
		const here = `${path} > ${property.displayName ?? property.name}`;
		const own: Array<[string, string]> =
			typeof property.description === 'string' ? [[here, property.description]] : [];
		const children = [
			...(Array.isArray(property.options) ? (property.options as Described[]) : []),
			...(Array.isArray(property.values) ? property.values : []),
		].filter((child) => typeof child === 'object' && child !== null);
		return [...own, ...descriptions(children, here)];
	});
}

describe('the descriptions of both nodes', () => {
	it.each([
		['App Builder', new AppBuilder()],
		['App Builder Trigger', new AppBuilderTrigger()],
	])(
		`%s: every field and choice is described in at most ${MAX_DESCRIPTION} characters`,
		(name, node) => {
			const found = descriptions(node.description.properties as Described[], name);
			expect(found.length).toBeGreaterThan(15);
			const tooLong = found.filter(([, text]) => text.length > MAX_DESCRIPTION);
			expect(tooLong).toEqual([]);
			for (const [, text] of found) expect(text.trim()).not.toBe('');
		},
	);
});
