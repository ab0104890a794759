import type { RecordCollector } from '../../nodes/AppBuilder/inquiries/readInquiryStream';
import { readRecord } from '../../nodes/AppBuilder/inquiries/unreadableInquiry';

/**
 * Every record of an answer, in its order, each read as the scan hands it
 * over (a record that is not JSON becomes an UnreadableInquiry in its
 * place): for tests of the scan and of readRecord, which see each record.
 */
export class EveryRecord implements RecordCollector<unknown[]> {
	private readonly records: unknown[] = [];
	readonly keptAll = true;

	add(summary: Record<string, unknown> | undefined, bytes: () => Buffer): void {
		this.records.push(readRecord(bytes(), summary));
	}

	build(): unknown[] {
		return this.records;
	}
}
