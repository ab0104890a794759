/* eslint-disable @n8n/community-nodes/no-restricted-globals, no-console -- n8n Cloud's limits are for nodes; this runs on Node itself (process timers); it prints its figures */
/**
 * "Flattening": flattening inquiries into items against `JSON.parse` of the
 * same records, both warm: medians of rounds after a warm-up round.
 */
import { flattenInquiry } from '../../nodes/AppBuilder/inquiries/flatten';
import { median } from '../lib/median';

/** Records flattened: the first of the largest form's answer. */
export const FLATTENED_RECORDS = 10_000;
const FLATTEN_ROUNDS = 9;

export interface Flattening {
	records: number;
	perSecond: number;
	ratioToParse: number;
}

const now = () => Number(process.hrtime.bigint()) / 1e6;

export function flattenThroughput(records: unknown[]): Flattening {
	const texts = records.map((record) => JSON.stringify(record));
	const parseMs: number[] = [];
	const flattenMs: number[] = [];
	for (let round = 0; round <= FLATTEN_ROUNDS; round++) {
		let start = now();
		const parsed = texts.map((text) => JSON.parse(text) as unknown);
		const parsing = now() - start;
		start = now();
		for (const record of parsed) flattenInquiry(record);
		const flattening = now() - start;
		if (round === 0) continue;
		parseMs.push(parsing);
		flattenMs.push(flattening);
	}
	const perSecond = records.length / (median(flattenMs) / 1000);
	const ratioToParse = median(flattenMs) / median(parseMs);
	console.log(
		`flatten ${records.length} records: ${Math.round(perSecond)} records/s, ${ratioToParse.toFixed(2)}x JSON.parse of the same records (medians of ${FLATTEN_ROUNDS} rounds after a warm-up)`,
	);
	return { records: records.length, perSecond, ratioToParse };
}

export function flatteningSection(flatten: Flattening): string {
	return `## Flattening

${Math.round(flatten.perSecond).toLocaleString('en')} records per second, **${flatten.ratioToParse.toFixed(2)}x** the time of \`JSON.parse\` of the same records (medians of ${FLATTEN_ROUNDS} rounds over ${flatten.records.toLocaleString('en')} records, after a warm-up round).
`;
}
