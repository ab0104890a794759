/* eslint-disable no-console -- it prints its figure */
/**
 * "Static data": a form of a million inquiries through the cursor alone (a
 * body that size is more than one HTTP response here can carry), and what the
 * cursor leaves in static data after its first poll and five more.
 */
import {
	commitPoll,
	cursorFrom,
	firstRead,
	stepCursor,
	type CursorOptions,
} from '../../nodes/AppBuilder/trigger/cursor/cursor';
import { type InquiryEvent } from '../../nodes/AppBuilder/trigger/events/inquiryEvent';
import type { PollRow } from './onePoll';

export interface StaticDataSettings {
	/** Inquiries in the form the cursor reads. */
	formSize: number;
	newPerPoll: number;
}

export const STATIC_DATA: Record<'full' | 'smoke', StaticDataSettings> = {
	full: { formSize: 1_000_000, newPerPoll: 10 },
	smoke: { formSize: 20_000, newPerPoll: 10 },
};

/** The documented bound on the static data, whatever the form's size. */
const STATE_BOUND_BYTES = 50_000;

/** The static data the cursor leaves for a form of `formSize` inquiries, in bytes of JSON. */
export function stateSizeOfLargeForm(settings: StaticDataSettings): number {
	const count = settings.formSize;
	const start = Date.now() - count * 1000;
	const events: InquiryEvent[] = Array.from({ length: count }, (_, i) => ({
		key: `65f1c0ffee${String(i).padStart(14, '0')}`,
		time: start + i * 1000,
	}));
	const options: CursorOptions = { mode: 'new', maxItems: 500, nowMs: Date.now() };
	let state = firstRead(cursorFrom(options.nowMs), events, options, 0).baseline;
	for (let poll = 0; poll < 5; poll++) {
		for (let i = 0; i < settings.newPerPoll; i++)
			events.push({ key: `new-${poll}-${i}`, time: Date.now() + poll * 1000 + i });
		const plan = stepCursor(state, events, options);
		state = commitPoll(plan, plan.toEmit, options);
	}
	const bytes = JSON.stringify(state).length;
	console.log(`state  ${count} inquiries (cursor alone): ${bytes} B`);
	return bytes;
}

/** The targets table's row: the static data a poll left at the largest form measured, and the cursor's at `formSize`. */
export function staticDataTargetRow(
	polls: PollRow[],
	largeFormBytes: number,
	settings: StaticDataSettings,
): string {
	const largest = polls[polls.length - 1];
	const met = Math.max(largest.stateBytes, largeFormBytes) <= STATE_BOUND_BYTES;
	return `| Static data at ${largest.size.toLocaleString('en')} and ${settings.formSize.toLocaleString('en')} | within the documented bound (about 50 KB) | ${largest.stateBytes.toLocaleString('en')} B and ${largeFormBytes.toLocaleString('en')} B | ${met ? 'met' : '**not met**'} |`;
}

export function staticDataSection(largeFormBytes: number): string {
	return `## Static data

A form of 1,000,000 inquiries, through the cursor alone (a 1.5 GB body is
more than one HTTP response here can carry): **${largeFormBytes.toLocaleString('en')} B** after the
first poll and five more. The documented bound is about 50 KB whatever the
form's size.
`;
}
