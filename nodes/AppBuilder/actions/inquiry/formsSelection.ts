import type { INode } from 'n8n-workflow';

import { AnswerLimitExceeded } from '../../../shared/http/answerLimits';
import { MAX_WHOLE_ANSWER_BYTES, ReadingStopped } from '../../../shared/http/streamReading';
import type { ListAnswerReader } from '../../../shared/http/streamReading';
import type { ValueRedactor } from '../../../shared/text/redact';
import {
	inquiryAnswerReader,
	MAX_RECORDS_PER_ANSWER,
	type RecordCollector,
} from '../../inquiries/readInquiryStream';
import { isUnreadableInquiry } from '../../inquiries/unreadableInquiry';
import { answerRecord, CallHoldings, PARSED_RECORD_OVERHEAD_BYTES, tooMany } from './getManyReader';
import { InquirySelector, type InquirySelection } from './inquirySelector';

/**
 * Positions one form's records take in the order of ties: more than an
 * answer can list (read as it arrives, MAX_RECORDS_PER_ANSWER; read whole,
 * fewer records than bytes), so ties keep the app's order of forms, then
 * each answer's.
 */
const POSITIONS_PER_FORM = Math.max(MAX_RECORDS_PER_ANSWER, MAX_WHOLE_ANSWER_BYTES);

interface Held<Form> {
	record: unknown;
	attempt: AnswerAttempt<Form>;
}

/**
 * Get Many's selection over every form of an app: one best `limit` the
 * forms' reads share, each record offered to it as its answer arrives, so
 * the call holds at most the Limit (within the bounds of one call) however
 * many forms are read at once. Each attempt at a form's answer is a group
 * of its own: the next attempt (a retry, or the answer read whole) takes
 * the last one's records back, and so does a form that fails.
 */
export class FormsSelection<Form> {
	private readonly selector: InquirySelector<Held<Form>>;
	private readonly holdings = new CallHoldings(true);

	constructor(
		private readonly selection: InquirySelection,
		private readonly node: INode,
		private readonly itemIndex: number,
	) {
		this.selector = new InquirySelector<Held<Form>>(
			selection,
			(held) => held.record,
			(held) => held.attempt,
		);
	}

	/** The error the call stopped with, past its bounds: no form's list is complete then. */
	get stopped(): Error | undefined {
		return this.holdings.stopped;
	}

	/**
	 * Whether the records kept are the selection of every form read. Not when
	 * an attempt that was taken back had pushed other records out: those are
	 * gone, and only reading the forms again finds them.
	 */
	get exact(): boolean {
		return this.selector.exact;
	}

	/** The reading of one form's answer (`formIndex`, its place in the app's list). */
	formReading(form: Form, formIndex: number): FormReading<Form> {
		return new FormReading(this, form, formIndex * POSITIONS_PER_FORM);
	}

	/**
	 * The records selected, in order, each with its form; secrets the server echoed
	 * are taken out of those returned.
	 */
	result(): Array<{ record: unknown; form: Form }> {
		return this.selector.result().map(({ record, attempt }) => ({
			record: isUnreadableInquiry(record) ? record : attempt.redact(record),
			form: attempt.form,
		}));
	}

	/** Offers one record of an attempt; the error to stop with once the call is past its bounds. */
	offer(attempt: AnswerAttempt<Form>, record: unknown, weight: number, position: number) {
		this.selector.offer({ record, attempt }, weight, position);
		this.holdings.hold(this, this.selector.size, this.selector.keptWeight);
		return this.holdings.fits()
			? undefined
			: tooMany(this.holdings, this.selection, this.node, this.itemIndex);
	}

	keptOf(attempt: AnswerAttempt<Form>): number {
		return this.selector.keptOf(attempt);
	}

	withdraw(attempt: AnswerAttempt<Form>): void {
		this.selector.withdraw(attempt);
	}
}

/** One form's answer, read into the shared selection attempt by attempt. */
export class FormReading<Form> {
	/** The reader to give fetchFormInquiries. */
	readonly reader: ListAnswerReader<AnswerAttempt<Form>>;
	private attempt: AnswerAttempt<Form> | undefined;

	constructor(
		private readonly shared: FormsSelection<Form>,
		private readonly form: Form,
		private readonly firstPosition: number,
	) {
		this.reader = inquiryAnswerReader(
			(redact) => this.nextAttempt(redact),
			(records) => {
				// An answer parsed whole was redacted whole.
				const attempt = this.nextAttempt((value) => value);
				for (const record of records) attempt.addParsed(record);
				return attempt;
			},
		);
	}

	/** The form could not be read: none of its records counts. */
	failed(): void {
		if (this.attempt) this.shared.withdraw(this.attempt);
		this.attempt = undefined;
	}

	/** Only the attempt that succeeds counts: the last one's records go as the next begins. */
	private nextAttempt(redact: ValueRedactor): AnswerAttempt<Form> {
		this.failed();
		this.attempt = new AnswerAttempt(this.shared, this.form, this.firstPosition, redact);
		return this.attempt;
	}
}

/** One attempt at a form's answer: each record offered to the shared selection as it arrives. */
export class AnswerAttempt<Form> implements RecordCollector<AnswerAttempt<Form>> {
	private offered = 0;

	constructor(
		private readonly shared: FormsSelection<Form>,
		readonly form: Form,
		private readonly firstPosition: number,
		readonly redact: ValueRedactor,
	) {}

	get keptAll(): boolean {
		return this.shared.keptOf(this) === this.offered;
	}

	add(summary: Record<string, unknown> | undefined, bytes: () => Buffer): void {
		if (this.shared.stopped) throw new ReadingStopped(this.shared.stopped);
		if (this.offered === MAX_RECORDS_PER_ANSWER)
			throw new AnswerLimitExceeded('records', MAX_RECORDS_PER_ANSWER);
		const { record, weight } = answerRecord(summary, bytes, this.redact);
		const stop = this.offer(record, weight);
		// Thrown through the transport, which ends the call with this error as it is.
		if (stop) throw new ReadingStopped(stop);
	}

	/**
	 * A record of an answer that was parsed whole (after the call, so its error is thrown as it is).
	 */
	addParsed(record: unknown): void {
		if (this.shared.stopped) throw this.shared.stopped;
		const stop = this.offer(record, PARSED_RECORD_OVERHEAD_BYTES);
		if (stop) throw stop;
	}

	/**
	 * The records are in the shared selection: the list handed back only says which attempt made it.
	 */
	build(): AnswerAttempt<Form> {
		return this;
	}

	private offer(record: unknown, weight: number) {
		return this.shared.offer(this, record, weight, this.firstPosition + this.offered++);
	}
}
