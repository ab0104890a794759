/**
 * A small line chart as SVG text, for the benchmark report. Both axes are
 * log-scaled: sizes and times span decades, and on a log scale the distance
 * between two lines reads as their ratio.
 */
export function lineChart(options: {
	title: string;
	xLabel: string;
	yLabel: string;
	/** The x of each value, for every series that does not give its own. */
	xs: number[];
	series: Array<{ name: string; values: number[]; xs?: number[] }>;
}): string {
	const width = 640;
	const height = 360;
	const margin = { left: 70, right: 20, top: 40, bottom: 60 };
	const plotWidth = width - margin.left - margin.right;
	const plotHeight = height - margin.top - margin.bottom;
	const xsOf = (serie: { xs?: number[] }) => serie.xs ?? options.xs;
	// Every x a series uses gets a tick; a series may leave out some (a K measured for one workflow only).
	const allXs = [
		...new Set([...options.xs, ...options.series.flatMap((serie) => serie.xs ?? [])]),
	].sort((a, b) => a - b);
	const logXs = allXs.map((x) => Math.log10(x));
	const minX = Math.min(...logXs);
	const maxX = Math.max(...logXs);
	const values = options.series.flatMap((s) => s.values).filter((value) => value > 0);
	// Whole decades around the values, so each gridline is a power of ten.
	const minLogY = values.length > 0 ? Math.floor(Math.log10(Math.min(...values))) : 0;
	const maxLogY =
		values.length > 0 ? Math.max(minLogY + 1, Math.ceil(Math.log10(Math.max(...values)))) : 1;
	const px = (logX: number) =>
		margin.left + (maxX === minX ? plotWidth / 2 : ((logX - minX) / (maxX - minX)) * plotWidth);
	const py = (y: number) =>
		margin.top + plotHeight - ((Math.log10(y) - minLogY) / (maxLogY - minLogY)) * plotHeight;
	const colors = ['#e8590c', '#1c7ed6', '#2f9e44', '#9c36b5', '#f08c00', '#495057'];

	const lines = options.series
		.map((serie, index) => {
			const color = colors[index % colors.length];
			const xOf = (i: number) => px(Math.log10(xsOf(serie)[i]));
			const points = serie.values
				.map((value, i) => `${xOf(i).toFixed(1)},${py(value).toFixed(1)}`)
				.join(' ');
			const dots = serie.values
				.map(
					(value, i) =>
						`<circle cx="${xOf(i).toFixed(1)}" cy="${py(value).toFixed(1)}" r="3.5" fill="${color}"/>`,
				)
				.join('');
			const legendY = margin.top + 16 * index;
			return `<polyline fill="none" stroke="${color}" stroke-width="2" points="${points}"/>${dots}<rect x="${margin.left + 10}" y="${legendY - 9}" width="12" height="3" fill="${color}"/><text x="${margin.left + 28}" y="${legendY - 4}" font-size="12">${escape(serie.name)}</text>`;
		})
		.join('');
	const xTicks = allXs
		.map(
			(x, i) =>
				`<text x="${px(logXs[i]).toFixed(1)}" y="${height - margin.bottom + 18}" font-size="11" text-anchor="middle">${x.toLocaleString('en')}</text>`,
		)
		.join('');
	const yTicks = Array.from({ length: maxLogY - minLogY + 1 }, (_, k) => 10 ** (minLogY + k))
		.map(
			(y) =>
				`<text x="${margin.left - 8}" y="${py(y) + 4}" font-size="11" text-anchor="end">${y.toLocaleString('en')}</text><line x1="${margin.left}" x2="${width - margin.right}" y1="${py(y)}" y2="${py(y)}" stroke="#eee"/>`,
		)
		.join('');
	return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="sans-serif">
<rect width="100%" height="100%" fill="#fff"/>
<text x="${width / 2}" y="22" font-size="15" text-anchor="middle">${escape(options.title)}</text>
${yTicks}${xTicks}
<line x1="${margin.left}" x2="${margin.left}" y1="${margin.top}" y2="${margin.top + plotHeight}" stroke="#333"/>
<line x1="${margin.left}" x2="${width - margin.right}" y1="${margin.top + plotHeight}" y2="${margin.top + plotHeight}" stroke="#333"/>
<text x="${width / 2}" y="${height - 15}" font-size="12" text-anchor="middle">${escape(options.xLabel)}</text>
<text x="16" y="${height / 2}" font-size="12" text-anchor="middle" transform="rotate(-90 16 ${height / 2})">${escape(options.yLabel)}</text>
${lines}
</svg>
`;
}

function escape(text: string): string {
	return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}
