/**
 * Reads n8n's /metrics (Prometheus text format): each sample's name,
 * labels and value. Only what the benchmark needs: no escapes beyond \" and
 * \\ in label values, no timestamps kept.
 */
export interface MetricSample {
	name: string;
	labels: Record<string, string>;
	value: number;
}

export function parseMetrics(text: string): MetricSample[] {
	const samples: MetricSample[] = [];
	for (const raw of text.split('\n')) {
		const line = raw.trim();
		if (line === '' || line.startsWith('#')) continue;
		const brace = line.indexOf('{');
		const space = line.indexOf(' ');
		let name: string;
		let labels: Record<string, string> = {};
		let rest: string;
		if (brace >= 0 && (space < 0 || brace < space)) {
			name = line.slice(0, brace);
			const close = closingBrace(line, brace);
			if (close < 0) continue;
			labels = parseLabels(line.slice(brace + 1, close));
			rest = line.slice(close + 1).trim();
		} else {
			if (space < 0) continue;
			name = line.slice(0, space);
			rest = line.slice(space + 1).trim();
		}
		const value = Number(rest.split(' ')[0]);
		if (Number.isNaN(value) && rest.split(' ')[0] !== 'NaN') continue;
		samples.push({ name, labels, value });
	}
	return samples;
}

/** The closing brace of a label set, skipping braces inside quoted values. */
function closingBrace(line: string, open: number): number {
	let quoted = false;
	for (let i = open + 1; i < line.length; i++) {
		const char = line[i];
		if (quoted && char === '\\') i++;
		else if (char === '"') quoted = !quoted;
		else if (!quoted && char === '}') return i;
	}
	return -1;
}

function parseLabels(text: string): Record<string, string> {
	const labels: Record<string, string> = {};
	let i = 0;
	while (i < text.length) {
		const equals = text.indexOf('=', i);
		if (equals < 0 || text[equals + 1] !== '"') break;
		const key = text.slice(i, equals).trim().replace(/^,/, '').trim();
		let value = '';
		let j = equals + 2;
		for (; j < text.length && text[j] !== '"'; j++) {
			if (text[j] === '\\' && j + 1 < text.length) {
				j++;
				value += text[j] === 'n' ? '\n' : text[j];
			} else {
				value += text[j];
			}
		}
		labels[key] = value;
		i = j + 1;
		while (i < text.length && (text[i] === ',' || text[i] === ' ')) i++;
	}
	return labels;
}

/** The sum of every sample of `name` whose labels include `where`. */
export function metricSum(
	samples: readonly MetricSample[],
	name: string,
	where: Record<string, string> = {},
): number {
	return samples
		.filter(
			(sample) =>
				sample.name === name &&
				Object.entries(where).every(([key, value]) => sample.labels[key] === value),
		)
		.reduce((sum, sample) => sum + sample.value, 0);
}
