import { isRecord } from '../../../shared/valueShapes';
import { formRecordProblem, type FormRecord } from '../forms/formRecord';

// What a trigger saves between polls (docs/trigger-internals.md, "A form's record"). Pure.

/** Which forms the settings watch: every form of the app, or one. */
export type Watched = { kind: 'all' } | { kind: 'one'; pageId: string };

export interface TriggerPosition {
	/** The app and the event (`appId/event`); another app or event starts over. */
	scope: string;
	watch: Watched;
	/** Per form page ID, its record: forms read, listed, away or left out by the settings. */
	forms: Record<string, FormRecord>;
	/** The record of every form not in `forms` (not listed yet); absent while such forms were never watched. */
	others?: FormRecord;
	/** Page IDs of the forms the last poll did not reach, to read first. */
	leftOver: string[];
}

/** The saved format, stored as `v`: raise it with each change of shape or meaning (migrations.ts). */
export const SAVED_POSITION_VERSION = 7;

/** The scope of a position: another app or another event starts over. */
export function positionScope(appId: string, event: string): string {
	return `${appId}/${event}`;
}

/** What keeps a stored value from being a position of the current format, in words for an error; undefined if nothing. */
export function positionProblem(value: unknown): string | undefined {
	if (!isRecord(value)) return 'it is not an object';
	if (value.v !== SAVED_POSITION_VERSION) return `its format is not v${SAVED_POSITION_VERSION}`;
	if (typeof value.scope !== 'string') return '"scope" is not text';
	const watch = isRecord(value.watch) ? value.watch : {};
	if (!(watch.kind === 'all' || (watch.kind === 'one' && typeof watch.pageId === 'string')))
		return '"watch" is neither every form nor one form';
	if (!isRecord(value.forms)) return '"forms" is not an object';
	for (const [pageId, record] of Object.entries(value.forms)) {
		const problem = formRecordProblem(record);
		if (problem !== undefined) return `the record of form ${pageId} is not readable: ${problem}`;
	}
	const others = value.others === undefined ? undefined : formRecordProblem(value.others);
	if (others !== undefined)
		return `the record of the forms not listed yet is not readable: ${others}`;
	if (!Array.isArray(value.leftOver) || !value.leftOver.every((form) => typeof form === 'string'))
		return '"leftOver" is not a list of forms';
	return undefined;
}
