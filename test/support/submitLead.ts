import { FIXTURE } from '../emulator';
import type { Emulator } from './useEmulator';

export interface LeadToSubmit {
	/** The form's one field, "Your Name". */
	name: string;
	/** When it was submitted (and last updated), in milliseconds. */
	addedon: number;
	/** The inquiry's ID; the emulator makes one when absent. */
	id?: string;
	/** The form; the fixture's Contact Us form when absent. */
	pageId?: string;
}

/** A lead as a visitor submits one to a form: a single name field, never edited since. */
export function submitLead(
	emulator: Emulator,
	lead: LeadToSubmit,
): ReturnType<Emulator['control']['addInquiry']> {
	return emulator.control.addInquiry({
		appId: FIXTURE.appId,
		pageId: lead.pageId ?? FIXTURE.formPageId,
		...(lead.id === undefined ? {} : { _id: lead.id }),
		addedon: lead.addedon,
		updatedon: lead.addedon,
		fields: [{ name: 'name', label: 'Your Name', value: lead.name }],
	});
}
