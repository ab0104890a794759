import type { INode } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { AnswerLimitExceeded } from '../../../shared/http/answerLimits';
import type { ValueRedactor } from '../../../shared/text/redact';
import { MAX_RECORDS_PER_ANSWER, type RecordCollector } from '../../inquiries/readInquiryStream';
import { isUnreadableInquiry, readRecord } from '../../inquiries/unreadableInquiry';
import { ReadingStopped } from '../../../shared/http/streamReading';
import { InquirySelector, type InquirySelection } from './inquirySelector';

/**
 * Most inquiries one Get Many call returns, and most of their text: parsed
 * and turned into items, that many stay well under the 500 MB one call may
 * add to n8n's memory (docs/limits-for-admins.md).
 */
export const MAX_RETURNED_INQUIRIES = 100_000;
export const MAX_RETURNED_BYTES = 100 * 1024 * 1024;
/** What a parsed record costs beyond its text, counted against MAX_RETURNED_BYTES. */
export const PARSED_RECORD_OVERHEAD_BYTES = 512;

/**
 * What the reads of one Get Many hold together (one form's, or those of every
 * form of an app), against the bounds above: the call's memory follows what
 * it returns, however many forms it reads.
 */
export class CallHoldings {
	private readonly held = new Map<object, { inquiries: number; bytes: number }>();
	/**
	 * The error the first read past the bounds stopped with: every read of the call stops with it.
	 */
	stopped: NodeOperationError | undefined;

	constructor(readonly acrossForms = false) {}

	hold(owner: object, inquiries: number, bytes: number): void {
		this.held.set(owner, { inquiries, bytes });
	}

	release(owner: object): void {
		this.held.delete(owner);
	}

	fits(): boolean {
		let inquiries = 0;
		let bytes = 0;
		for (const held of this.held.values()) {
			inquiries += held.inquiries;
			bytes += held.bytes;
		}
		return inquiries <= MAX_RETURNED_INQUIRIES && bytes <= MAX_RETURNED_BYTES;
	}
}

/**
 * Get Many's reading of an answer as it arrives: each record is parsed,
 * filtered and offered to the selection, so only what the Limit can return
 * is held (the best `limit` so far). Past the bounds above, reading stops
 * with an error that says how to ask for less.
 */
export class SelectedInquiries implements RecordCollector<unknown[]> {
	private readonly selector: InquirySelector<unknown>;
	private offered = 0;
	private selected: Array<{ record: unknown; weight: number }> | undefined;

	constructor(
		private readonly selection: InquirySelection,
		private readonly redact: ValueRedactor,
		private readonly node: INode,
		private readonly itemIndex: number,
		private readonly maxRecords: number = MAX_RECORDS_PER_ANSWER,
		private readonly holdings: CallHoldings = new CallHoldings(),
	) {
		this.selector = new InquirySelector(selection);
	}

	get keptAll(): boolean {
		return this.selector.size === this.offered;
	}

	add(summary: Record<string, unknown> | undefined, bytes: () => Buffer): void {
		if (this.holdings.stopped) throw new ReadingStopped(this.holdings.stopped);
		if (this.offered === this.maxRecords) throw new AnswerLimitExceeded('records', this.maxRecords);
		const { record, weight } = answerRecord(summary, bytes, this.redact);
		// Thrown through the transport, which ends the call with this error as it is.
		if (!this.offer(record, weight)) throw new ReadingStopped(this.tooMany());
	}

	/** A record of an answer that was parsed whole (and redacted with it). */
	addParsed(record: unknown): void {
		if (this.holdings.stopped) throw this.holdings.stopped;
		if (!this.offer(record, PARSED_RECORD_OVERHEAD_BYTES)) throw this.tooMany();
	}

	/**
	 * The records selected, in order, with secrets the server echoed taken out (only
	 * those kept are redacted here).
	 */
	build(): unknown[] {
		return this.weighed().map(({ record }) => record);
	}

	/** As build, each record with what holding it costs; worked out once. */
	weighed(): Array<{ record: unknown; weight: number }> {
		this.selected ??= this.selector.weighedResult().map(({ record, weight }) => ({
			record: isUnreadableInquiry(record) ? record : this.redact(record),
			weight,
		}));
		return this.selected;
	}

	/** Offers a record to the selection; false when what the call holds has gone past the bounds. */
	private offer(record: unknown, weight: number): boolean {
		this.offered++;
		this.selector.offer(record, weight);
		this.holdings.hold(this, this.selector.size, this.selector.keptWeight);
		return this.holdings.fits();
	}

	private tooMany(): NodeOperationError {
		return tooMany(this.holdings, this.selection, this.node, this.itemIndex);
	}
}

/** A record of an answer read as it arrives, parsed, with what holding it costs. */
export function answerRecord(
	summary: Record<string, unknown> | undefined,
	bytes: () => Buffer,
	redact: ValueRedactor,
): { record: unknown; weight: number } {
	const text = bytes();
	const record = readRecord(text, summary);
	// A broken record's text is redacted before it is cut (readRecord), so it
	// is read again with the redactor.
	return {
		record: isUnreadableInquiry(record) ? readRecord(text, summary, redact) : record,
		weight: text.length + PARSED_RECORD_OVERHEAD_BYTES,
	};
}

/**
 * The error a read past the call's bounds stops with, saying how to ask for less; every read
 * of the call then stops with it.
 */
export function tooMany(
	holdings: CallHoldings,
	selection: InquirySelection,
	node: INode,
	itemIndex: number,
): NodeOperationError {
	const bounds = `more than ${MAX_RETURNED_INQUIRIES.toLocaleString('en')} inquiries or ${MAX_RETURNED_BYTES / (1024 * 1024)} MB of them`;
	const narrow =
		'narrow the inquiries with the Submitted After and Submitted Before filters (or Read Status)';
	const returnAll = selection.limit === undefined;
	const which = holdings.acrossForms ? "The app's forms have" : 'The form has';
	const error = new NodeOperationError(
		node,
		returnAll
			? `${which} more inquiries than one Get Many can return (${bounds}), so reading stopped`
			: `The Limit asks for more inquiries than one Get Many can return (${bounds}), so reading stopped`,
		{
			description: returnAll
				? `This keeps n8n's memory safe. Turn Return All off and set a Limit, or ${narrow}; to read them all, run Get Many once per date range${holdings.acrossForms ? ' (or once per form)' : ''}.`
				: `This keeps n8n's memory safe. Lower the Limit, or ${narrow}.`,
			itemIndex,
		},
	);
	holdings.stopped ??= error;
	return error;
}

/** Get Many's selection of an answer that was parsed whole, within the same bounds. */
export function selectFromRecords(records: unknown[], collector: SelectedInquiries): unknown[] {
	for (const record of records) collector.addParsed(record);
	return collector.build();
}
