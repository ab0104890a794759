import type { InquiryEvent } from '../../../../../nodes/AppBuilder/trigger/events/inquiryEvent';
import { PollPlanner, type PollSetup } from '../../../../../nodes/AppBuilder/trigger/plan/pollPlan';
import type { QuietRule } from '../../../../../nodes/AppBuilder/trigger/quiet/formRhythm';
import type {
	TriggerPosition,
	Watched,
} from '../../../../../nodes/AppBuilder/trigger/saved/position';
import { MINUTE, HOUR, DAY } from '../../../../support/durations';

// Alert When Quiet in the poll plan: which forms are judged, and a spell kept across what the
// watch and the app's list do (docs/trigger.md, "Alert When Quiet").

const T0 = Date.UTC(2026, 2, 2, 9);
const FIXED: QuietRule = { kind: 'fixed', afterMs: DAY };

/** One poll at `nowMs`: the forms read give these events; the position it saves after emitting all it plans. */
function poll(
	saved: TriggerPosition | undefined,
	nowMs: number,
	reads: Record<string, InquiryEvent[]>,
	setup: Partial<PollSetup> = {},
) {
	const planner = new PollPlanner({
		saved,
		scope: 'app/new',
		watch: { kind: 'all' },
		listing: { read: Object.keys(reads), before: [] },
		firstPoll: { kind: 'none' },
		mode: 'new',
		maxItems: 10,
		quiet: FIXED,
		timeZone: 'UTC',
		nowMs,
		...setup,
	});
	const plan = planner.plan(
		Object.entries(reads).map(([pageId, events]) => ({
			form: { pageId },
			kind: 'read' as const,
			list: { events },
		})),
	);
	return {
		plan,
		saved: JSON.parse(JSON.stringify(plan.commit(plan.emissions.length))) as TriggerPosition,
	};
}

const lead = (key: string, time: number): InquiryEvent => ({ key, time });

describe('Alert When Quiet in the poll plan', () => {
	it('a record dated in the future brings nothing once emitted: the spell after it is reported', () => {
		let { saved } = poll(undefined, T0, { a: [lead('old', T0 - DAY)] });
		const ahead = lead('ahead', T0 + 365 * DAY);
		const withAhead = poll(saved, T0 + HOUR, { a: [lead('old', T0 - DAY), ahead] });
		expect(withAhead.plan.emissions.map(({ event }) => event.key)).toEqual(['ahead']);
		saved = withAhead.saved;
		const later = poll(saved, T0 + 25 * HOUR + MINUTE, { a: [lead('old', T0 - DAY), ahead] });
		expect(later.plan.quietSpells).toEqual([
			expect.objectContaining({
				pageId: 'a',
				spell: { last: T0 + HOUR, quietMs: 24 * HOUR + MINUTE },
			}),
		]);
	});

	it("judges a form out of the app's list, but not one left out by Watch: One Form, nor one listed past the forms read", () => {
		const { saved } = poll(undefined, T0, {
			a: [lead('a1', T0 - HOUR)],
			b: [lead('b1', T0 - HOUR)],
		});
		const later = T0 + 2 * DAY;
		const judged = (setup: Partial<PollSetup>) =>
			poll(saved, later, { a: [lead('a1', T0 - HOUR)] }, setup).plan.quietSpells.map(
				({ pageId, unlisted }) => `${pageId}${unlisted ? ' (unlisted)' : ''}`,
			);
		// b is no longer in the app's list: judged, and said so.
		expect(judged({})).toEqual(['a', 'b (unlisted)']);
		// b is listed, but before the forms read (an app of more than 1,000): not read, so neither judged nor said gone.
		expect(judged({ listing: { read: ['a'], before: ['b'] } })).toEqual(['a']);
		// Watch: One Form a: b is out of the watch, not judged.
		const one: Watched = { kind: 'one', pageId: 'a' };
		expect(judged({ watch: one })).toEqual(['a']);
	});

	it('a quiet spell survives a Watch switch and back: reported once, its last lead still the one before the switch', () => {
		let { saved } = poll(undefined, T0, { a: [lead('a1', T0 - HOUR)], b: [lead('b1', T0 - HOUR)] });
		// b goes quiet and is reported.
		const reported = poll(saved, T0 + 2 * DAY, {
			a: [lead('a2', T0 + DAY)],
			b: [lead('b1', T0 - HOUR)],
		});
		expect(reported.plan.quietSpells.map(({ pageId }) => pageId)).toEqual(['b']);
		saved = reported.saved;
		// Watch: One Form a, then back to All Forms: b, still without a new lead, is not reported again.
		saved = poll(saved, T0 + 3 * DAY, { a: [] }, { watch: { kind: 'one', pageId: 'a' } }).saved;
		const back = poll(saved, T0 + 4 * DAY, {
			a: [lead('a3', T0 + 4 * DAY - MINUTE)],
			b: [lead('b1', T0 - HOUR)],
		});
		expect(back.plan.quietSpells).toEqual([]);
		// Nor a day later: the spell it was reported for goes on.
		const still = poll(back.saved, T0 + 5 * DAY + HOUR, {
			a: [lead('a4', T0 + 5 * DAY)],
			b: [lead('b1', T0 - HOUR)],
		});
		expect(still.plan.quietSpells).toEqual([]);
		// Its next lead ends the spell; the one after that is reported from there.
		const lively = poll(still.saved, T0 + 5 * DAY + 2 * HOUR, {
			a: [lead('a4', T0 + 5 * DAY)],
			b: [lead('b1', T0 - HOUR), lead('b2', T0 + 5 * DAY + HOUR)],
		});
		expect(lively.plan.emissions.map(({ event }) => event.key)).toEqual(['b2']);
		const again = poll(lively.saved, T0 + 7 * DAY, {
			a: [lead('a5', T0 + 7 * DAY - MINUTE)],
			b: [lead('b1', T0 - HOUR), lead('b2', T0 + 5 * DAY + HOUR)],
		});
		expect(again.plan.quietSpells).toEqual([
			expect.objectContaining({
				pageId: 'b',
				spell: expect.objectContaining({ last: T0 + 5 * DAY + 2 * HOUR }),
			}),
		]);
	});
});
