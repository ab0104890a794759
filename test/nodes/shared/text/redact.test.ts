/* eslint-disable @n8n/community-nodes/no-hardcoded-secrets -- its secrets are made up, to check that none leaks */
import fc from 'fast-check';

import { decodeHtmlEntities } from '../../../../nodes/shared/text/htmlText';
import { interpretResponse } from '../../../../nodes/AppBuilder/transport/interpretResponse';
import {
	apiMessageForUser,
	redactOrigin,
	redactSecrets,
	redactValue,
	valueRedactor,
} from '../../../../nodes/shared/text/redact';
import { caseCount } from '../../../support/testSize';
import { cpuMsOf } from '../../../support/cpuTime';

const NOW = Date.parse('2026-01-01T00:00:00Z');
const API_KEY = 'ak_live_7Hq2Zp9XwV';

/** Every character as a decimal or hexadecimal character reference, as some servers escape text for HTML. */
const asNumericEntities = (text: string, hex: boolean) =>
	[...text]
		.map((char) => (hex ? `&#x${char.codePointAt(0)!.toString(16)};` : `&#${char.codePointAt(0)};`))
		.join('');

describe('redactSecrets', () => {
	it('removes every occurrence of each secret', () => {
		expect(redactSecrets(`Invalid API Key ${API_KEY} (${API_KEY})`, [API_KEY])).toBe(
			'Invalid API Key [redacted] ([redacted])',
		);
	});

	it('removes a secret of any length, down to one character', () => {
		expect(redactSecrets('pin 123 accepted', ['123'])).toBe('pin [redacted] accepted');
		expect(redactSecrets('code 7 sent', ['7'])).toBe('code [redacted] sent');
	});

	it('removes a credential value sent trimmed but stored with surrounding spaces', () => {
		expect(redactSecrets(`Invalid API Key ${API_KEY}`, [`  ${API_KEY}\n`])).toBe(
			'Invalid API Key [redacted]',
		);
	});

	it('removes a secret the server wrote with HTML character references, decimal, hexadecimal or named', () => {
		const secret = 'API-KEY_1.2&3';
		for (const echoed of [
			'API&#45;KEY&#95;1&#46;2&amp;3',
			'API&#x2d;KEY&#X5F;1&period;2&#38;3',
			'API&#45KEY&lowbar;1.2&AMP;3',
			asNumericEntities(secret, false),
			asNumericEntities(secret, true),
			'API&amp;#45;KEY_1.2&amp;amp;3',
		]) {
			const redacted = redactSecrets(`Invalid key ${echoed}!`, [secret]);
			expect(redacted).toBe('Invalid key [redacted]!');
		}
	});

	it('leaves character references that are not part of a secret as they were', () => {
		expect(redactSecrets(`Tom &amp; Jerry &#45; key ${API_KEY}`, [API_KEY])).toBe(
			'Tom &amp; Jerry &#45; key [redacted]',
		);
	});

	it('removes a secret that decoding a character reference would swallow ("#" in "&#0")', () => {
		expect(redactSecrets('key &#0 here', ['#'])).toBe('key &[redacted]0 here');
		expect(redactSecrets('a &#35; b', ['#'])).toBe('a [redacted] b');
		expect(redactValue({ '&#0': 0 }, ['#'])).toEqual({ '&[redacted]0': 0 });
	});

	it('reads names of Object.prototype as unknown character references, not as characters', () => {
		expect(decodeHtmlEntities('&constructor; &toString; &hasOwnProperty; &amp;')).toBe(
			'&constructor; &toString; &hasOwnProperty; &',
		);
		expect(redactSecrets(`&constructor; ${API_KEY}`, [API_KEY])).toBe('&constructor; [redacted]');
	});

	it('removes a secret the server wrote JSON-escaped or URL-encoded', () => {
		const secret = 'p/w"d\\+ é!';
		const echoed = [
			'p/w\\"d\\\\+ é!',
			'p\\/w\\"d\\\\+ \\u00e9!',
			'p\\/w\\"d\\\\+ \\u00E9!',
			'p%2Fw%22d%5C%2B%20%C3%A9!',
			'p%2fw%22d%5c%2b%20%c3%a9!',
			'p%2Fw%22d%5C%2B+%C3%A9%21',
		];
		for (const text of echoed)
			expect(redactSecrets(`got ${text} here`, [secret])).toBe('got [redacted] here');
	});

	it('removes overlapping secrets together, leaving no part of either', () => {
		expect(redactSecrets('x abcdefxyz y', ['abcdef', 'defxyz'])).toBe('x [redacted] y');
		expect(redactSecrets('x abcdef y', ['abc', 'abcdef'])).toBe('x [redacted] y');
	});

	it('ignores values that are not text or hold only spaces', () => {
		expect(redactSecrets('a b 1', [undefined, null, 1, '', '  '])).toBe('a b 1');
	});

	it('writes another marker when a secret could be read across "[redacted]"', () => {
		for (const secret of ['d', '[r', 'ed]x', '[redacted]']) {
			const redacted = redactSecrets(`<${secret}>`, [secret]);
			expect(redacted).not.toContain(secret);
			expect(redacted).toMatch(/^<.+>$/);
		}
	});

	it('reads reference-like and secret-like runs in time linear in their length (4x the text, not 16x the time)', () => {
		const texts = (n: number) => [
			'&'.repeat(n),
			'&#'.repeat(n / 2),
			`&${'a'.repeat(n)}`,
			`&#${'9'.repeat(n)}`,
			'&a'.repeat(n / 2),
			'a'.repeat(n),
		];
		// The median of five runs of each size, in processor time: a ratio of times in one process, so a loaded machine does not decide it.
		const timeOf = (n: number) => {
			const runs: number[] = [];
			for (let run = 0; run < 5; run++) {
				runs.push(
					cpuMsOf(() => {
						for (const text of texts(n))
							expect(redactSecrets(text, ['aaaa', 'a', API_KEY])).not.toMatch(/a{4}/);
					}),
				);
			}
			return runs.sort((a, b) => a - b)[2];
		};
		timeOf(10_000);
		const small = timeOf(50_000);
		const large = timeOf(200_000);
		// Linear: about 4x; a quadratic reading would be about 16x.
		expect(large / Math.max(small, 0.5)).toBeLessThan(10);
	});

	it('property: the result holds no secret, raw or trimmed, in any form it was embedded in', () => {
		const secretArb = fc
			.string({ unit: 'grapheme', minLength: 1, maxLength: 12 })
			.filter((secret) => secret.trim() !== '');
		const spaced = (secret: string) => fc.constantFrom(secret, ` ${secret} `, `\t${secret}`);
		const embedded = (secret: string) =>
			fc.constantFrom(
				secret,
				secret.trim(),
				asNumericEntities(secret.trim(), false),
				asNumericEntities(secret.trim(), true),
				secret
					.trim()
					.replace(/&/g, '&amp;')
					.replace(/</g, '&lt;')
					.replace(/>/g, '&gt;')
					.replace(/"/g, '&quot;')
					.replace(/'/g, '&#039;'),
				JSON.stringify(secret.trim()).slice(1, -1),
				safeEncode(secret.trim()),
			);
		fc.assert(
			fc.property(
				fc.array(secretArb, { minLength: 1, maxLength: 3 }).chain((secrets) =>
					fc.tuple(
						fc.tuple(...secrets.map(spaced)),
						fc.array(fc.tuple(fc.string({ maxLength: 8 }), fc.oneof(...secrets.map(embedded))), {
							maxLength: 4,
						}),
						fc.string({ maxLength: 8 }),
					),
				),
				([secrets, pieces, tail]) => {
					const text = pieces.map(([before, secret]) => before + secret).join('') + tail;
					const redacted = redactSecrets(text, secrets);
					for (const secret of secrets) {
						for (const form of [secret, secret.trim()]) {
							expect(redacted).not.toContain(form);
							expect(decodeHtmlEntities(redacted)).not.toContain(form);
						}
					}
				},
			),
			{ numRuns: caseCount('REDACT', 2000, 20_000) },
		);
	});
});

describe('apiMessageForUser', () => {
	it('shows no part of a secret that the 300-character cut would split', () => {
		const message = `${'x'.repeat(290)} key ${API_KEY} was refused`;
		const outcome = interpretResponse(
			{ statusCode: 200, body: { successCode: '2036', message } },
			NOW,
		);
		expect(outcome.ok).toBe(false);
		if (outcome.ok) return;
		const shown = apiMessageForUser(outcome.apiMessage ?? '', [API_KEY]);
		expect(shown).not.toContain(API_KEY.slice(0, 4));
		expect(shown.length).toBeLessThanOrEqual(301);
		expect(shown.endsWith('…')).toBe(true);
	});

	it('keeps a short message whole, and redacts it', () => {
		expect(apiMessageForUser(`Invalid API Key ${API_KEY}`, [API_KEY])).toBe(
			'Invalid API Key [redacted]',
		);
	});

	it('never cuts a character written with two UTF-16 units in half', () => {
		const shown = apiMessageForUser(`${'x'.repeat(299)}🙂 and more`, []);
		expect(shown).toBe(`${'x'.repeat(299)}…`);
	});
});

describe('redactValue', () => {
	it('redacts an API key echoed anywhere in a success answer, keys included, and leaves the rest as it was', () => {
		const body = {
			successCode: '200',
			message: `User added with key ${API_KEY}`,
			data: {
				apiKey: API_KEY,
				tags: ['a', `k=${API_KEY}`],
				count: 2,
				ok: true,
				none: null,
				[API_KEY]: 'x',
			},
			note: 'Tom &amp; Jerry',
		};
		const before = structuredClone(body);
		const redacted = redactValue(body, [API_KEY]);
		expect(body).toEqual(before);
		expect(JSON.stringify(redacted)).not.toContain(API_KEY);
		expect(redacted).toEqual({
			successCode: '200',
			message: 'User added with key [redacted]',
			data: {
				apiKey: '[redacted]',
				tags: ['a', 'k=[redacted]'],
				count: 2,
				ok: true,
				none: null,
				'[redacted]': 'x',
			},
			note: 'Tom &amp; Jerry',
		});
	});

	it('keeps both members when two keys redact to the same text, and keeps "__proto__" a plain key', () => {
		const body = JSON.parse(
			`{"${API_KEY}": 1, "[redacted]": 2, "__proto__": {"polluted": "${API_KEY}"}}`,
		) as object;
		const redacted = redactValue(body, [API_KEY]) as Record<string, unknown>;
		expect(Object.values(redacted).slice(0, 2).sort()).toEqual([1, 2]);
		expect(Object.getPrototypeOf(redacted)).toBe(Object.prototype);
		expect(Object.getOwnPropertyDescriptor(redacted, '__proto__')?.value).toEqual({
			polluted: '[redacted]',
		});
		expect(({} as Record<string, unknown>).polluted).toBeUndefined();
	});

	it('redacts a value nested 100,000 levels deep without running out of stack', () => {
		let value: unknown = { secret: API_KEY };
		for (let level = 0; level < 100_000; level++) value = level % 2 ? [value] : { next: value };
		let redacted = redactValue(value, [API_KEY]);
		for (let level = 100_000 - 1; level >= 0; level--) {
			redacted = level % 2 ? (redacted as unknown[])[0] : (redacted as { next: unknown }).next;
		}
		expect(redacted).toEqual({ secret: '[redacted]' });
	});

	it('property: the result has the shape of the input, no text in it holds the secret, and the input is unchanged', () => {
		fc.assert(
			fc.property(fc.jsonValue(), fc.string({ minLength: 1, maxLength: 6 }), (value, secret) => {
				const before = JSON.stringify(value);
				const redacted = redactValue(value, [secret]);
				expect(JSON.stringify(value)).toBe(before);
				expectSameShape(redacted, value, secret.trim());
			}),
			{ numRuns: caseCount('REDACT', 500, 5000) },
		);
	});
});

/** Same lists, same number of members, same non-text values; text and keys free of `secret`. */
function expectSameShape(redacted: unknown, original: unknown, secret: string): void {
	if (typeof original === 'string') {
		expect(typeof redacted).toBe('string');
		if (secret !== '') expect(redacted).not.toContain(secret);
		return;
	}
	if (Array.isArray(original)) {
		expect(Array.isArray(redacted)).toBe(true);
		expect((redacted as unknown[]).length).toBe(original.length);
		original.forEach((item, index) =>
			expectSameShape((redacted as unknown[])[index], item, secret),
		);
		return;
	}
	if (typeof original === 'object' && original !== null) {
		expect(Object.keys(redacted as object).length).toBe(Object.keys(original).length);
		for (const [key, member] of Object.entries(redacted as object)) {
			if (secret !== '') expect(key).not.toContain(secret);
			// A key the secret was cut out of has no counterpart to compare with; its text is still checked.
			const counterpart = Object.prototype.hasOwnProperty.call(original, key)
				? (original as Record<string, unknown>)[key]
				: member;
			expectSameShape(member, counterpart, secret);
		}
		return;
	}
	expect(redacted).toBe(original);
}

function safeEncode(text: string): string {
	try {
		return encodeURIComponent(text);
	} catch {
		return text;
	}
}

describe('redactSecrets', () => {
	it('removes every occurrence of each secret, short ones included', () => {
		expect(redactSecrets('Invalid API Key abc12345 (abc12345) x', ['abc12345', 'x'])).toBe(
			'Invalid API Key [redacted] ([redacted]) [redacted]',
		);
	});
});

describe('redactOrigin', () => {
	it('finds a secret in a host that URL parsing wrote in lower case', () => {
		const origin = new URL('https://AbC123Tok.evil.example:8443/x').origin;
		expect(origin).toBe('https://abc123tok.evil.example:8443');
		expect(redactSecrets(origin, ['AbC123Tok'])).toBe(origin);
		expect(redactOrigin(origin, ['AbC123Tok'])).toBe('https://[redacted].evil.example:8443');
		expect(redactOrigin(`a redirect (HTTP 302) to ${origin}`, ['AbC123Tok', 5])).toBe(
			'a redirect (HTTP 302) to https://[redacted].evil.example:8443',
		);
	});
});

describe('valueRedactor', () => {
	it('redacts many values with the secrets read once, as redactValue does each', () => {
		const redact = valueRedactor(['k3y']);
		const values = [{ a: 'k3y' }, 'x k3y', ['k3y', 1], 7];
		expect(values.map((value) => redact(value))).toEqual(
			values.map((value) => redactValue(value, ['k3y'])),
		);
		expect(redact({ a: 'k3y' })).toEqual({ a: '[redacted]' });
	});

	it('returns a value as it is when there is no secret to look for', () => {
		const value = { a: 'b' };
		expect(valueRedactor(['', '  ', undefined])(value)).toBe(value);
	});
});
