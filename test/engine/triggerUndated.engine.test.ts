import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import { FIXTURE } from '../emulator';
import { triggerParameters } from '../support/appBuilderRuns';
import { useEmulator } from '../support/useEmulator';
import { submitLead } from '../support/submitLead';
import { TRIGGER_NODE, triggerWorkflow } from '../support/triggerWorkflow';
import { useFrozenClock } from '../support/frozenClock';

/**
 * Inquiries the API sends without a submission time, in numbers: the trigger
 * remembers them in a table of fixed size that tells apart up to about 150
 * changes between two polls, whatever the form's size.
 */
describe('App Builder Trigger with inquiries that have no submission time', () => {
	const emu = useEmulator();
	const T0 = Date.parse('2026-06-01T08:00:00Z');
	// The trigger's clock stands just after T0, so leads dated from T0 + 1 s arrive after its first poll.
	useFrozenClock(T0 + 500);

	const dated = (id: string, addedon: number) => submitLead(emu(), { id, name: id, addedon });
	const undated = (id: string) =>
		emu().control.addRawInquiry({
			appId: FIXTURE.appId,
			pageId: FIXTURE.formPageId,
			_id: id,
			json: JSON.stringify({ _id: id, name: id }),
		});
	const ids = (result: INodeExecutionData[][] | null) =>
		result ? result[0].map((item) => String(item.json.inquiryId)) : [];
	const numbered = (prefix: string, count: number) =>
		Array.from({ length: count }, (_, i) => `${prefix}${String(i).padStart(3, '0')}`);

	/** One workflow of its own per test, its static data saved between polls as n8n saves it. */
	const makeWorkflow = (options: IDataObject = {}) => {
		const parameters = triggerParameters({ options: { maxItemsPerPoll: 1000, ...options } });
		const workflow = triggerWorkflow(emu(), parameters, { node: TRIGGER_NODE });
		return async () => await workflow.poll();
	};

	it('with 500 at activation, emits each new one once and no old one, however many are deleted', async () => {
		const poll = makeWorkflow();
		const old = numbered('old', 500);
		old.forEach(undated);
		await poll();

		const fresh = numbered('new', 60);
		fresh.forEach(undated);
		old.slice(0, 80).forEach((id) => emu().control.deleteInquiry(id));
		expect(ids((await poll()).result)).toEqual(fresh);
		expect((await poll()).result).toBeNull();

		old.slice(80, 200).forEach((id) => emu().control.deleteInquiry(id));
		undated('late');
		expect(ids((await poll()).result)).toEqual(['late']);
	});

	it('past what it tells apart: dated leads flow, nothing is emitted twice, the error comes once, and the rest once the difference shrinks', async () => {
		const poll = makeWorkflow({ errorAfterPolls: 3, errorAfterMinutes: 0 });
		dated('seed', T0);
		await poll();

		// 400 appear between two polls, more than the table tells apart: a few come out, the rest wait.
		const burst = numbered('burst', 400);
		burst.forEach(undated);
		const emitted: string[] = [];
		const outcomes = [];
		for (let round = 0; round < 8; round++) {
			if (round === 1) dated('dated-meanwhile', T0 + 1000);
			const outcome = await poll();
			outcomes.push(outcome);
			emitted.push(...ids(outcome.result));
		}
		expect(emitted).toContain('dated-meanwhile');
		const reported = outcomes.filter((outcome) => outcome.error !== undefined);
		expect(reported).toHaveLength(1);
		expect(reported[0].error?.message).toMatch(
			/cannot tell which inquiries without a submission time are new: about \d+ of them appeared or disappeared/,
		);
		expect(reported[0].error?.description).toMatch(
			/up to about 150 such changes.*nothing is emitted twice.*reported once/,
		);
		// As docs/trigger.md says: some of it resolves by itself; starting over is for when it lasts.
		expect(reported[0].error?.description).toMatch(/Some of it resolves.*If it lasts.*start over/);
		expect(reported[0].error?.description).not.toMatch(/cannot catch up by itself/);

		// 300 of them deleted: what remains is within bounds and comes out, once.
		burst.slice(100).forEach((id) => emu().control.deleteInquiry(id));
		for (let round = 0; round < 3; round++) emitted.push(...ids((await poll()).result));
		expect(new Set(emitted).size).toBe(emitted.length);
		for (const id of burst.slice(0, 100)) expect(emitted).toContain(id);
		expect((await poll()).result).toBeNull();
	});
});
