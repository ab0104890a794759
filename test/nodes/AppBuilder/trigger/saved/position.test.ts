import {
	positionProblem,
	positionScope,
	SAVED_POSITION_VERSION,
	type TriggerPosition,
} from '../../../../../nodes/AppBuilder/trigger/saved/position';
import { DEFAULT_MAX_TRACKED } from '../../../../../nodes/AppBuilder/trigger/cursor/cursor';
import { type InquiryEvent } from '../../../../../nodes/AppBuilder/trigger/events/inquiryEvent';
import {
	PollPlanner,
	MIN_TRACKED_PER_FORM,
	type PollSetup,
} from '../../../../../nodes/AppBuilder/trigger/plan/pollPlan';
import { savedPosition } from '../../../../support/savedPosition';

describe("the trigger's saved position", () => {
	it('is scoped by app and event: another of either starts over', () => {
		expect(positionScope('app_1', 'new')).toBe('app_1/new');
		expect(positionScope('app_1', 'newOrUpdated')).not.toBe(positionScope('app_1', 'new'));
	});

	it('is of the current format, its watch one form or every form, and names what is wrong otherwise', () => {
		const stored = { v: SAVED_POSITION_VERSION, ...savedPosition({}) };
		expect(positionProblem(stored)).toBeUndefined();
		expect(positionProblem({ ...stored, watch: { kind: 'one', pageId: 'f' } })).toBeUndefined();
		expect(positionProblem({ ...stored, v: SAVED_POSITION_VERSION - 1 })).toBe(
			`its format is not v${SAVED_POSITION_VERSION}`,
		);
		expect(positionProblem({ ...stored, watch: { kind: 'some' } })).toBe(
			'"watch" is neither every form nor one form',
		);
		expect(positionProblem(null)).toBe('it is not an object');
	});
});

describe("the saved position's size", () => {
	/** An ID as the API gives them: 24 hexadecimal characters. */
	const id = (form: number, index: number) =>
		`${form.toString(16).padStart(8, '0')}${index.toString(16).padStart(16, '0')}`;

	it.each([1, 20, 50])(
		'%i forms, each with more dated leads than it tracks and a full table of undated ones, stay within the bound per form',
		(forms) => {
			const pageIds = Array.from(
				{ length: forms },
				(_, index) => `formbuilder_1001_${100 + index}`,
			);
			const now = 1_795_000_000_000;
			// Each poll brings 100 more undated leads per form (what a table tells apart between two polls is about 150).
			const events = (form: number, undated: number): InquiryEvent[] => [
				...Array.from({ length: 1200 }, (_, index) => ({
					key: id(form, index),
					time: now + index,
				})),
				...Array.from({ length: undated }, (_, index) => ({
					key: id(form, 100_000 + index),
					time: undefined,
				})),
			];
			// The first poll begins the watch at `now`; the later ones run an hour on, the leads dated between.
			const setup = (saved: TriggerPosition | undefined, nowMs = now + 3_600_000): PollSetup => ({
				saved,
				scope: 'app/new',
				watch: { kind: 'all' },
				listing: { read: pageIds, before: [] },
				firstPoll: { kind: 'none' },
				mode: 'new',
				maxItems: 100_000,
				quiet: { kind: 'off' },
				timeZone: 'UTC',
				nowMs,
			});
			// A first poll, then polls that emit every lead as new: each form tracks its share and tables its undated ones.
			let position = new PollPlanner(setup(undefined, now))
				.plan(pageIds.map((pageId) => ({ form: { pageId }, kind: 'read', list: { events: [] } })))
				.commit(0);
			for (const undated of [100, 200, 300, 400]) {
				const plan = new PollPlanner(setup(position)).plan(
					pageIds.map((pageId, form) => ({
						form: { pageId },
						kind: 'read',
						list: { events: events(form, undated) },
					})),
				);
				expect(plan.unresolvedUndated.every(({ count }) => count === 0)).toBe(true);
				position = plan.commit(plan.emissions.length);
			}
			const share = Math.max(MIN_TRACKED_PER_FORM, Math.floor(DEFAULT_MAX_TRACKED / forms));
			for (const { cursor } of Object.values(position.forms))
				expect(Object.keys(cursor.seen)).toHaveLength(share);
			// The bound docs/trigger-internals.md states: per form, its share of IDs at 41 bytes, a table of at most 6,404 characters, 200 more.
			const perForm = share * 41 + 6_404 + 200;
			const size = JSON.stringify(position).length;
			expect(size).toBeLessThanOrEqual(forms * perForm + 300);
			// The tables are full: the bound is what they take, not a loose ceiling.
			expect(size).toBeGreaterThan(forms * (share * 41 + 6_000));
		},
	);
});
