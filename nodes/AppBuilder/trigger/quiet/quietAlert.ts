import { durationText, momentText } from '../../../shared/text/timeText';
import type { QuietRule, QuietSpell } from './formRhythm';

/** A form quiet past Alert When Quiet, as the alert names it. */
export interface QuietForm {
	label: string;
	spell: QuietSpell;
	unlisted: boolean;
}

/** The alert's words for the forms quiet in one poll: what is quiet, since when, what is usual, what to check. */
export function quietAlertText(
	quiet: readonly QuietForm[],
	rule: QuietRule,
	timeZone: string,
): { message: string; description: string } {
	const named = quiet.map(({ label, spell }) => `${label} (${durationText(spell.quietMs)})`);
	const message =
		quiet.length === 1
			? `Form ${quiet[0].label} has had no new lead for ${durationText(quiet[0].spell.quietMs)}`
			: `${quiet.length} forms have had no new lead for too long: ${named.join(', ')}`;
	const details = quiet.map(({ label, spell, unlisted }) => {
		const usual =
			rule.kind === 'fixed'
				? `Alert When Quiet is set to ${durationText(rule.afterMs)}`
				: `in the same hours, even the quietest of the last four weeks brought it ${Math.round(spell.usualLeads ?? 0)} leads`;
		const gone = unlisted
			? " It is no longer in the app's list of forms: it may have been unpublished or deleted."
			: '';
		return `${label}: a poll last brought it a new lead ${momentText(spell.last, timeZone)}; ${usual}.${gone}`;
	});
	return {
		message,
		description: `${details.join(' ')} Check that the form still works in the app (a field made required, the page unpublished, the submit button). This is reported once; the next lead ends the quiet spell. No lead is lost: the trigger keeps polling and emits every lead as usual.`,
	};
}
