/** A form inquiry record as FormBuilderApi returns it (spec: "Form inquiry record"). */
export interface RawInquiry {
	_id?: unknown;
	appId?: unknown;
	pageId?: unknown;
	requestId?: unknown;
	subject?: unknown;
	requestPage?: unknown;
	formName?: unknown;
	/** Three rows of equal length: submitted values, field labels, field names. */
	formData?: unknown;
	/** A JSON string: [{ fieldName, fieldIdentifire, fieldLabel, fieldValue }]. */
	formbuilderData?: unknown;
	paymentStatus?: unknown;
	mailStatus?: unknown;
	status?: unknown;
	readStatus?: unknown;
	addedon?: unknown;
	updatedon?: unknown;
}

/** One submitted form field, from either source. */
export interface FormField {
	name: string;
	identifier: string;
	label: string;
	value: string;
	/** 1-based column in formData, or position after the formData columns. */
	position: number;
}
