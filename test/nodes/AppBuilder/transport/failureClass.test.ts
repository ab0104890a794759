import type { CallFailure } from '../../../../nodes/AppBuilder/transport/callFailure';
import { classifyFailure } from '../../../../nodes/AppBuilder/transport/failureClass';
import { interpretResponse } from '../../../../nodes/AppBuilder/transport/interpretResponse';
import {
	apiFailureCases,
	CATALOGUE_CODES,
	ERROR_STATUSES,
	PROMISED_BY_CODE,
	type Promised,
} from '../../../support/failureCases';
import type { Answer } from '../../../support/recordingServer';

/**
 * The one classification of a failed call against what the package promises: every code of the
 * catalogue, every HTTP error status, a 503 or a 429 naming another code, an answer that is not
 * JSON, and every failure that is no answer. The same answers go through a real call in
 * test/engine/failureClass.engine.test.ts, where the retry, the cause and the words must follow it.
 */
describe("a failed call's class", () => {
	const NOW = Date.parse('2026-01-01T00:00:00Z');
	const asReceived = (answer: Answer) => ({
		statusCode: answer.status,
		headers: answer.headers,
		body: answer.bytes
			? Buffer.concat([...answer.bytes])
			: answer.body === undefined
				? undefined
				: JSON.stringify(answer.body),
	});
	const classOf = (promised: Promised) => ({
		retry: promised.retry,
		cause: promised.cause,
		words: promised.words === 'not-json' ? 'not-json' : promised.words.message,
	});

	it('has a promise for every code of the catalogue', () => {
		expect(CATALOGUE_CODES.filter((code) => PROMISED_BY_CODE[code] === undefined)).toEqual([]);
	});

	it.each(apiFailureCases(ERROR_STATUSES).map((entry) => [entry.name, entry] as const))(
		'%s',
		(_name, { answer, promised }) => {
			const failure = interpretResponse(asReceived(answer), NOW);
			if (failure.ok) throw new Error('the answer was taken as a success');
			const failureClass = classifyFailure(failure);
			expect({
				retry: failureClass.retry,
				cause: failureClass.cause?.cause,
				words:
					failureClass.words.kind === 'not-json' ? 'not-json' : failureClass.words.meaning.message,
			}).toEqual(classOf(promised));
		},
	);

	it('a rate limit carries the wait the API asked for, and no wait when it asked none', () => {
		const limited = interpretResponse(
			{ statusCode: 429, headers: { 'retry-after': '30' }, body: '' },
			NOW,
		);
		if (limited.ok) throw new Error('the answer was taken as a success');
		expect(classifyFailure(limited).cause).toEqual({
			cause: 'rate-limited',
			retryAfterMs: 30_000,
		});
		const unsaid = interpretResponse({ statusCode: 429, body: '' }, NOW);
		if (unsaid.ok) throw new Error('the answer was taken as a success');
		expect(classifyFailure(unsaid).cause).toEqual({ cause: 'rate-limited' });
	});

	it.each<[string, CallFailure, Pick<Promised, 'retry' | 'cause'>]>([
		[
			'a dropped connection',
			{ ok: false, kind: 'network', errorCode: 'ECONNRESET' },
			{ retry: 'again', cause: 'temporarily-unavailable' },
		],
		[
			'a host name not found',
			{ ok: false, kind: 'network', errorCode: 'ENOTFOUND' },
			{ retry: 'stop', cause: 'temporarily-unavailable' },
		],
		[
			'an answer past its time',
			{ ok: false, kind: 'limit', limit: 'time', bound: 120 },
			{ retry: 'stop', cause: 'temporarily-unavailable' },
		],
		[
			'an answer past its size',
			{ ok: false, kind: 'limit', limit: 'bytes', bound: 1 },
			{ retry: 'stop', cause: 'configuration-invalid' },
		],
		[
			'an answer past its number of records',
			{ ok: false, kind: 'limit', limit: 'records', bound: 1 },
			{ retry: 'stop', cause: 'configuration-invalid' },
		],
		[
			'a redirect',
			{ ok: false, kind: 'redirect', httpStatus: 302, target: 'https://elsewhere.example' },
			{ retry: 'stop', cause: 'configuration-invalid' },
		],
		[
			'a compressed answer that cannot be decoded',
			{ ok: false, kind: 'undecodable' },
			{ retry: 'stop', cause: 'temporarily-unavailable' },
		],
		[
			'anything else',
			{ ok: false, kind: 'other', message: 'self-signed certificate' },
			{ retry: 'stop', cause: undefined },
		],
	])('%s', (_name, failure, promised) => {
		const { retry, cause, words } = classifyFailure(failure);
		expect({ retry, cause: cause?.cause, words }).toEqual({ ...promised, words: undefined });
	});
});
