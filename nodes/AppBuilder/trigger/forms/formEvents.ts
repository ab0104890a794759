import { cursorFrom, DEFAULT_LOOKBACK_MS, type CursorState } from '../cursor/cursor';
import { floorBefore, isAfterFloor, later, raiseFloor, type OrderPoint } from '../cursor/floor';
import type { FormRhythm } from '../quiet/formRhythm';
import { MAX_OUT_STRETCHES, type FormRecord } from './formRecord';

// The one table of what changes a form's record; each event is told in docs/trigger-internals.md, "A form's
// record". Nothing else writes a record; failure streaks live in the n8n process (triggerMemory.ts).

export type FormEvent =
	| { kind: 'watchBegins' | 'cameBack' | 'forgotten'; at: number }
	| { kind: 'leftList' | 'pastReadLimit' | 'leftSettings' | 'outOfSettings'; at: number }
	| { kind: 'readSucceeded'; cursor: CursorState; quiet: FormRhythm | undefined }
	| { kind: 'readFailed' | 'notReached' | 'shrunk' }
	| { kind: 'quietReported'; quiet: FormRhythm }
	/** On the others' record: a form past the bound was dropped with its floor, so back it starts no earlier. */
	| { kind: 'formDropped'; floor: OrderPoint };

type Transitions = {
	[Kind in FormEvent['kind']]: (
		record: FormRecord,
		event: Extract<FormEvent, { kind: Kind }>,
	) => FormRecord;
};

const TRANSITIONS: Transitions = {
	watchBegins: (_, { at }) => ({ cursor: cursorFrom(at) }),
	readSucceeded: (record, { cursor, quiet }) => {
		const out = record.out?.filter(([, to]) => to > cursor.floor.time);
		return tidy({ ...record, cursor, out, quiet, away: undefined, undatedUnknown: undefined });
	},
	readFailed: (record) => tidy({ ...record, away: undefined }),
	notReached: (record) => tidy({ ...record, away: undefined }),
	leftList: awayOnce,
	pastReadLimit: awayOnce,
	leftSettings: (record, { at }) => ({ ...record, outSince: record.outSince ?? at }),
	outOfSettings: awayOnce,
	cameBack: (record, { at }) => {
		const { outSince } = record;
		if (outSince === undefined) return record;
		const out = [...(record.out ?? []), [outSince, Math.max(outSince, at)] as [number, number]];
		// Past the bound the two oldest join: leads dated between them that never were read are not sent.
		if (out.length > MAX_OUT_STRETCHES) out.splice(0, 2, [out[0][0], out[1][1]]);
		return tidy({ ...record, out, outSince: undefined });
	},
	shrunk: (record) => ({
		...record,
		cursor: newestOf(record.cursor, SMALL_CURSOR_KEYS, record.away?.since ?? 0),
		undatedUnknown: true,
	}),
	forgotten: (record, { at }) => {
		const small = newestOf(record.cursor, SMALL_CURSOR_KEYS, at);
		return {
			...record,
			cursor: withFloor(small, later(small.floor, floorBefore(at))),
			undatedUnknown: true,
		};
	},
	quietReported: (record, { quiet }) => ({ ...record, quiet }),
	formDropped: (record, { floor }) => ({
		...record,
		cursor: { ...record.cursor, floor: later(record.cursor.floor, floor) },
	}),
};

/** The record after `event`; only watchBegins makes one from nothing. */
export function applyEvent(record: FormRecord | undefined, event: FormEvent): FormRecord {
	const apply = TRANSITIONS[event.kind] as (record: FormRecord, event: FormEvent) => FormRecord;
	return apply(record ?? { cursor: cursorFrom(0) }, event);
}

export function applyEvents(
	record: FormRecord | undefined,
	events: readonly FormEvent[],
): FormRecord | undefined {
	let after = record;
	for (const event of events) after = applyEvent(after, event);
	return after;
}

/** Emitted keys a small cursor keeps: its newest. */
export const SMALL_CURSOR_KEYS = 10;

/** One more poll away; a stretch of absence starts with the first. */
function awayOnce(record: FormRecord, { at }: { at: number }): FormRecord {
	return {
		...record,
		away: { since: record.away?.since ?? at, polls: (record.away?.polls ?? 0) + 1 },
	};
}

/** Its newest `keys` keys, the floor raised as the cursor raises it with the clock at `capAt`; no undated table. */
function newestOf(cursor: CursorState, keys: number, capAt: number): CursorState {
	const floor = raiseFloor(
		cursor.floor,
		new Map(Object.entries(cursor.seen)),
		{ lookbackMs: DEFAULT_LOOKBACK_MS, maxTracked: keys, nowMs: capAt },
		undefined,
	);
	return withFloor(cursor, floor);
}

function withFloor(cursor: CursorState, floor: OrderPoint): CursorState {
	const after = Object.entries(cursor.seen).filter(([key, time]) => isAfterFloor(time, key, floor));
	return { floor, seen: Object.fromEntries(after), undated: '' };
}

/** No undefined field, nor an empty list of stretches, is saved. */
function tidy(record: FormRecord): FormRecord {
	const kept = Object.entries(record).filter(
		([field, value]) =>
			value !== undefined && !(field === 'out' && (value as unknown[]).length === 0),
	);
	return Object.fromEntries(kept) as unknown as FormRecord;
}
