/**
 * Putting the sections of a partial benchmark run (`npm run bench -- --only=…`)
 * into the report a full run wrote: a section replaces the one with its
 * heading, or goes before the section it belongs in front of; a row of the
 * targets table replaces the row with the same figure, or joins the table
 * before the row it belongs in front of. Pure text in, text out.
 */

/** The heading line of a section: its first line, `## …`. */
function headingOf(section: string): string {
	const heading = section.split('\n', 1)[0];
	if (!heading.startsWith('## '))
		throw new Error(
			`a report section starts with "## ", not ${JSON.stringify(heading.slice(0, 60))}`,
		);
	return heading;
}

/** Where the line `line` starts in `text` (as a whole line), or -1. */
function lineStart(text: string, line: string): number {
	if (text.startsWith(`${line}\n`)) return 0;
	const at = text.indexOf(`\n${line}\n`);
	return at < 0 ? -1 : at + 1;
}

/** Where the next `## ` heading after `from` starts, or the text's end. */
function nextHeading(text: string, from: number): number {
	const at = text.indexOf('\n## ', from);
	return at < 0 ? text.length : at + 1;
}

/**
 * `report` with `section` in place of the section of the same heading; when
 * the report has none, before the section headed `beforeHeading`, or at the
 * end when that is missing too.
 */
export function putSection(report: string, section: string, beforeHeading: string): string {
	const body = `${section.trimEnd()}\n\n`;
	const existing = lineStart(report, headingOf(section));
	if (existing >= 0)
		return report.slice(0, existing) + body + report.slice(nextHeading(report, existing));
	const before = lineStart(report, beforeHeading);
	if (before < 0) return `${report.trimEnd()}\n\n${body}`;
	return report.slice(0, before) + body + report.slice(before);
}

/**
 * The section of `report` headed `heading` (its heading line to the next
 * one), or undefined: a full run keeps a section only a partial run measures.
 */
export function sectionOf(report: string, heading: string): string | undefined {
	const start = lineStart(report, heading);
	if (start < 0) return undefined;
	return `${report.slice(start, nextHeading(report, start + 1)).trimEnd()}\n`;
}

/** The first cell of a table row, the figure it measures. */
const figureOf = (row: string) => row.split('|')[1]?.trim() ?? '';

/**
 * `report` with each of `rows` in the table under `## Targets`: in place of the
 * row of the same figure, else before the first row whose figure starts with
 * `beforeFigure`, else at the table's end.
 */
export function putTargetRows(report: string, rows: string[], beforeFigure: string): string {
	const start = lineStart(report, '## Targets');
	if (start < 0) throw new Error('the report has no "## Targets" section');
	const end = nextHeading(report, start + 1);
	const lines = report.slice(start, end).split('\n');
	for (const row of rows) {
		const same = lines.findIndex(
			(line) => line.startsWith('|') && figureOf(line) === figureOf(row),
		);
		if (same >= 0) {
			lines[same] = row;
			continue;
		}
		const before = lines.findIndex(
			(line) => line.startsWith('|') && figureOf(line).startsWith(beforeFigure),
		);
		const lastRow = lines.reduce((last, line, index) => (line.startsWith('|') ? index : last), -1);
		lines.splice(before >= 0 ? before : lastRow + 1, 0, row);
	}
	return report.slice(0, start) + lines.join('\n') + report.slice(end);
}

/**
 * The report's note, after its opening paragraph, of which sections a later
 * partial run wrote: `note` starts with the sections and the date ("scale on
 * 2026-11-25"). Each partial run keeps its line, the newest last; a line of
 * the same sections on the same day is replaced, however long that run took.
 */
export function notePartialRun(report: string, note: string): string {
	const prefix = 'Sections written by a later partial run: ';
	const lines = report.split('\n');
	// The same sections measured again on the same day: the earlier line says nothing the new one does not.
	const sameRun = /^\S+ on \d{4}-\d{2}-\d{2}/.exec(note)?.[0];
	if (!sameRun)
		throw new Error(
			`a partial run's note starts with its sections and date ("scale on 2026-11-25"), not ${JSON.stringify(note.slice(0, 40))}`,
		);
	const same = lines.findIndex((line) => line.startsWith(`${prefix}${sameRun}`));
	// Each note line is written after an empty one: both go.
	if (same > 0 && lines[same - 1] === '') lines.splice(same - 1, 2);
	// Each partial run keeps its line, the newest last: a section named in more than one is the newest's.
	let last = -1;
	lines.forEach((line, index) => {
		if (line.startsWith(prefix)) last = index;
	});
	if (last >= 0) {
		lines.splice(last + 1, 0, '', `${prefix}${note}`);
		return lines.join('\n');
	}
	const written = lines.findIndex((line) => line.startsWith('Written by `npm run bench`'));
	if (written < 0) throw new Error('the report has no "Written by `npm run bench`" line');
	// The opening paragraph ends at the first empty line after it.
	const paragraphEnd = lines.findIndex((line, index) => index > written && line.trim() === '');
	lines.splice(paragraphEnd < 0 ? lines.length : paragraphEnd, 0, '', `${prefix}${note}`);
	return lines.join('\n');
}

/** The `### ` parts of a section, each from its heading line to the next heading. */
function subsectionsOf(section: string): string[] {
	const starts: number[] = [];
	if (section.startsWith('### ')) starts.push(0);
	for (let at = section.indexOf('\n### '); at >= 0; at = section.indexOf('\n### ', at + 1))
		starts.push(at + 1);
	return starts.map((start, index) =>
		section.slice(start, starts[index + 1] ?? section.length).trimEnd(),
	);
}

/**
 * A section made of `intro` and `### ` parts: the parts of `section` (the one
 * in the report, if any) with each of `parts` in place of the one of the same
 * heading or added, ordered by `rank` of their headings. A run that measured
 * some parts keeps the others as their own run wrote them.
 */
export function putSubsections(
	section: string | undefined,
	intro: string,
	parts: string[],
	rank: (heading: string) => number,
): string {
	const byHeading = new Map<string, string>();
	for (const part of [...subsectionsOf(section ?? ''), ...parts.map((p) => p.trimEnd())])
		byHeading.set(part.split('\n', 1)[0], part);
	const ordered = [...byHeading.entries()].sort(([a], [b]) => rank(a) - rank(b));
	return `${[intro.trimEnd(), ...ordered.map(([, part]) => part)].join('\n\n')}\n`;
}
