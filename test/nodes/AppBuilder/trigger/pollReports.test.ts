import { NodeApiError, type INode, type IPollFunctions } from 'n8n-workflow';

import { reportFailures } from '../../../../nodes/AppBuilder/trigger/pollReports';
import type { TriggerSettings } from '../../../../nodes/AppBuilder/trigger/triggerSettings';

const node: INode = {
	id: 'n1',
	name: 'App Builder Trigger',
	type: 'appBuilderTrigger',
	typeVersion: 1,
	position: [0, 0],
	parameters: {},
};
const context = {
	getNode: () => node,
	getWorkflow: () => ({ id: 'report-workflow', active: true }),
	getTimezone: () => 'UTC',
	logger: { error: () => undefined, info: () => undefined, warn: () => undefined },
} as unknown as IPollFunctions;
const settings = { reporting: { afterPolls: 1, afterMs: 0 } } as unknown as TriggerSettings;

describe('a failure that lasts, reported', () => {
	it("is told with what failed and since when, on a copy: the first failure's own error is left as it was", () => {
		const original = new NodeApiError(
			node,
			{ message: 'Not found' },
			{ description: 'Check the form.' },
		);
		let thrown: unknown;
		try {
			reportFailures(context, 'report-trigger', settings, {
				failures: [{ error: original, what: 'the inquiries', cause: 'form:f1' }],
				read: [],
			});
		} catch (error) {
			thrown = error;
		}
		expect(thrown).toBeInstanceOf(NodeApiError);
		expect(thrown).not.toBe(original);
		expect((thrown as NodeApiError).message).toBe(original.message);
		expect((thrown as NodeApiError).description).toMatch(
			/^The trigger has not been able to read the inquiries for 1 minute \(1 polls in a row\).* Check the form\.$/,
		);
		expect(original.description).toBe('Check the form.');
	});
});
