import {
	formStart,
	MAX_GONE_FORMS,
	nextPosition,
	positionFromSingleForm,
	positionProblem,
	SAVED_POSITION_VERSION,
	stoppedAt,
	type FormCursor,
	type TriggerPosition,
} from '../../../../nodes/AppBuilder/trigger/triggerPosition';

describe("the trigger's saved position over its forms", () => {
	const cursor = (newest: number, keys: string[] = ['k']): FormCursor => ({
		floor: { time: newest - 1000, key: '' },
		seen: Object.fromEntries([...keys.map((key) => [key, newest]), ['older', newest - 10]]),
		undated: '',
	});
	const SCOPE = 'app_1/new';

	it('keeps the cursors of forms that failed or were not reached, and takes the new ones of forms read', () => {
		const previous: TriggerPosition = { scope: SCOPE, forms: { a: cursor(1), b: cursor(2), c: cursor(3) } };
		const next = nextPosition(previous, SCOPE, { listed: ['a', 'b', 'c'], read: new Map([['a', cursor(10)]]), leftOver: ['c'] }, { allForms: false, nowMs: 0 });
		expect(next).toEqual({ scope: SCOPE, forms: { a: cursor(10), b: cursor(2), c: cursor(3) } });
	});

	it('starts over for another app or event', () => {
		const previous: TriggerPosition = { scope: 'other/new', forms: { a: cursor(1) } };
		expect(nextPosition(previous, SCOPE, { listed: ['a'], read: new Map(), leftOver: [] }, { allForms: false, nowMs: 0 }).forms).toEqual({});
	});

	it('watching an app: remembers when it began, the forms left over, and where a removed form stopped', () => {
		const first = nextPosition(undefined, SCOPE, { listed: ['a', 'b'], read: new Map([['a', cursor(5)], ['b', cursor(7, ['x', 'y'])]]), leftOver: [] }, { allForms: true, nowMs: 100 });
		expect(first.app).toEqual({ since: 100, leftOver: [], gone: {} });
		const second = nextPosition(first, SCOPE, { listed: ['a', 'c'], read: new Map(), leftOver: ['c'] }, { allForms: true, nowMs: 999 });
		expect(second.forms).toEqual({ a: cursor(5) });
		expect(second.app).toEqual({ since: 100, leftOver: ['c'], gone: { b: { time: 7, keys: ['x', 'y'] } } });
		// Back in the list: it starts where it stopped; a new form starts when the app's watch began.
		expect(formStart(second, 'b')).toEqual({ kind: 'since', time: 7, keysAtTime: ['x', 'y'] });
		expect(formStart(second, 'c')).toEqual({ kind: 'since', time: 100, keysAtTime: [] });
		const third = nextPosition(second, SCOPE, { listed: ['a', 'b', 'c'], read: new Map([['b', cursor(8)]]), leftOver: [] }, { allForms: true, nowMs: 0 });
		expect(third.app?.gone).toEqual({});
	});

	it('watching an app: a removed form back in the list keeps where it stopped until a poll reads it', () => {
		const watching: TriggerPosition = { scope: SCOPE, forms: { a: cursor(5), b: cursor(7, ['x']) }, app: { since: 100, leftOver: [], gone: {} } };
		const removed = nextPosition(watching, SCOPE, { listed: ['a'], read: new Map(), leftOver: [] }, { allForms: true, nowMs: 0 });
		// Listed again, but the poll failed on it or did not reach it.
		const backUnread = nextPosition(removed, SCOPE, { listed: ['a', 'b'], read: new Map(), leftOver: ['b'] }, { allForms: true, nowMs: 0 });
		expect(backUnread.app?.gone).toEqual({ b: { time: 7, keys: ['x'] } });
		expect(formStart(backUnread, 'b')).toEqual({ kind: 'since', time: 7, keysAtTime: ['x'] });
		const backRead = nextPosition(backUnread, SCOPE, { listed: ['a', 'b'], read: new Map([['b', cursor(9)]]), leftOver: [] }, { allForms: true, nowMs: 0 });
		expect(backRead.app?.gone).toEqual({});
		expect(backRead.forms.b).toEqual(cursor(9));
	});

	it('one form watched: a form read for the first time starts as On First Poll says', () => {
		expect(formStart(undefined, 'a')).toEqual({ kind: 'first-poll' });
		expect(formStart({ scope: SCOPE, forms: {} }, 'a')).toEqual({ kind: 'first-poll' });
	});

	it('keeps where at most MAX_GONE_FORMS removed forms stopped, the most recent', () => {
		const forms = Object.fromEntries(Array.from({ length: MAX_GONE_FORMS + 5 }, (_, index) => [`f${index}`, cursor(index)]));
		const watching: TriggerPosition = { scope: SCOPE, forms, app: { since: 0, leftOver: [], gone: {} } };
		const next = nextPosition(watching, SCOPE, { listed: [], read: new Map(), leftOver: [] }, { allForms: true, nowMs: 0 });
		const gone = Object.keys(next.app?.gone ?? {});
		expect(gone).toHaveLength(MAX_GONE_FORMS);
		expect(gone).not.toContain('f0');
		expect(gone).toContain(`f${MAX_GONE_FORMS + 4}`);
	});

	it('where a form stopped: its newest time and the keys at it, or its floor when it emitted nothing', () => {
		expect(stoppedAt(cursor(50, ['p', 'q']))).toEqual({ time: 50, keys: ['p', 'q'] });
		expect(stoppedAt({ floor: { time: 9, key: '' }, seen: {}, undated: '' })).toEqual({ time: 9, keys: [] });
	});

	it('carries a position saved as one form\'s cursor (v2) over as that form of the app', () => {
		const v2 = { v: 2, scope: 'app/with/slash/formbuilder_1_2/newOrUpdated', floor: { time: 1, key: 'b' }, seen: { a: 2 }, undated: '' };
		expect(positionFromSingleForm(v2)).toEqual({ scope: 'app/with/slash/newOrUpdated', forms: { formbuilder_1_2: { floor: { time: 1, key: 'b' }, seen: { a: 2 }, undated: '' } } });
		expect(() => positionFromSingleForm({ v: 1, scope: 'nonsense' })).toThrow(/scope/);
	});

	it('names what is wrong with a damaged position', () => {
		const good = { v: SAVED_POSITION_VERSION, scope: SCOPE, forms: { a: cursor(1) }, app: { since: 1, leftOver: [], gone: { b: { time: 1, keys: [] } } } };
		expect(positionProblem(good)).toBeUndefined();
		expect(positionProblem({ ...good, forms: [] })).toMatch(/forms/);
		expect(positionProblem({ ...good, forms: { a: { floor: 'x', seen: {}, undated: '' } } })).toMatch(/form a.*floor/);
		expect(positionProblem({ ...good, app: { ...good.app, since: 'x' } })).toMatch(/app.since/);
		expect(positionProblem({ ...good, app: { ...good.app, gone: { b: { time: 1, keys: [3] } } } })).toMatch(/app.gone/);
		expect(positionProblem({ ...good, app: { ...good.app, leftOver: [1] } })).toMatch(/leftOver/);
	});
});
