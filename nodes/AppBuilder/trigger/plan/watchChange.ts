import { applyEvent, type FormEvent } from '../forms/formEvents';
import type { TriggerPosition, Watched } from '../saved/position';

// A change of Watch or Form as events on the records: the rule atop docs/trigger.md, and
// docs/trigger-internals.md, "A form's record".

/** On First Poll: nothing, the latest few, or every lead since a date. */
export type FirstPoll =
	| { kind: 'none' }
	| { kind: 'latest'; count: number }
	| { kind: 'since'; sinceMs: number };

/** How a read that begins a form's watch starts: the newest `count` emitted (none: 0), or every lead since. */
export type WatchStart = { kind: 'latest'; count: number } | { kind: 'since' };

export function watchChange(setup: {
	saved: TriggerPosition | undefined;
	watch: Watched;
	firstPoll: FirstPoll;
	nowMs: number;
}) {
	const { saved, watch, firstPoll, nowMs } = setup;
	const before = saved?.watch;
	const records = new Map(Object.entries(saved?.forms ?? {}));
	let others = saved?.others;
	const apply = (pageId: string, event: FormEvent) =>
		records.set(pageId, applyEvent(records.get(pageId), event));
	// The API dates leads to the second: a lead dated in the second of a change may be on either side
	// of it, so the watch begins, and a stretch out ends, at the start of that second, and a stretch
	// out starts at its end: such a lead is emitted rather than lost.
	const second = Math.floor(nowMs / 1000) * 1000;
	const nextSecond = Math.ceil(nowMs / 1000) * 1000;
	// On First Poll on the trigger's first poll only: a position saved again would emit leads twice.
	const since = saved === undefined && firstPoll.kind === 'since';
	const begins: FormEvent = {
		kind: 'watchBegins',
		at: since ? Math.min(firstPoll.sinceMs, second) : second,
	};
	const start: WatchStart = since
		? { kind: 'since' }
		: {
				kind: 'latest',
				count: saved === undefined && firstPoll.kind === 'latest' ? firstPoll.count : 0,
			};
	const fresh = new Set<string>();
	let othersFresh = false;

	if (watch.kind === 'all') {
		if (before?.kind !== 'all') {
			for (const pageId of records.keys()) apply(pageId, { kind: 'cameBack', at: second });
			othersFresh = others === undefined;
			others = applyEvent(others, othersFresh ? begins : { kind: 'cameBack', at: second });
		}
	} else {
		const { pageId } = watch;
		if (!records.has(pageId)) {
			// Watched with every form before (its stretch out, if any, ends below), or never watched.
			if (others !== undefined) records.set(pageId, others);
			else fresh.add(pageId);
			if (others === undefined) apply(pageId, begins);
		}
		if (before !== undefined && !sameWatch(before, watch)) {
			const leaves: FormEvent = { kind: 'leftSettings', at: nextSecond };
			for (const [other, record] of records)
				if (other !== pageId && record.outSince === undefined) apply(other, leaves);
			if (others !== undefined && others.outSince === undefined)
				others = applyEvent(others, leaves);
			apply(pageId, { kind: 'cameBack', at: second });
		}
	}
	return {
		begun: before?.kind === 'all' || (before !== undefined && sameWatch(before, watch)),
		changes: before === undefined || !sameWatch(before, watch),
		records,
		others,
		/** How the read of a form starts when this poll begins its watch; undefined when it carries on. */
		startOf: (pageId: string) =>
			fresh.has(pageId) || (othersFresh && !records.has(pageId)) ? start : undefined,
	};
}

function sameWatch(a: Watched, b: Watched): boolean {
	return a.kind === 'all' ? b.kind === 'all' : b.kind === 'one' && a.pageId === b.pageId;
}
