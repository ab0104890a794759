import { claimPoll } from '../../../../nodes/AppBuilder/trigger/pollClaims';

describe('one poll at a time per trigger', () => {
	it('refuses a second claim of the same trigger while the first is held, not another trigger', () => {
		const release = claimPoll('wf-1:node-1', 0, 1000);
		expect(release).toBeDefined();
		expect(claimPoll('wf-1:node-1', 10, 1010)).toBeUndefined();
		const other = claimPoll('wf-1:node-2', 10, 1010);
		expect(other).toBeDefined();
		release!();
		other!();
		const again = claimPoll('wf-1:node-1', 20, 1020);
		expect(again).toBeDefined();
		again!();
	});

	it('lets a poll take over a claim that lapsed, and the late poll cannot release the new claim', () => {
		const late = claimPoll('wf-2:node-1', 0, 1000);
		const takeover = claimPoll('wf-2:node-1', 1000, 2000);
		expect(takeover).toBeDefined();
		late!();
		expect(claimPoll('wf-2:node-1', 1500, 2500)).toBeUndefined();
		takeover!();
		expect(claimPoll('wf-2:node-1', 1600, 2600)).toBeDefined();
	});
});
