import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import { SAVED_POSITION_VERSION } from '../../nodes/AppBuilder/trigger/saved/position';
import {
	DEFAULT_CELLS_PER_SUBTABLE,
	keyHash,
	tableOf,
} from '../../nodes/AppBuilder/trigger/cursor/keySetTable';
import { FIXTURE } from '../emulator';
import { triggerParameters } from '../support/appBuilderRuns';
import { pollOnce } from '../support/triggerWorkflow';
import { useEmulator } from '../support/useEmulator';
import { submitLead } from '../support/submitLead';
import { useFrozenClock } from '../support/frozenClock';
import { HOUR } from '../support/durations';

/**
 * A first poll set to Send the Latest Leads, through n8n-core's PollContext over
 * real HTTP against the emulator: the trigger keeps only the newest records
 * as the answer streams past, and must still emit exactly the newest N, in
 * the cursor's order (time, then key), with the record the cursor reads for
 * a key listed twice, and leave the same saved state.
 */
describe('App Builder Trigger, Send the Latest Leads first poll, in the n8n engine', () => {
	const emu = useEmulator();

	const T0 = Date.parse('2026-05-01T08:00:00Z');
	// The trigger's first poll runs an hour after T0: every lead of the form is there before it.
	useFrozenClock(T0 + HOUR);

	/** One listing; ids are plain text, so the key order is the ids' order. */
	const submit = (id: string, name: string, addedon: number) =>
		submitLead(emu(), { id, name, addedon });

	/** A listing with no time at all. */
	const submitUndated = (id: string) =>
		emu().control.addRawInquiry({
			appId: FIXTURE.appId,
			pageId: FIXTURE.formPageId,
			json: JSON.stringify({ _id: id, subject: 'No time' }),
		});

	const names = (result: INodeExecutionData[][] | null) =>
		result ? result[0].map((item) => item.json.name) : [];

	const pollFirst = async (count: number, staticData: IDataObject = {}) => {
		const outcome = await pollOnce(
			emu(),
			triggerParameters({ options: { firstPoll: 'latest', firstPollCount: count } }),
			{ staticData },
		);
		if (outcome.error) throw outcome.error;
		return outcome;
	};

	/**
	 * Listed unsorted, as the API does: four leads tied at T0+5 s (the
	 * boundary of the newest 3 falls inside them), one newer, older ones, a
	 * key listed twice at its latest time (the last listing is the one read),
	 * a key listed again with an older time, and an undated lead.
	 */
	const fillForm = () => {
		submit('lead-b', 'B', T0 + 5000);
		submit('lead-old-1', 'Old 1', T0);
		submit('lead-d', 'D first', T0 + 5000);
		submit('lead-z', 'Z', T0 + 9000);
		submit('lead-a', 'A', T0 + 5000);
		submitUndated('lead-undated');
		submit('lead-d', 'D second', T0 + 5000);
		submit('lead-c', 'C', T0 + 5000);
		submit('lead-old-2', 'Old 2', T0 + 1000);
		submit('lead-c', 'C stale', T0 + 2000);
	};

	it('emits exactly the newest N, oldest first, ties at the boundary by key, and the last listing of a key at its latest time', async () => {
		fillForm();
		const outcome = await pollFirst(3);
		expect(names(outcome.result)).toEqual(['C', 'D second', 'Z']);
		// Everything present is taken as handled: the dated ones by time, the undated one in the table of
		// undated keys. The watch reaches back to the oldest lead sent: the floor stands before it.
		expect(outcome.staticData.inquiryCursor).toEqual({
			v: SAVED_POSITION_VERSION,
			scope: `${FIXTURE.appId}/new`,
			watch: { kind: 'one', pageId: FIXTURE.formPageId },
			forms: {
				[FIXTURE.formPageId]: {
					cursor: {
						floor: { time: T0 + 5000, key: '' },
						seen: {
							'lead-a': T0 + 5000,
							'lead-b': T0 + 5000,
							'lead-c': T0 + 5000,
							'lead-d': T0 + 5000,
							'lead-z': T0 + 9000,
						},
						undated: tableOf([keyHash('lead-undated')], DEFAULT_CELLS_PER_SUBTABLE).encode(),
					},
				},
			},
			leftOver: [],
		});
	});

	it('emits the whole dated form when N is larger, and after it only what is new', async () => {
		fillForm();
		const first = await pollFirst(50);
		expect(names(first.result)).toEqual(['Old 1', 'Old 2', 'A', 'B', 'C', 'D second', 'Z']);
		submit('lead-new', 'New', T0 + 10_000);
		const next = await pollFirst(50, first.staticData);
		expect(names(next.result)).toEqual(['New']);
	});
});
