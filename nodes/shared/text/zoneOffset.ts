// How far a time zone's clocks are ahead of UTC at a moment, through Intl: what reading a date in the
// workflow's zone and counting the workflow's wall-clock hours both need.

/** Time zones seen so far (a workflow names one; a few hundred exist), each with its formatter. */
const offsetsByZone = new Map<string, ((epochMs: number) => number) | undefined>();
const MAX_ZONES_KEPT = 100;

/**
 * How far ahead of UTC the zone's clocks are at a moment, in ms; undefined
 * for a zone Intl does not know.
 */
export function zoneOffsets(timeZone: string): ((epochMs: number) => number) | undefined {
	if (offsetsByZone.has(timeZone)) return offsetsByZone.get(timeZone);
	let offsetAt: ((epochMs: number) => number) | undefined;
	try {
		const format = new Intl.DateTimeFormat('en-US', {
			timeZone,
			hourCycle: 'h23',
			year: 'numeric',
			month: 'numeric',
			day: 'numeric',
			hour: 'numeric',
			minute: 'numeric',
			second: 'numeric',
		});
		offsetAt = (epochMs) => {
			const whole = epochMs - (((epochMs % 1000) + 1000) % 1000);
			const parts: Record<string, number> = {};
			for (const part of format.formatToParts(new Date(whole)))
				parts[part.type] = Number(part.value);
			// setUTCFullYear, not Date.UTC, which reads a year below 100 as 19xx.
			const shown = new Date(0);
			shown.setUTCFullYear(parts.year, parts.month - 1, parts.day);
			const time = shown.getTime() + ((parts.hour * 60 + parts.minute) * 60 + parts.second) * 1000;
			return Number.isNaN(time) ? 0 : time - whole;
		};
	} catch {
		offsetAt = undefined;
	}
	if (offsetsByZone.size >= MAX_ZONES_KEPT) offsetsByZone.clear();
	offsetsByZone.set(timeZone, offsetAt);
	return offsetAt;
}
