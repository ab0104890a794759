// Reads a Retry-After header exactly as RFC 9110 (section 10.2.3) defines
// it: delay-seconds (one or more digits) or an HTTP-date, in its preferred
// form (IMF-fixdate) or either obsolete one (RFC 850, asctime). Anything else
// ("+5", "10.", ".5", "-5", "12 13", "soon") says nothing and is ignored,
// never read as "retry at once". A date in the past means the wait is over.

/** Longer than any valid value that matters (an HTTP-date is 29 characters). */
const MAX_LENGTH = 64;

/**
 * The longest wait read: any longer one, of up to 64 digits or a date up to
 * the year 9999, reads as this, so that the moment it ends is still a date
 * (13 digits of seconds are past the last one JavaScript holds).
 */
export const MAX_RETRY_AFTER_YEARS = 100;
export const MAX_RETRY_AFTER_MS = MAX_RETRY_AFTER_YEARS * 365.25 * 24 * 3600 * 1000;

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const MONTH = `(${MONTHS.join('|')})`;
const TIME = '(\\d{2}):(\\d{2}):(\\d{2})';

/** Sun, 06 Nov 1994 08:49:37 GMT */
const IMF_FIXDATE = new RegExp(
	`^(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun), (\\d{2}) ${MONTH} (\\d{4}) ${TIME} GMT$`,
);
/** Sunday, 06-Nov-94 08:49:37 GMT */
const RFC850_DATE = new RegExp(
	`^(?:Mon|Tues|Wednes|Thurs|Fri|Satur|Sun)day, (\\d{2})-${MONTH}-(\\d{2}) ${TIME} GMT$`,
);
/** Sun Nov  6 08:49:37 1994 */
const ASCTIME_DATE = new RegExp(
	`^(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun) ${MONTH} ([\\d ]\\d) ${TIME} (\\d{4})$`,
);

/**
 * The wait a Retry-After value asks for, in milliseconds, or undefined
 * when it is missing or not valid.
 */
export function parseRetryAfter(value: string | undefined, nowMs: number): number | undefined {
	if (value === undefined || value.length > MAX_LENGTH) return undefined;
	// Only the optional white space around a field value (space and tab) is not part of it.
	const text = trimOws(value);
	if (/^\d+$/.test(text)) return Math.min(Number(text) * 1000, MAX_RETRY_AFTER_MS);
	const date = httpDate(text, nowMs);
	return date === undefined ? undefined : Math.min(Math.max(0, date - nowMs), MAX_RETRY_AFTER_MS);
}

/**
 * Epoch milliseconds of an HTTP-date, or undefined when the text is not one (or
 * names a day that does not exist).
 */
export function httpDate(text: string, nowMs: number): number | undefined {
	let match = IMF_FIXDATE.exec(text);
	if (match) return utc(Number(match[3]), match[2], match[1], match.slice(4, 7));
	match = RFC850_DATE.exec(text);
	if (match) return utc(fullYear(Number(match[3]), nowMs), match[2], match[1], match.slice(4, 7));
	match = ASCTIME_DATE.exec(text);
	if (match) return utc(Number(match[6]), match[1], match[2].trim(), match.slice(3, 6));
	return undefined;
}

/**
 * A two-digit year (RFC 850) in the century that puts it at most 50 years
 * ahead of now, as RFC 9110 asks recipients to read it.
 */
function fullYear(twoDigits: number, nowMs: number): number {
	const thisYear = new Date(nowMs).getUTCFullYear();
	let year = thisYear - (thisYear % 100) + twoDigits;
	if (year > thisYear + 50) year -= 100;
	return year;
}

function utc(
	year: number,
	monthName: string,
	dayText: string,
	[hourText, minuteText, secondText]: string[],
): number | undefined {
	const month = MONTHS.indexOf(monthName);
	const [day, hour, minute, second] = [dayText, hourText, minuteText, secondText].map(Number);
	// 60 is a leap second, which a clock may show; it is read as the next minute's start.
	if (hour > 23 || minute > 59 || second > 60) return undefined;
	// setUTCFullYear, not Date.UTC, which reads a year below 100 as 19xx.
	const date = new Date(0);
	date.setUTCFullYear(year, month, day);
	// 31 Feb rolls over into March: such a day does not exist.
	if (date.getUTCMonth() !== month || date.getUTCDate() !== day) return undefined;
	return date.getTime() + ((hour * 60 + minute) * 60 + second) * 1000;
}

function trimOws(text: string): string {
	let start = 0;
	let end = text.length;
	while (start < end && (text[start] === ' ' || text[start] === '\t')) start++;
	while (end > start && (text[end - 1] === ' ' || text[end - 1] === '\t')) end--;
	return text.slice(start, end);
}
