import { toEpochMillis } from '../../inquiries/timestamps';

/**
 * The filters and ordering Get Many offers on top of FormBuilderApi, which
 * returns every inquiry of a form in no promised order. Pure, so the rules
 * are tested without a server.
 */
export interface InquirySelection {
	submittedAfterMs?: number;
	submittedBeforeMs?: number;
	readStatus: 'any' | 'read' | 'unread';
	sort: 'newestFirst' | 'oldestFirst';
	/** undefined = all */
	limit?: number;
}

export function selectInquiries<T>(records: T[], selection: InquirySelection): T[] {
	const withTime = records.map((record, position) => ({
		record,
		position,
		time: toEpochMillis(fieldOf(record, 'addedon')),
	}));

	const kept = withTime.filter(({ record, time }) => {
		if (selection.submittedAfterMs !== undefined && (time === undefined || time <= selection.submittedAfterMs)) {
			return false;
		}
		if (selection.submittedBeforeMs !== undefined && (time === undefined || time >= selection.submittedBeforeMs)) {
			return false;
		}
		if (selection.readStatus !== 'any') {
			const isRead = Number(fieldOf(record, 'readStatus')) === 1;
			if (isRead !== (selection.readStatus === 'read')) return false;
		}
		return true;
	});

	// Inquiries without a usable timestamp sort as the oldest; ties keep the API's order.
	const direction = selection.sort === 'newestFirst' ? -1 : 1;
	kept.sort((a, b) => {
		const byTime = ((a.time ?? -Infinity) - (b.time ?? -Infinity)) * direction;
		if (byTime !== 0 && !Number.isNaN(byTime)) return byTime;
		return a.position - b.position;
	});

	const limited = selection.limit === undefined ? kept : kept.slice(0, selection.limit);
	return limited.map(({ record }) => record);
}

function fieldOf(record: unknown, key: string): unknown {
	return typeof record === 'object' && record !== null ? (record as Record<string, unknown>)[key] : undefined;
}
