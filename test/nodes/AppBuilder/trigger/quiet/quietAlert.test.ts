import { quietAlertText } from '../../../../../nodes/AppBuilder/trigger/quiet/quietAlert';
import { HOUR } from '../../../../support/durations';

const LAST = Date.parse('2026-06-01T09:00:00Z');

describe("the quiet alert's words", () => {
	it('names one form, how long it is quiet, its last lead in the workflow time zone, and the fixed rule', () => {
		const text = quietAlertText(
			[{ label: 'Contact Us', spell: { last: LAST, quietMs: 5 * HOUR }, unlisted: false }],
			{ kind: 'fixed', afterMs: 4 * HOUR },
			'Europe/Berlin',
		);
		expect(text.message).toBe('Form Contact Us has had no new lead for 5 hours');
		expect(text.description).toContain('Contact Us: a poll last brought it a new lead');
		expect(text.description).toContain('11:00');
		expect(text.description).toContain('Alert When Quiet is set to 4 hours');
		expect(text.description).toContain('No lead is lost');
		expect(text.description).not.toContain('no longer in the app');
	});

	it("counts several forms, says what each usually gets, and names one gone from the app's list", () => {
		const text = quietAlertText(
			[
				{
					label: 'Contact Us',
					spell: { last: LAST, quietMs: 30 * HOUR, usualLeads: 14.4 },
					unlisted: false,
				},
				{
					label: 'Quote',
					spell: { last: LAST, quietMs: 50 * HOUR, usualLeads: 12 },
					unlisted: true,
				},
			],
			{ kind: 'unusual' },
			'UTC',
		);
		expect(text.message).toMatch(
			/^2 forms have had no new lead for too long: Contact Us \(.+\), Quote \(.+\)$/,
		);
		expect(text.description).toContain(
			'in the same hours, even the quietest of the last four weeks brought it 14 leads',
		);
		expect(text.description).toContain('Quote: a poll last brought it a new lead');
		expect(text.description.match(/no longer in the app's list of forms/g)).toHaveLength(1);
	});
});
