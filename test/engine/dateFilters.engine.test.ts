import type { IDataObject } from 'n8n-workflow';

import { FIXTURE } from '../emulator';
import { appBuilderCredentials, getManyParameters, runAppBuilder } from '../support/appBuilderRuns';
import { useEmulator } from '../support/useEmulator';
import { HOUR } from '../support/durations';

/**
 * Get Many's Submitted After / Before as n8n users write them, evaluated by
 * n8n-core's own expression engine: {{ $now }} and {{ $today }} give Luxon
 * DateTime objects, and a date and time without an offset means the
 * workflow's time zone, not the n8n server's.
 */
describe('Get Many date filters as n8n users write them', () => {
	const emu = useEmulator();

	/** One inquiry per moment, named after its position. */
	const seed = (moments: number[]) =>
		moments.forEach((addedon, i) =>
			emu().control.addInquiry({
				appId: FIXTURE.appId,
				pageId: FIXTURE.formPageId,
				addedon,
				fields: [{ name: 'name', label: 'Name', value: `Lead ${i}` }],
			}),
		);
	const namesListed = async (filters: IDataObject, timezone?: string) => {
		const result = await runAppBuilder(
			appBuilderCredentials(emu()),
			getManyParameters({ filters: { sort: 'oldestFirst', ...filters } }),
			{ timezone },
		);
		expect(result.error).toBeUndefined();
		return result.items.map((item) => item.json.name);
	};

	it('takes {{ $now.minus({ days: 1 }) }} and {{ $now }} as they are', async () => {
		const now = Date.now();
		seed([now - 48 * HOUR, now - 12 * HOUR, now + HOUR]);
		expect(await namesListed({ submittedAfter: '={{ $now.minus({ days: 1 }) }}' })).toEqual([
			'Lead 1',
			'Lead 2',
		]);
		expect(
			await namesListed({
				submittedAfter: '={{ $now.minus({ days: 1 }) }}',
				submittedBefore: '={{ $now }}',
			}),
		).toEqual(['Lead 1']);
	});

	it("takes {{ $today }}, the start of today in the workflow's time zone", async () => {
		// Tokyo keeps UTC+9 all year: its midnight is 15:00 UTC.
		const tokyoNow = new Date(Date.now() + 9 * HOUR);
		const tokyoMidnight =
			Date.UTC(tokyoNow.getUTCFullYear(), tokyoNow.getUTCMonth(), tokyoNow.getUTCDate()) - 9 * HOUR;
		seed([tokyoMidnight - 60_000, tokyoMidnight + 60_000]);
		expect(await namesListed({ submittedAfter: '={{ $today }}' }, 'Asia/Tokyo')).toEqual([
			'Lead 1',
		]);
	});

	it("reads a date and time without an offset in the workflow's time zone, typed or from an expression", async () => {
		seed([Date.parse('2026-01-31T13:59:00Z'), Date.parse('2026-01-31T14:01:00Z')]);
		// 09:00 in New York in January is 14:00 UTC; in Tokyo it is 00:00 UTC.
		expect(
			await namesListed({ submittedAfter: '2026-01-31T09:00:00' }, 'America/New_York'),
		).toEqual(['Lead 1']);
		expect(
			await namesListed({ submittedAfter: '={{ "2026-01-31T09:00:00" }}' }, 'America/New_York'),
		).toEqual(['Lead 1']);
		expect(await namesListed({ submittedAfter: '2026-01-31T09:00:00' }, 'Asia/Tokyo')).toEqual([
			'Lead 0',
			'Lead 1',
		]);
		// An offset says where the time is: the workflow's time zone does not change it.
		expect(await namesListed({ submittedAfter: '2026-01-31T14:00:00Z' }, 'Asia/Tokyo')).toEqual([
			'Lead 1',
		]);
	});

	it("refuses text whose time zone would be the server's, naming the field and how to write it", async () => {
		const result = await runAppBuilder(
			appBuilderCredentials(emu()),
			getManyParameters({ filters: { submittedAfter: '={{ "January 31, 2026 09:00" }}' } }),
		);
		expect(result.error?.message).toBe(
			'Submitted After must be a date and time such as 2026-01-31T09:00:00 (read in the workflow\'s time zone) or 2026-01-31T09:00:00Z, but the expression gave "January 31, 2026 09:00" [item 0]',
		);
		expect(emu().control.requests()).toEqual([]);
	});
});
