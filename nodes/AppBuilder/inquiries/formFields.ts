import type { FormField, RawInquiry } from './inquiry.types';

/**
 * Reads the submitted fields out of a record's two sources, formData (three
 * parallel rows) and formbuilderData (a JSON string). formData is primary;
 * formbuilderData adds the fields formData lacks. Malformed input never
 * throws: each problem becomes a warning in plain words.
 */
export function readFormFields(record: RawInquiry): { fields: FormField[]; warnings: string[] } {
	const warnings: string[] = [];
	const fromFormData = readFormData(record.formData, warnings);
	const fromBuilder = readFormbuilderData(record.formbuilderData, warnings);

	const fields = [...fromFormData];
	// The n-th formbuilderData entry with a name pairs with the n-th formData column of that name.
	const unmatched = new Map<string, FormField[]>();
	for (const field of fromFormData) {
		const identity = fieldIdentity(field);
		unmatched.set(identity, [...(unmatched.get(identity) ?? []), field]);
	}
	let position = fromFormData.length;
	for (const entry of fromBuilder) {
		const existing = unmatched.get(fieldIdentity(entry))?.shift();
		if (existing) {
			if (existing.value !== entry.value) {
				warnings.push(
					`formData and formbuilderData disagree on the value of "${existing.name || existing.label}"; the formData value was used`,
				);
			}
			continue;
		}
		position++;
		fields.push({ ...entry, position });
	}
	if (record.formData === undefined && record.formbuilderData === undefined) {
		warnings.push('the record has neither formData nor formbuilderData');
	}
	return { fields, warnings };
}

function fieldIdentity(field: FormField): string {
	return (field.name || field.identifier || field.label).trim();
}

function readFormData(formData: unknown, warnings: string[]): FormField[] {
	if (formData === undefined || formData === null) return [];
	if (!Array.isArray(formData)) {
		warnings.push('formData is not a list of rows');
		return [];
	}
	const rows = [0, 1, 2].map((index) => {
		const row: unknown = formData[index];
		if (row === undefined) return [];
		if (!Array.isArray(row)) {
			warnings.push(`formData row ${index + 1} is not a list`);
			return [];
		}
		return row as unknown[];
	});
	if (formData.length !== 3 && formData.length !== 0) warnings.push(`formData has ${formData.length} rows instead of 3 (values, labels, names)`);
	const lengths = rows.map((row) => row.length);
	if (new Set(lengths).size > 1) {
		warnings.push(`formData rows have different lengths (${lengths.join(', ')})`);
	}

	const [values, labels, names] = rows;
	const columns = Math.max(...lengths);
	const nonText = { seen: false };
	const fields: FormField[] = [];
	for (let column = 0; column < columns; column++) {
		const field: FormField = {
			value: cellText(values[column], nonText),
			label: cellText(labels[column], nonText).trim(),
			name: cellText(names[column], nonText).trim(),
			identifier: '',
			position: column + 1,
		};
		if (field.value === '' && field.label === '' && field.name === '') continue;
		fields.push(field);
	}
	if (nonText.seen) warnings.push('formData has cells that are not text; they were left empty');
	return fields;
}

function readFormbuilderData(raw: unknown, warnings: string[]): FormField[] {
	if (raw === undefined || raw === null || raw === '') return [];
	let parsed: unknown = raw;
	if (typeof raw === 'string') {
		try {
			parsed = JSON.parse(raw);
		} catch {
			warnings.push('formbuilderData is not valid JSON');
			return [];
		}
	}
	if (!Array.isArray(parsed)) {
		warnings.push('formbuilderData is not a list of fields');
		return [];
	}
	const nonText = { seen: false };
	const fields: FormField[] = [];
	let skipped = 0;
	for (const entry of parsed) {
		if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) {
			skipped++;
			continue;
		}
		const object = entry as Record<string, unknown>;
		const field: FormField = {
			name: cellText(object.fieldName, nonText).trim(),
			identifier: cellText(object.fieldIdentifire, nonText).trim(),
			label: cellText(object.fieldLabel, nonText).trim(),
			value: cellText(object.fieldValue, nonText),
			position: 0,
		};
		if (field.name === '' && field.identifier === '' && field.label === '') {
			skipped++;
			continue;
		}
		fields.push(field);
	}
	if (skipped > 0) warnings.push(`formbuilderData has ${skipped} entries without a field name; they were skipped`);
	if (nonText.seen) warnings.push('formbuilderData has values that are not text; they were left empty');
	return fields;
}

function cellText(cell: unknown, nonText: { seen: boolean }): string {
	if (cell === undefined || cell === null) return '';
	if (typeof cell === 'string') return cell;
	if (typeof cell === 'number' || typeof cell === 'boolean' || typeof cell === 'bigint') return String(cell);
	nonText.seen = true;
	return '';
}
