import { slowLinkTargetRows, transferFloorMs, type SlowLinkRow } from './slowLink';

const link = {
	sizes: [10_000],
	bandwidthBytesPerSecond: 6_250_000,
	roundTripMs: 100,
	roundsFor: () => 1,
	newPerPoll: 10,
};

function row(compression: boolean, oursMs: number, floorMs: number): SlowLinkRow {
	return {
		size: 10_000,
		compression,
		bodyBytes: 20e6,
		wireBytes: compression ? 2e6 : 20e6,
		oursEncoding: compression ? 'gzip' : 'identity',
		floorMs,
		oursMs,
		servedMs: oursMs - 5,
		beforeRequestMs: 3,
		afterLastByteMs: 2,
		preparedMs: 50,
		oursUncappedMs: 60,
	};
}

describe('the slow-link figures', () => {
	it('puts the floor at the bytes on the wire over the bandwidth, plus one round trip', () => {
		expect(transferFloorMs(6_250_000, link)).toBe(1100);
		expect(transferFloorMs(0, link)).toBe(100);
	});

	it('meets both targets only when every poll is within 1.15x of its floor and compression is 5x faster', () => {
		const [floor, speed] = slowLinkTargetRows([row(false, 3300, 3300), row(true, 590, 520)], link);
		expect(floor).toMatch(/\| met \|$/);
		expect(speed).toContain('5.6x at 10,000');
		expect(speed).toMatch(/\| met \|$/);
	});

	it('reports a poll over 1.15x its floor, or compression under 5x, as not met', () => {
		const [floor, speed] = slowLinkTargetRows([row(false, 3300, 3300), row(true, 700, 520)], link);
		expect(floor).toContain('1.35x at 10,000 compressed');
		expect(floor).toMatch(/\*\*not met\*\* \|$/);
		expect(speed).toMatch(/\*\*not met\*\* \|$/);
	});

	it('reports nothing measured as not met', () => {
		expect(
			slowLinkTargetRows([], link).every(
				(line) => line.includes('not measured') && line.includes('**not met**'),
			),
		).toBe(true);
	});
});
