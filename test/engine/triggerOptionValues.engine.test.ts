import type { IDataObject } from 'n8n-workflow';

import { FIXTURE } from '../emulator';
import { triggerParameters } from '../support/appBuilderRuns';
import { pollOnce } from '../support/triggerWorkflow';
import { useEmulator } from '../support/useEmulator';

/**
 * The trigger's number options given by an expression, through the real
 * poll() and n8n-core's PollContext. A value that is not a whole number in
 * range must stop the poll with an error naming the option, not be clamped
 * or turned into "emit everything" or "emit one".
 */
describe('App Builder Trigger options from expressions', () => {
	const emu = useEmulator();

	const poll = async (options: IDataObject) =>
		await pollOnce(emu(), triggerParameters({ options }), { staticData: {} });

	const seed = () => {
		const base = Date.parse('2026-05-01T08:00:00Z');
		for (let i = 0; i < 8; i++) {
			emu().control.addInquiry({
				appId: FIXTURE.appId,
				pageId: FIXTURE.formPageId,
				addedon: base + i * 60_000,
				fields: [{ name: 'name', label: 'Your Name', value: `Lead ${i}` }],
			});
		}
	};

	it.each(['={{ NaN }}', '={{ "abc" }}', '={{ 2.5 }}', '={{ 0 }}', '={{ 51 }}'])(
		'refuses Latest Count %s, naming it, instead of emitting every inquiry or a clamped number',
		async (firstPollCount) => {
			seed();
			const outcome = await poll({ firstPoll: 'latest', firstPollCount });
			expect(outcome.error?.message).toMatch(
				/^Latest Count must be a whole number from 1 to 50, but the expression gave "[^"]+"$/,
			);
			expect(outcome.result).toBeNull();
			expect(outcome.staticData).toEqual({});
			expect(emu().control.requests()).toHaveLength(0);
		},
	);

	it.each(['={{ NaN }}', '={{ "abc" }}', '={{ -1 }}', '={{ 2.5 }}'])(
		'refuses Max Leads per Check %s, naming it, instead of emitting one inquiry per poll',
		async (maxItemsPerPoll) => {
			seed();
			const outcome = await poll({ firstPoll: 'latest', firstPollCount: 5, maxItemsPerPoll });
			expect(outcome.error?.message).toMatch(
				/^Max Leads per Check must be a whole number of 1 or more, but the expression gave "[^"]+"$/,
			);
			expect(outcome.result).toBeNull();
			expect(emu().control.requests()).toHaveLength(0);
		},
	);

	it('takes counts an expression gives as digits', async () => {
		seed();
		const outcome = await poll({
			firstPoll: 'latest',
			firstPollCount: '={{ "3" }}',
			maxItemsPerPoll: '={{ "2" }}',
		});
		expect(outcome.error).toBeUndefined();
		// The latest 3, oldest first, at most 2 in this poll.
		expect(outcome.result?.[0].map((item) => item.json.name)).toEqual(['Lead 5', 'Lead 6']);
	});
});
