import { inquiryKey } from './identity';
import type { RawInquiry } from '../../inquiries/inquiry.types';
import { toEpochMillis } from '../../inquiries/timestamps';

/** Which time makes an inquiry an event: its submission (New Inquiry), or its last change too (New or Updated). */
export type EventMode = 'new' | 'newOrUpdated';

/** An inquiry as the cursor and the readers of an answer see it: its key and its time. */
export interface InquiryEvent {
	key: string;
	/** Epoch ms of the submission (mode new) or of the last change (newOrUpdated); undefined when unknown. */
	time: number | undefined;
}

export function inquiryEvent(record: unknown, mode: EventMode): InquiryEvent {
	const raw = (typeof record === 'object' && record !== null ? record : {}) as RawInquiry;
	const added = toEpochMillis(raw.addedon);
	const updated = mode === 'new' ? undefined : toEpochMillis(raw.updatedon);
	const latest = updated === undefined || (added ?? -Infinity) > updated ? added : updated;
	return { key: inquiryKey(record), time: latest };
}
