import { toEpochMillis } from '../../inquiries/timestamps';
import type { InquiryFilters } from './getManyFilters';

// The filters and ordering Get Many offers on top of FormBuilderApi, which returns every inquiry of
// a form in no promised order. Records are offered one at a time as the answer is read, and with a
// limit only the best `limit` so far are held, so memory follows the limit, not the form. Pure, so
// the rules are tested without a server.

export interface InquirySelection extends InquiryFilters {
	/** undefined = all */
	limit?: number;
}

interface Rank {
	/** Its place in the answer: ties keep the API's order. */
	position: number;
	time: number | undefined;
}

interface Ranked<T> extends Rank {
	record: T;
	/** What holding it costs, as the caller counts it. */
	weight: number;
}

/** Of one group of records: how many are kept, and the best one turned away or pushed out. */
interface GroupState {
	kept: number;
	bestDropped?: Rank;
}

export class InquirySelector<T> {
	/**
	 * With a limit, a heap whose top is the worst record kept; without, every record kept in order.
	 */
	private kept: Array<Ranked<T>> = [];
	private offered = 0;
	private weightKept = 0;
	private readonly groups = new Map<unknown, GroupState>();

	/**
	 * `recordOf` gives the inquiry an offered entry stands for (the entry
	 * itself by default); `groupOf` the group it belongs to, which can be
	 * withdrawn as a whole (one group by default).
	 */
	constructor(
		private readonly selection: InquirySelection,
		private readonly recordOf: (entry: T) => unknown = (entry) => entry,
		private readonly groupOf: (entry: T) => unknown = () => undefined,
	) {}

	/** Records kept now. */
	get size(): number {
		return this.kept.length;
	}

	/** The weights of the records kept now, added up. */
	get keptWeight(): number {
		return this.weightKept;
	}

	/** Records of `group` kept now. */
	keptOf(group: unknown): number {
		return this.groups.get(group)?.kept ?? 0;
	}

	/**
	 * Whether the records kept are the selection of every record offered and
	 * not withdrawn. Always, without a withdrawal. A withdrawn group's records
	 * may have pushed others out, which are gone: then only while every record
	 * turned away or pushed out ranks after every record kept.
	 */
	get exact(): boolean {
		const limit = this.selection.limit;
		for (const { bestDropped } of this.groups.values()) {
			if (bestDropped === undefined) continue;
			if (limit === undefined || this.kept.length < limit) return false;
			if (this.compare(bestDropped, this.kept[0]) <= 0) return false;
		}
		return true;
	}

	/**
	 * Takes every record of `group` out of the selection (an attempt that does not
	 * count), and forgets what it dropped.
	 */
	withdraw(group: unknown): void {
		const state = this.groups.get(group);
		this.groups.delete(group);
		if (!state?.kept) return;
		this.kept = this.kept.filter((ranked) => {
			if (this.groupOf(ranked.record) !== group) return true;
			this.weightKept -= ranked.weight;
			return false;
		});
		if (this.selection.limit !== undefined)
			for (let index = (this.kept.length >> 1) - 1; index >= 0; index--) this.siftDown(index);
	}

	/**
	 * Offers the next record of the answer. Returns whether it is kept now: it
	 * passes the filters and, with a limit, is among the best `limit` so far
	 * (the worst kept one then goes). `position` breaks ties of time; by
	 * default the order of offering.
	 */
	offer(record: T, weight = 0, position = this.offered): boolean {
		this.offered++;
		const ranked: Ranked<T> = {
			record,
			position,
			time: toEpochMillis(fieldOf(this.recordOf(record), 'addedon')),
			weight,
		};
		if (!this.passes(ranked)) return false;
		const limit = this.selection.limit;
		if (limit === undefined || this.kept.length < limit) {
			this.kept.push(ranked);
			this.weightKept += weight;
			this.stateOf(ranked).kept++;
			if (limit !== undefined) this.siftUp(this.kept.length - 1);
			return true;
		}
		if (limit <= 0) return false;
		if (this.compare(ranked, this.kept[0]) >= 0) {
			this.dropped(ranked);
			return false;
		}
		const pushedOut = this.kept[0];
		this.stateOf(pushedOut).kept--;
		this.dropped(pushedOut);
		this.weightKept += weight - pushedOut.weight;
		this.kept[0] = ranked;
		this.stateOf(ranked).kept++;
		this.siftDown(0);
		return true;
	}

	/** The records kept, in the selection's order. */
	result(): T[] {
		return this.weighedResult().map(({ record }) => record);
	}

	/** The records kept, in the selection's order, each with the weight it was offered with. */
	weighedResult(): Array<{ record: T; weight: number }> {
		return [...this.kept]
			.sort((a, b) => this.compare(a, b))
			.map(({ record, weight }) => ({ record, weight }));
	}

	private stateOf(ranked: Ranked<T>): GroupState {
		const group = this.groupOf(ranked.record);
		let state = this.groups.get(group);
		if (state === undefined) {
			state = { kept: 0 };
			this.groups.set(group, state);
		}
		return state;
	}

	/**
	 * A record that passed the filters but is not kept: one that ranks before it could
	 * be missing after a withdrawal.
	 */
	private dropped(ranked: Ranked<T>): void {
		const state = this.stateOf(ranked);
		if (state.bestDropped === undefined || this.compare(ranked, state.bestDropped) < 0)
			state.bestDropped = { position: ranked.position, time: ranked.time };
	}

	private passes({ record, time }: Ranked<T>): boolean {
		const { submittedAfterMs, submittedBeforeMs, readStatus } = this.selection;
		if (submittedAfterMs !== undefined && (time === undefined || time <= submittedAfterMs))
			return false;
		if (submittedBeforeMs !== undefined && (time === undefined || time >= submittedBeforeMs))
			return false;
		if (readStatus !== 'any') {
			const isRead = Number(fieldOf(this.recordOf(record), 'readStatus')) === 1;
			if (isRead !== (readStatus === 'read')) return false;
		}
		return true;
	}

	/**
	 * Negative when `a` comes first. Inquiries without a usable timestamp
	 * sort as the oldest; ties keep the API's order.
	 */
	private compare(a: Rank, b: Rank): number {
		const direction = this.selection.sort === 'newestFirst' ? -1 : 1;
		const byTime = ((a.time ?? -Infinity) - (b.time ?? -Infinity)) * direction;
		if (byTime !== 0 && !Number.isNaN(byTime)) return byTime;
		return a.position - b.position;
	}

	/** Heap order: a parent comes after its children (the worst record is on top). */
	private siftUp(index: number): void {
		const heap = this.kept;
		while (index > 0) {
			const parent = (index - 1) >> 1;
			if (this.compare(heap[index], heap[parent]) <= 0) return;
			[heap[index], heap[parent]] = [heap[parent], heap[index]];
			index = parent;
		}
	}

	private siftDown(index: number): void {
		const heap = this.kept;
		for (;;) {
			let worst = index;
			for (const child of [2 * index + 1, 2 * index + 2]) {
				if (child < heap.length && this.compare(heap[child], heap[worst]) > 0) worst = child;
			}
			if (worst === index) return;
			[heap[index], heap[worst]] = [heap[worst], heap[index]];
			index = worst;
		}
	}
}

/** The selection of a whole list of records. */
export function selectInquiries<T>(records: T[], selection: InquirySelection): T[] {
	const selector = new InquirySelector<T>(selection);
	for (const record of records) selector.offer(record);
	return selector.result();
}

function fieldOf(record: unknown, key: string): unknown {
	return typeof record === 'object' && record !== null
		? (record as Record<string, unknown>)[key]
		: undefined;
}
