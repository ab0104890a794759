import type { IDataObject, INodeType } from 'n8n-workflow';

import { AppBuilder } from '../../nodes/AppBuilder/AppBuilder.node';
import { FIXTURE } from '../emulator';
import { runNode } from '../harness';
import { appBuilderCredentials, FIXTURE_FORM } from '../support/appBuilderRuns';
import { useEmulator } from '../support/useEmulator';

/**
 * The App Builder node as n8n runs it for an AI agent or the MCP Server
 * Trigger: n8n loads it as "App Builder Tool", the same node under a type name
 * ending in "Tool" (n8n's node-types.ts), and resolves the parameters the
 * workflow leaves out from the defaults shown for that type ('@tool').
 * The real ai_tool wiring is covered by test/e2e/mcpTool.e2e.test.ts.
 */
function asTool(node: INodeType): INodeType {
	const description = {
		...node.description,
		name: `${node.description.name}Tool`,
		displayName: `${node.description.displayName} Tool`,
	};
	return Object.create(node, { description: { value: description } }) as INodeType;
}

/** Get Many as a tool node stores it when only the form is set: no Return All, Limit or Simplify. */
const getManyWithDefaults: IDataObject = {
	resource: 'inquiry',
	operation: 'getAll',
	appId: FIXTURE.appId,
	pageId: FIXTURE_FORM,
};

describe('App Builder as an AI tool in the n8n engine', () => {
	const emu = useEmulator();

	const run = async (asAgentTool: boolean, parameters: IDataObject) =>
		await runNode({
			nodeType: asAgentTool ? asTool(new AppBuilder()) : new AppBuilder(),
			typeName: asAgentTool
				? 'n8n-nodes-appbuilder.appBuilderTool'
				: 'n8n-nodes-appbuilder.appBuilder',
			parameters,
			credentials: { appBuilderApi: { id: '1', name: 'App Builder' } },
			credentialsHelper: appBuilderCredentials(emu()),
		});

	beforeEach(() => {
		emu().control.addInquiries({
			appId: FIXTURE.appId,
			pageId: FIXTURE.formPageId,
			count: 60,
			fieldsPerRecord: 3,
		});
	});

	it('answers a tool call with the 20 newest inquiries, flattened, when Limit is left at its default', async () => {
		const result = await run(true, getManyWithDefaults);
		expect(result.error).toBeUndefined();
		expect(result.items).toHaveLength(20);
		for (const { json } of result.items) {
			expect(json).toMatchObject({
				inquiryId: expect.any(String),
				submittedAt: expect.any(String),
				fieldLabels: expect.any(Object),
			});
			expect(json).not.toHaveProperty('formbuilderData');
		}
		const times = result.items.map(({ json }) => Date.parse(String(json.submittedAt)));
		expect(times).toEqual([...times].sort((a, b) => b - a));
	});

	it('keeps a Limit the user set on the tool', async () => {
		const result = await run(true, { ...getManyWithDefaults, limit: 35 });
		expect(result.items).toHaveLength(35);
	});

	it('keeps Return All when the user turns it on for the tool', async () => {
		const result = await run(true, { ...getManyWithDefaults, returnAll: true });
		expect(result.items).toHaveLength(60);
	});

	it('keeps the default Limit of 50 when the node runs as a regular step', async () => {
		const result = await run(false, getManyWithDefaults);
		expect(result.items).toHaveLength(50);
	});
});
