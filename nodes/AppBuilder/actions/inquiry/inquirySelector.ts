import { toEpochMillis } from '../../inquiries/timestamps';

/**
 * The filters and ordering Get Many offers on top of FormBuilderApi, which
 * returns every inquiry of a form in no promised order. Records are offered
 * one at a time as the answer is read, and with a limit only the best
 * `limit` so far are held, so memory follows the limit, not the form.
 * Pure, so the rules are tested without a server.
 */
export interface InquirySelection {
	submittedAfterMs?: number;
	submittedBeforeMs?: number;
	readStatus: 'any' | 'read' | 'unread';
	sort: 'newestFirst' | 'oldestFirst';
	/** undefined = all */
	limit?: number;
}

interface Ranked<T> {
	record: T;
	/** Its place in the answer: ties keep the API's order. */
	position: number;
	time: number | undefined;
	/** What holding it costs, as the caller counts it. */
	weight: number;
}

export class InquirySelector<T> {
	/** With a limit, a heap whose top is the worst record kept; without, every record kept in order. */
	private readonly kept: Array<Ranked<T>> = [];
	private offered = 0;
	private weightKept = 0;

	/** `recordOf` gives the inquiry an offered entry stands for (the entry itself by default). */
	constructor(
		private readonly selection: InquirySelection,
		private readonly recordOf: (entry: T) => unknown = (entry) => entry,
	) {}

	/** Records kept now. */
	get size(): number {
		return this.kept.length;
	}

	/** The weights of the records kept now, added up. */
	get keptWeight(): number {
		return this.weightKept;
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
			if (limit !== undefined) this.siftUp(this.kept.length - 1);
			return true;
		}
		if (limit <= 0 || this.compare(ranked, this.kept[0]) >= 0) return false;
		this.weightKept += weight - this.kept[0].weight;
		this.kept[0] = ranked;
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
	private compare(a: Ranked<T>, b: Ranked<T>): number {
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
