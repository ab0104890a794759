import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import { HAND_OFF_WAIT_MS } from '../../nodes/AppBuilder/trigger/triggerMemory';
import { triggerParameters } from '../support/appBuilderRuns';
import { useEmulator } from '../support/useEmulator';
import { submitLead } from '../support/submitLead';
import { pollOnce, roundTrip, TRIGGER_NODE, triggerWorkflow } from '../support/triggerWorkflow';
import { sleep } from '../support/sleep';
import { useFrozenClock } from '../support/frozenClock';

/**
 * The trigger as n8n schedules it: polls of one node that overlap, a node
 * renamed or copied between polls, and a poll that keeps failing. The
 * workflow's static data is kept as n8n keeps it by default (each node's
 * part under the node's name, global data beside it) and JSON round-tripped
 * between polls, or shared by two polls that run at once, as n8n shares it.
 */
describe('App Builder Trigger under n8n scheduling', () => {
	const emu = useEmulator();
	const T0 = Date.parse('2026-06-01T08:00:00Z');
	// The trigger's clock stands just after T0, so leads dated from T0 + 1 s arrive after its first poll.
	const clock = useFrozenClock(T0 + 500);
	let workflowCount = 0;

	const submit = (name: string, addedon: number) => submitLead(emu(), { name, addedon });
	const names = (result: INodeExecutionData[][] | null) =>
		result ? result[0].map((item) => String(item.json.name)) : [];

	const makeWorkflow = (options: IDataObject = {}) =>
		triggerWorkflow(emu(), triggerParameters({ options }), { node: TRIGGER_NODE });

	describe('overlapping polls', () => {
		it('never emit a lead twice: a poll that starts while another runs leaves the leads to it', async () => {
			const workflow = makeWorkflow();
			submit('Seed', T0);
			await workflow.poll();
			submit('Ann', T0 + 1000);
			submit('Bob', T0 + 2000);
			submit('Cid', T0 + 3000);

			emu().control.configure({ roundTripMs: 1500 });
			const shared = roundTrip(workflow.saved);
			const first = workflow.pollSharing(shared);
			await sleep(300);
			const second = workflow.pollSharing(shared);
			const outcomes = await Promise.all([first, second]);
			emu().control.configure({ roundTripMs: 0 });

			expect(outcomes.map((outcome) => outcome.error)).toEqual([undefined, undefined]);
			expect(names(outcomes[0].result)).toEqual(['Ann', 'Bob', 'Cid']);
			expect(outcomes[1].result).toBeNull();
			// The poll that stepped aside asked nothing of the API.
			expect(
				emu()
					.control.requests()
					.filter((request) => request.body?.method === 'formBuilderInquiries'),
			).toHaveLength(2);

			workflow.store(shared);
			submit('Dee', T0 + 4000);
			expect(names((await workflow.poll()).result)).toEqual(['Dee']);
		});

		it('never lose a lead: one submitted while the first poll runs comes with the next poll', async () => {
			const workflow = makeWorkflow();
			submit('Seed', T0);
			await workflow.poll();
			submit('Early', T0 + 1000);

			emu().control.configure({ roundTripMs: 1000 });
			const shared = roundTrip(workflow.saved);
			const first = workflow.pollSharing(shared);
			await sleep(300);
			submit('Meanwhile', T0 + 2000);
			const second = await workflow.pollSharing(shared);
			const firstOutcome = await first;
			emu().control.configure({ roundTripMs: 0 });

			expect(second.result).toBeNull();
			const later = await workflow.pollSharing(shared);
			expect([...names(firstOutcome.result), ...names(later.result)].sort()).toEqual([
				'Early',
				'Meanwhile',
			]);
		});

		it('emit nothing when another poll saved a newer position meanwhile', async () => {
			const workflow = makeWorkflow();
			submit('Seed', T0);
			await workflow.poll();
			submit('Ann', T0 + 1000);

			emu().control.configure({ roundTripMs: 800 });
			const shared = roundTrip(workflow.saved);
			const slow = workflow.pollSharing(shared);
			await sleep(200);
			// What a poll that took over a lapsed claim leaves behind: a new position, where the position is stored.
			const globalPart = shared.global as IDataObject;
			const newer = {
				...((globalPart['appBuilderTrigger:node-1'] as IDataObject).state as IDataObject),
			};
			globalPart['appBuilderTrigger:node-1'] = { savedAt: Date.now(), state: newer };
			const outcome = await slow;
			emu().control.configure({ roundTripMs: 0 });

			expect(outcome.result).toBeNull();
			expect((globalPart['appBuilderTrigger:node-1'] as IDataObject).state).toBe(newer);
		});
	});

	describe('a renamed trigger', () => {
		it('emits the leads that arrived since its last poll under the old name, once', async () => {
			const workflow = makeWorkflow();
			submit('Seed', T0);
			await workflow.poll({ node: { id: 'node-1', name: 'New Lead' } });
			submit('Before', T0 + 1000);
			expect(
				names((await workflow.poll({ node: { id: 'node-1', name: 'New Lead' } })).result),
			).toEqual(['Before']);

			submit('While Renaming', T0 + 2000);
			submit('Right After', T0 + 3000);
			const renamed = { id: 'node-1', name: 'Contact Us Lead' };
			expect(names((await workflow.poll({ node: renamed })).result)).toEqual([
				'While Renaming',
				'Right After',
			]);
			expect((await workflow.poll({ node: renamed })).result).toBeNull();
			// Renamed back: the position followed the node there too.
			submit('Back Again', T0 + 4000);
			expect(
				names((await workflow.poll({ node: { id: 'node-1', name: 'New Lead' } })).result),
			).toEqual(['Back Again']);
		});

		it('keeps its position when n8n keys node data by node ID (durable poll cursors)', async () => {
			const workflowId = `durable-${++workflowCount}`;
			let nodeData: IDataObject = {};
			const poll = async (name: string) => {
				const outcome = await pollOnce(emu(), triggerParameters(), {
					workflowId,
					node: { id: 'node-1', name },
					staticData: roundTrip(nodeData),
				});
				nodeData = outcome.staticData;
				return outcome;
			};
			submit('Seed', T0);
			await poll('Before Rename');
			submit('Ann', T0 + 1000);
			expect(names((await poll('After Rename')).result)).toEqual(['Ann']);
			expect((await poll('After Rename')).result).toBeNull();
		});

		it('does not take over the position of another node that had its name', async () => {
			const workflow = makeWorkflow();
			submit('Seed', T0);
			await workflow.poll({ node: { id: 'node-1', name: 'App Builder Trigger' } });
			// node-1 renamed away; a new trigger (new ID) takes the freed name.
			await workflow.poll({ node: { id: 'node-1', name: 'Renamed' } });
			submit('Ann', T0 + 1000);
			const newcomer = await workflow.poll({ node: { id: 'node-2', name: 'App Builder Trigger' } });
			expect(newcomer.result).toBeNull(); // its first poll: Only New Leads
			expect(
				names((await workflow.poll({ node: { id: 'node-1', name: 'Renamed' } })).result),
			).toEqual(['Ann']);
			submit('Bob', T0 + 2000);
			expect(
				names(
					(await workflow.poll({ node: { id: 'node-2', name: 'App Builder Trigger' } })).result,
				),
			).toEqual(['Bob']);
		});
	});

	it('a duplicated trigger starts fresh, as a new trigger does', async () => {
		const workflow = makeWorkflow();
		submit('Seed', T0);
		await workflow.poll({ node: { id: 'node-1', name: 'App Builder Trigger' } });
		submit('Ann', T0 + 1000);
		const copy = await workflow.poll({ node: { id: 'node-2', name: 'App Builder Trigger1' } });
		expect(copy.result).toBeNull();
		expect(
			names((await workflow.poll({ node: { id: 'node-1', name: 'App Builder Trigger' } })).result),
		).toEqual(['Ann']);
	});

	it("start over: a copy given the original's name after the original is deleted begins with a first poll, from a position of this release or of the one before", async () => {
		const workflow = makeWorkflow();
		submit('Seed', T0);
		await workflow.poll({ node: { id: 'node-1', name: 'App Builder Trigger' } });
		submit('Ann', T0 + 1000);
		const copy = await workflow.poll({ node: { id: 'node-2', name: 'App Builder Trigger' } });
		expect(copy.error).toBeUndefined();
		expect(copy.result).toBeNull();
		submit('Bob', T0 + 2000);
		expect(
			names((await workflow.poll({ node: { id: 'node-2', name: 'App Builder Trigger' } })).result),
		).toEqual(['Bob']);

		// The release before kept its position under the node's name too, tagged with the node's ID; a damaged one stops only its own node.
		const previousRelease = makeWorkflow();
		previousRelease.store({
			'node:App Builder Trigger': {
				inquiryCursor: { v: 3, scope: 'broken' },
				triggerNodeId: 'node-1',
			},
		});
		const copyOfPrevious = await previousRelease.poll({
			node: { id: 'node-2', name: 'App Builder Trigger' },
		});
		expect(copyOfPrevious.error).toBeUndefined();
		expect(copyOfPrevious.result).toBeNull();
	});

	it('reads a position saved before positions carried their node ID', async () => {
		const workflow = makeWorkflow();
		submit('Seed', T0);
		await workflow.poll();
		// Release 0.1.0 kept the position in the node's static data, with no node ID.
		const position = (
			(roundTrip(workflow.saved).global as IDataObject)['appBuilderTrigger:node-1'] as IDataObject
		).state;
		workflow.store({ 'node:App Builder Trigger': { inquiryCursor: position } });
		submit('Ann', T0 + 1000);
		expect(names((await workflow.poll()).result)).toEqual(['Ann']);
	});

	describe('under durable poll cursors (each poll gets its own copy of the position, stored after it returns)', () => {
		/** Polls of one trigger whose node data is a plain copy, as n8n's durable poll cursors hand it over. */
		const durableTrigger = () => {
			const workflowId = `durable-${++workflowCount}`;
			return (nodeData: IDataObject) =>
				pollOnce(emu(), triggerParameters(), {
					workflowId,
					node: { id: 'node-1', name: 'New Lead' },
					staticData: roundTrip(nodeData),
				});
		};

		it('never emit a lead twice: a poll given the position from before the previous poll was stored leaves the leads to the next poll', async () => {
			const poll = durableTrigger();
			submit('Seed', T0);
			const stored = (await poll({})).staticData;
			submit('Ann', T0 + 1000);

			// Two tasks started together (n8n catching up on missed poll times): both read the stored position.
			const first = await poll(stored);
			const second = await poll(stored);
			expect(names(first.result)).toEqual(['Ann']);
			expect(second.result).toBeNull();
			expect(second.staticData).toEqual(stored);

			// n8n has stored the first poll's position with its execution: the next poll carries on from it.
			submit('Bob', T0 + 2000);
			expect(names((await poll(first.staticData)).result)).toEqual(['Bob']);
		});

		it("never lose a lead: when n8n did not store a poll's position (nor its execution), a poll after the wait emits its leads again", async () => {
			const poll = durableTrigger();
			submit('Seed', T0);
			const stored = (await poll({})).staticData;
			submit('Ann', T0 + 1000);
			expect(names((await poll(stored)).result)).toEqual(['Ann']);
			expect((await poll(stored)).result).toBeNull();

			clock.advance(HAND_OFF_WAIT_MS);
			expect(names((await poll(stored)).result)).toEqual(['Ann']);
		});
	});

	describe('a poll that keeps failing', () => {
		it('reports the failure once, then emits every lead of the outage once when the API is back', async () => {
			const workflow = makeWorkflow({ errorAfterPolls: 3, errorAfterMinutes: 0 });
			submit('Seed', T0);
			await workflow.poll();
			const before = JSON.stringify(workflow.saved);

			emu().control.injectFault({
				endpoint: 'formBuilderInquiries',
				kind: 'status',
				status: 401,
				times: 1000,
			});
			submit('During Outage 1', T0 + 1000);
			const quiet = [await workflow.poll(), await workflow.poll()];
			expect(quiet.map((outcome) => [outcome.result, outcome.error])).toEqual([
				[null, undefined],
				[null, undefined],
			]);
			const reported = await workflow.poll();
			expect(reported.error?.message).toMatch(/did not accept the access token/);
			expect(reported.error?.description).toMatch(
				/has not been able to read the inquiries for \d+ minutes? \(3 polls in a row\)/,
			);
			expect(reported.error?.failure).toEqual({ cause: 'credential-invalid' });
			submit('During Outage 2', T0 + 2000);
			const afterReport = [await workflow.poll(), await workflow.poll()];
			expect(afterReport.map((outcome) => outcome.error)).toEqual([undefined, undefined]);
			expect(JSON.stringify(workflow.saved)).toBe(before);

			emu().control.clearFaults();
			expect(names((await workflow.poll()).result)).toEqual(['During Outage 1', 'During Outage 2']);
			expect((await workflow.poll()).result).toBeNull();

			// A new streak after the recovery is reported again.
			emu().control.injectFault({
				endpoint: 'formBuilderInquiries',
				kind: 'status',
				status: 503,
				times: 1000,
			});
			await workflow.poll();
			await workflow.poll();
			const again = await workflow.poll();
			expect(again.error?.failure).toEqual({ cause: 'temporarily-unavailable' });
		});

		it('stays quiet while the failure is shorter than Error After Minutes', async () => {
			const workflow = makeWorkflow({ errorAfterPolls: 1, errorAfterMinutes: 60 });
			submit('Seed', T0);
			await workflow.poll();
			emu().control.injectFault({
				endpoint: 'formBuilderInquiries',
				kind: 'status',
				status: 500,
				times: 1000,
			});
			for (let poll = 0; poll < 4; poll++) expect((await workflow.poll()).error).toBeUndefined();
		});
	});
});
