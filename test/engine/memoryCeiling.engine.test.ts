/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-dangerous-functions -- n8n Cloud's limits are for nodes; this runs on Node itself (timers, process, built-in modules, child processes) */
import { execFile } from 'node:child_process';
import { resolve } from 'node:path';

import { PARSED_RECORD_OVERHEAD_BYTES } from '../../nodes/AppBuilder/actions/inquiry/getManyReader';
import {
	endlessInquiries,
	finiteInquiries,
	inquiryText,
	MEASURED_FORM,
	MEASURED_LINE,
} from '../support/inquiryAnswers';
import {
	startRecordingServer,
	type Answer,
	type RecordingServer,
} from '../support/recordingServer';
import { itInLongRuns } from '../support/testSize';

/**
 * One call of the package grows memory by under 500 MB, whatever the server
 * sends: each path that reads a form's inquiries, against an answer that
 * never ends and against the largest answer it accepts (its bound, read
 * from the error the endless answer ends with, less a little). Each call
 * is measured in a fresh process (test/support/memoryOfOneCall.ts), so
 * nothing else this suite does counts.
 */
const CEILING_BYTES = 500 * 1024 * 1024;
const MB = 1024 * 1024;
/** How long one measuring process may take: a bound on a hang (about 10 s each on a quiet 2-core machine, up to 3 minutes seen beside heavy work). */
const MEASURE_BOUND_MS = 10 * 60_000;
/** Each record the answers below carry is this long. */
const RECORD_BYTES = Buffer.byteLength(inquiryText(0));

interface Measured {
	peakAddedBytes: number;
	items: number;
	error?: string;
	logged: string[];
	/** Requests for the measured form. */
	requests: number;
}

type Body = () => Iterable<Buffer>;

/** The forms the server's app lists: MEASURED_FORM and three more. */
const LISTED_FORMS = [
	MEASURED_FORM,
	'formbuilder_1001_3',
	'formbuilder_1001_4',
	'formbuilder_1001_5',
];

/**
 * A server whose form MEASURED_FORM answers each request with the next of `answers` (the last from there on);
 * other forms have three records, or answer `others`; the app lists LISTED_FORMS.
 */
async function serverAnswering(answers: Body[], others?: Body): Promise<RecordingServer> {
	let measuredRequests = 0;
	return await startRecordingServer((request): Answer => {
		const { pageId, method } = JSON.parse(request.body) as { pageId?: string; method?: string };
		if (method === 'getAppFeatures' || request.url.includes('AppFeatures'))
			return {
				status: 200,
				body: {
					status: 'success',
					data: LISTED_FORMS.map((form) => ({ pageId: form, pageName: `Form ${form}` })),
				},
			};
		if (pageId !== MEASURED_FORM)
			return { status: 200, bytes: (others ?? (() => finiteInquiries(3)))() };
		const answer = answers[Math.min(measuredRequests++, answers.length - 1)];
		return { status: 200, bytes: answer() };
	});
}

async function measure(path: string, answers: Body[], others?: Body): Promise<Measured> {
	const server = await serverAnswering(answers, others);
	try {
		const script = resolve(__dirname, '../support/memoryOfOneCall.ts');
		const output = await new Promise<string>((done, fail) => {
			execFile(
				process.execPath,
				['--import', 'tsx', script, path, server.url],
				{ maxBuffer: 16 * MB, timeout: MEASURE_BOUND_MS },
				(error, stdout, stderr) => {
					if (error?.killed === true)
						fail(
							new Error(
								`the measuring process (${path}) did not end within ${MEASURE_BOUND_MS / 60_000} minutes`,
							),
						);
					else if (error) fail(new Error(`${error.message}\n${stderr}`));
					else done(stdout);
				},
			);
		});
		const line = output.split('\n').find((text) => text.startsWith(MEASURED_LINE));
		if (line === undefined) throw new Error(`no measurement in the output:\n${output}`);
		const requests = server.requests.filter((request) =>
			request.body.includes(MEASURED_FORM),
		).length;
		return {
			...(JSON.parse(line.slice(MEASURED_LINE.length)) as Omit<Measured, 'requests'>),
			requests,
		};
	} finally {
		await server.close();
	}
}

/** A number the error names, e.g. 64 in "larger than 64 MB". */
function boundIn(text: string | undefined, pattern: RegExp): number {
	const match = text === undefined ? null : pattern.exec(text);
	if (!match) throw new Error(`no bound in ${String(text)}`);
	return Number(match[1].replace(/,/g, ''));
}

/** How a read that reached the answer's bound ends. */
const ANSWER_BOUND_ERROR =
	"The App Builder API's answer is larger than 300 MB, so it was not read to the end";

const endless: Body = () => endlessInquiries();
/** An answer that ends in text after its list: read as it arrives, it is asked for again and read whole. */
const thenJunk: Body = () => finiteInquiries(2000, { after: 'x' });

describe('memory of one call: under 500 MB whatever the server sends', () => {
	// The three paths that hold the fewest records (a Limit's, one form's Limit, the latest) run in the long
	// size; the quick loop measures the answer's bound on the poll's path, which holds the most.
	describe('Get Many with a Limit', () => {
		itInLongRuns(
			"against an endless answer holds only what the Limit returns, until the answer's bound",
			async () => {
				const measured = await measure('getManyLimit', [endless]);
				expect(measured.error).toBe(ANSWER_BOUND_ERROR);
				expect(measured.peakAddedBytes).toBeLessThan(CEILING_BYTES);
			},
		);
	});

	describe('Get Many with Return All', () => {
		let bound: { inquiries: number; bytes: number };

		it('against an endless answer stops at its own bound, with an error that says what to do', async () => {
			const measured = await measure('getManyAll', [endless]);
			expect(measured.error).toMatch(
				/^The form has more inquiries than one Get Many can return \(more than [\d,]+ inquiries or \d+ MB of them\)/,
			);
			bound = {
				inquiries: boundIn(measured.error, /more than ([\d,]+) inquiries/),
				bytes: boundIn(measured.error, /or (\d+) MB of them/) * MB,
			};
			expect(measured.peakAddedBytes).toBeLessThan(CEILING_BYTES);
		});

		it('returns the largest answer it accepts', async () => {
			const count = Math.min(
				bound.inquiries,
				Math.floor(bound.bytes / (RECORD_BYTES + PARSED_RECORD_OVERHEAD_BYTES)),
			);
			const measured = await measure('getManyAll', [() => finiteInquiries(count)]);
			expect(measured.error).toBeUndefined();
			expect(measured.items).toBe(count);
			expect(measured.peakAddedBytes).toBeLessThan(CEILING_BYTES);
		});
	});

	describe('Get Many over every form of the app', () => {
		itInLongRuns(
			"with a Limit: a form whose answer never ends fails, named, at the answer's bound",
			async () => {
				const measured = await measure('getManyAllFormsLimit', [endless]);
				expect(measured.error).toBe(
					`Form "Form ${MEASURED_FORM}" (${MEASURED_FORM}) could not be read: ${ANSWER_BOUND_ERROR}`,
				);
				expect(measured.peakAddedBytes).toBeLessThan(CEILING_BYTES);
			},
		);

		it('with Return All, every form endless at once: the call stops at its own bound, across forms', async () => {
			const measured = await measure('getManyAllFormsAll', [endless], endless);
			expect(measured.error).toMatch(
				/^The app's forms have more inquiries than one Get Many can return \(more than [\d,]+ inquiries or \d+ MB of them\)/,
			);
			expect(measured.peakAddedBytes).toBeLessThan(CEILING_BYTES);
		});
	});

	describe('a trigger poll whose every inquiry is new', () => {
		it("against an endless answer fails at the answer's bound and logs it", async () => {
			const measured = await measure('poll', [endless]);
			expect(measured.error).toBeUndefined();
			expect(measured.logged).toEqual([
				expect.stringMatching(
					/could not read the inquiries.*The App Builder API's answer is larger than 300 MB/,
				),
			]);
			expect(measured.peakAddedBytes).toBeLessThan(CEILING_BYTES);
		});

		// The longest case (a 299 MB answer read twice): its first read holds what the endless answer's does, which the quick loop measures.
		itInLongRuns(
			'emits from the largest answer it accepts, reading again the records it emits when they are too many to hold',
			async () => {
				const count = Math.floor((299 * MB) / (RECORD_BYTES + 1));
				const measured = await measure('poll', [() => finiteInquiries(count)]);
				expect(measured.error).toBeUndefined();
				expect(measured.logged).toEqual([]);
				expect(measured.items).toBe(500);
				expect(measured.requests).toBe(2);
				expect(measured.peakAddedBytes).toBeLessThan(CEILING_BYTES);
			},
		);
	});

	describe('the ask-again path (an answer read whole after records were let go)', () => {
		let bound: number;

		it('against an endless second answer stops at the bound of an answer read whole', async () => {
			const measured = await measure('firstPoll', [thenJunk, endless]);
			expect(measured.requests).toBe(2);
			expect(measured.error).toMatch(
				/^The App Builder API's answer is larger than \d+ MB, so it was not read to the end$/,
			);
			bound = boundIn(measured.error, /larger than (\d+) MB/) * MB;
			expect(measured.peakAddedBytes).toBeLessThan(CEILING_BYTES);
		});

		it('reads the largest second answer it accepts', async () => {
			const count = Math.floor((bound - MB) / (RECORD_BYTES + 1));
			const measured = await measure('firstPoll', [thenJunk, () => finiteInquiries(count)]);
			expect(measured.requests).toBe(2);
			expect(measured.error).toBeUndefined();
			expect(measured.peakAddedBytes).toBeLessThan(CEILING_BYTES);
		});
	});

	describe('Fetch Test Event', () => {
		itInLongRuns(
			"against an endless answer holds only the latest inquiry, until the answer's bound",
			async () => {
				const measured = await measure('fetchTestEvent', [endless]);
				expect(measured.error).toBe(ANSWER_BOUND_ERROR);
				expect(measured.peakAddedBytes).toBeLessThan(CEILING_BYTES);
			},
		);
	});
});
