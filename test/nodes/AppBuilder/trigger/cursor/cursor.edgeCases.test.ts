import {
	commitPoll,
	cursorFrom,
	firstRead,
	stepCursor,
	type CursorOptions,
	type CursorState,
} from '../../../../../nodes/AppBuilder/trigger/cursor/cursor';
import { type InquiryEvent } from '../../../../../nodes/AppBuilder/trigger/events/inquiryEvent';
import { storedCursor } from '../../../../support/storedCursor';
import { MINUTE, HOUR } from '../../../../support/durations';

/**
 * Three sequences a review of the cursor found to lose or stall leads, each
 * as the trigger runs it: plan, emit what was planned, commit, store as JSON.
 */
const T0 = Date.parse('2026-06-01T00:00:00Z');

const options = (overrides: Partial<CursorOptions> = {}): CursorOptions => ({
	mode: 'new',
	maxItems: 500,
	nowMs: T0,
	...overrides,
});
const ev = (key: string, time: number | undefined): InquiryEvent => ({ key, time });
const numbered = (prefix: string, count: number, timeOf: (index: number) => number | undefined) =>
	Array.from({ length: count }, (_, index) =>
		ev(`${prefix}${String(index).padStart(4, '0')}`, timeOf(index)),
	);

/** One poll: plan, emit everything planned, commit onto the plan, store through JSON as n8n does. */
function poll(state: CursorState | undefined, present: InquiryEvent[], opts: CursorOptions) {
	const plan =
		state === undefined
			? firstRead(cursorFrom(0), present, opts, 0)
			: stepCursor(state, present, opts);
	const next = commitPoll(plan, plan.toEmit, opts);
	return {
		emitted: plan.toEmit.map((event) => event.key),
		plan,
		state: storedCursor(JSON.parse(JSON.stringify(next))) as CursorState,
	};
}

/** Polls until a poll emits nothing; every key emitted, in order, repeats included. */
function drain(
	state: CursorState,
	present: InquiryEvent[],
	optionsAt: (poll: number) => CursorOptions,
) {
	const emitted: string[] = [];
	let current = state;
	for (let round = 0; round < 100; round++) {
		const next = poll(current, present, optionsAt(round));
		current = next.state;
		if (next.emitted.length === 0) break;
		emitted.push(...next.emitted);
	}
	return { emitted, state: current };
}

describe('a record dated in the future', () => {
	/** A 30-hour outage with a lead every 18 s (6,000 waiting), then a poll a minute with Max 500. */
	function afterOutage(withFutureRecord: boolean): string[] {
		const present = [ev('seed', T0 - HOUR)];
		let state = poll(undefined, present, options()).state;
		// A test lead dated 2099 (or a timestamp in a unit read wrongly), emitted before the outage.
		if (withFutureRecord) present.push(ev('test-lead-2099', Date.parse('2099-01-01T00:00:00Z')));
		state = poll(state, present, options({ nowMs: T0 + MINUTE })).state;
		const outage = numbered('lead', 6000, (index) => T0 + 2 * MINUTE + index * 18_000);
		present.push(...outage);
		const resumedAt = T0 + 30 * HOUR + 2 * MINUTE;
		return drain(state, present, (round) => options({ nowMs: resumedAt + round * MINUTE })).emitted;
	}

	it('does not let the floor pass a backlog older than the lookback that Max per Poll left waiting', () => {
		const emitted = afterOutage(true);
		expect(emitted).toHaveLength(6000);
		expect(new Set(emitted).size).toBe(6000);
		expect(afterOutage(false)).toEqual(emitted);
	});
});

describe('more undated inquiries at activation than the former list held (200)', () => {
	const atActivation = numbered('old', 250, () => undefined);

	it('emits a new undated inquiry once, and no inquiry from before activation when remembered ones are deleted', () => {
		let present = [...atActivation];
		let state = poll(undefined, present, options()).state;
		present.push(ev('new-lead', undefined));
		const first = drain(state, present, () => options());
		expect(first.emitted).toEqual(['new-lead']);
		state = first.state;

		// Deleting remembered inquiries, one at a time and then 40 at once, makes nothing old come out.
		const emitted: string[] = [];
		for (const gone of ['old0249', 'old0000', 'old0100']) {
			present = present.filter((event) => event.key !== gone);
			const next = drain(state, present, () => options());
			emitted.push(...next.emitted);
			state = next.state;
		}
		present = present.filter((event) => !/^old00[0-3]/.test(event.key));
		const next = drain(state, [...present, ev('zz-new-lead', undefined)], () => options());
		emitted.push(...next.emitted);
		expect(emitted).toEqual(['zz-new-lead']);
	});
});

describe('late arrivals that share one time, split by Max per Poll', () => {
	it('emits all 600 when 1,000 newer ones were already emitted', () => {
		const opts = options({ maxItems: 1000, nowMs: T0 + 2 * HOUR });
		const newer = numbered('newer', 1000, (index) => T0 + HOUR + index * 1000);
		let state = poll(undefined, [ev('seed', T0)], opts).state;
		state = poll(state, [ev('seed', T0), ...newer], opts).state;

		const late = numbered('late', 600, () => T0 + 30 * MINUTE);
		const { emitted } = drain(state, [ev('seed', T0), ...newer, ...late], () =>
			options({ maxItems: 500, nowMs: T0 + 2 * HOUR }),
		);
		expect(emitted).toHaveLength(600);
		expect([...emitted].sort()).toEqual(late.map((event) => event.key));
	});
});
