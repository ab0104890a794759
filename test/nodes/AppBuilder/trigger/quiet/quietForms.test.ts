import {
	nextRhythm,
	quietSpell,
	type FormRhythm,
	type QuietRule,
} from '../../../../../nodes/AppBuilder/trigger/quiet/formRhythm';
import { quietForms } from '../../../../../nodes/AppBuilder/trigger/quiet/quietForms';
import { HOUR } from '../../../../support/durations';

const T0 = Date.parse('2026-06-01T09:00:00Z');
const FIXED: QuietRule = { kind: 'fixed', afterMs: 2 * HOUR };

/** A form's rhythm after one poll at T0 that brought it a lead. */
const withLead: FormRhythm = nextRhythm(undefined, { arrivals: 1, times: [T0] }, T0, {
	timeZone: 'UTC',
	unwatched: [],
});

const judge = (
	overrides: Partial<Parameters<typeof quietForms>[0]>,
): ReturnType<typeof quietForms> =>
	quietForms({
		saved: { read: withLead, unread: withLead, away: withLead, dropped: withLead },
		read: [{ pageId: 'read', arrivals: 0, times: [T0] }],
		unread: ['unread'],
		watchedAway: (pageId) => pageId === 'away',
		rule: FIXED,
		timeZone: 'UTC',
		nowMs: T0 + 3 * HOUR,
		...overrides,
	});

describe('which forms a poll judges quiet', () => {
	it('judges a form read and one away but still watched; keeps an unread one as it was; drops one no longer watched', () => {
		const { rhythms, quietSpells } = judge({});
		expect(quietSpells.map(({ pageId, away }) => [pageId, away])).toEqual([
			['read', false],
			['away', true],
		]);
		expect(rhythms.get('unread')).toBe(withLead);
		expect(rhythms.has('dropped')).toBe(false);
		// A form reported remembers it, so its spell is reported once.
		const read = rhythms.get('read') as FormRhythm;
		expect(
			quietSpell(read, FIXED, T0 + 4 * HOUR, { timeZone: 'UTC', unwatched: [] }),
		).toBeUndefined();
	});

	it('reports a spell once: the next poll of the same spell says nothing', () => {
		const first = judge({});
		const again = quietForms({
			saved: Object.fromEntries(first.rhythms),
			read: [{ pageId: 'read', arrivals: 0, times: [T0] }],
			unread: [],
			watchedAway: (pageId) => pageId === 'away',
			rule: FIXED,
			timeZone: 'UTC',
			nowMs: T0 + 4 * HOUR,
		});
		expect(again.quietSpells).toEqual([]);
	});

	it('judges nothing quiet before the rule says so, or under Alert When Quiet: Off', () => {
		expect(judge({ nowMs: T0 + HOUR }).quietSpells).toEqual([]);
		expect(judge({ rule: { kind: 'off' } }).quietSpells).toEqual([]);
	});
});
