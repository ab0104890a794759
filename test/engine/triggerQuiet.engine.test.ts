import { FIXTURE } from '../emulator';
import { triggerParameters } from '../support/appBuilderRuns';
import { submitLead } from '../support/submitLead';
import { triggerWorkflow } from '../support/triggerWorkflow';
import { useEmulator } from '../support/useEmulator';
import { HOUR } from '../support/durations';

/**
 * Alert When Quiet through n8n-core's PollContext over real HTTP against the
 * emulator: the poll reports a quiet form through n8n's __emitError (a failed
 * execution and the error workflow, in n8n) once per spell, and still emits
 * its leads and saves its position. Only the clock is faked.
 */
describe('App Builder Trigger, Alert When Quiet, in the n8n engine', () => {
	const emu = useEmulator();
	const T0 = Date.parse('2026-06-01T09:00:00Z');
	const SECOND_FORM = FIXTURE.secondFormPageId;

	beforeEach(() => {
		jest.useFakeTimers({
			doNotFake: [
				'setTimeout',
				'clearTimeout',
				'setInterval',
				'clearInterval',
				'setImmediate',
				'clearImmediate',
				'nextTick',
				'queueMicrotask',
				'hrtime',
				'performance',
			],
		});
	});
	afterEach(() => jest.useRealTimers());

	it('reports each quiet form once per spell, counted from the poll that last brought it a lead, while the other forms emit theirs; the next lead ends the spell', async () => {
		const workflow = triggerWorkflow(
			emu(),
			triggerParameters({
				watch: 'allForms',
				options: { quietAlert: 'fixed', quietHours: 24 },
			}),
		);
		const pollAt = async (time: number) => {
			jest.setSystemTime(time);
			const outcome = await workflow.poll();
			expect(outcome.error).toBeUndefined();
			return outcome;
		};

		submitLead(emu(), { name: 'Old lead', addedon: T0 - HOUR });
		submitLead(emu(), { name: 'Other form', addedon: T0 - HOUR, pageId: SECOND_FORM });
		expect((await pollAt(T0)).emittedErrors).toEqual([]);
		// A day after activation both forms would be quiet; the second gets a lead, submitted 23 hours before it shows.
		submitLead(emu(), { name: 'Second form lead', addedon: T0 + HOUR, pageId: SECOND_FORM });
		const quiet = await pollAt(T0 + 24 * HOUR);
		expect(quiet.result?.[0].map((item) => item.json.name)).toEqual(['Second form lead']);
		expect(quiet.emittedErrors).toHaveLength(1);
		expect(quiet.emittedErrors[0].message).toMatch(
			/^Form .*formbuilder.* has had no new lead for 1 day$/,
		);
		expect(quiet.emittedErrors[0].message).toContain(FIXTURE.formPageId);
		expect(quiet.emittedErrors[0].description).toContain('Alert When Quiet is set to 1 day');
		expect(quiet.emittedErrors[0].description).toContain('This is reported once');

		// The same spell, later: not again; the late lead's own time starts no spell of the second form.
		expect((await pollAt(T0 + 30 * HOUR)).emittedErrors).toEqual([]);
		// A lead ends the spell silently; the next spell is reported again.
		submitLead(emu(), { name: 'Back', addedon: T0 + 31 * HOUR });
		const back = await pollAt(T0 + 32 * HOUR);
		expect(back.emittedErrors).toEqual([]);
		expect(back.result?.[0].map((item) => item.json.name)).toEqual(['Back']);
		expect((await pollAt(T0 + 47 * HOUR)).emittedErrors).toEqual([]);
		// A day after the polls that brought their last leads: both forms, in one report.
		const again = await pollAt(T0 + 56 * HOUR);
		expect(again.emittedErrors.map((error) => error.message)).toEqual([
			expect.stringContaining(FIXTURE.formPageId),
		]);
		expect(again.emittedErrors[0].message).toContain(SECOND_FORM);
	});
});
