import type { FormField, RawInquiry } from './inquiry.types';

/**
 * Reads the submitted fields out of a record's two sources: formData (three
 * parallel rows: values, labels, names) and formbuilderData (a JSON string of
 * { fieldName, fieldIdentifire, fieldLabel, fieldValue }).
 *
 * formData is primary; formbuilderData adds the fields formData lacks. The
 * n-th formbuilderData entry of a name pairs with the n-th formData column of
 * that name, so repeated names pair up in order. Malformed input never
 * throws: each problem becomes a warning in plain words. Warnings may quote a
 * field's name, never a submitted value.
 */
export function readFormFields(record: RawInquiry): { fields: FormField[]; warnings: string[] } {
	const warnings: string[] = [];
	const { fields: fromFormData, columns } = readFormData(record.formData, warnings);
	const fromBuilder = readFormbuilderData(record.formbuilderData, warnings);
	if (record.formData === undefined && record.formbuilderData === undefined) {
		warnings.push('the record has neither formData nor formbuilderData');
	}

	const unpaired = new Map<string, FormField[]>();
	for (const field of fromFormData) {
		const identity = fieldIdentity(field);
		unpaired.set(identity, [...(unpaired.get(identity) ?? []), field]);
	}
	const fields = [...fromFormData];
	// Appended fields are numbered after every formData column.
	let position = columns;
	for (const entry of fromBuilder) {
		const twin = unpaired.get(fieldIdentity(entry))?.shift();
		if (twin === undefined) {
			fields.push({ ...entry, position: ++position });
		} else if (twin.value !== entry.value) {
			warnings.push(
				`formData and formbuilderData disagree on the value of "${shorten(twin.name || twin.label)}"; the formData value was used`,
			);
		}
	}
	return { fields, warnings };
}

/** What pairs a formData column with a formbuilderData entry. */
function fieldIdentity(field: FormField): string {
	return field.name || field.identifier || field.label;
}

function readFormData(formData: unknown, warnings: string[]): { fields: FormField[]; columns: number } {
	if (formData === undefined || formData === null) return { fields: [], columns: 0 };
	if (!Array.isArray(formData)) {
		warnings.push('formData is not a list of rows');
		return { fields: [], columns: 0 };
	}
	if (formData.length !== 3 && formData.length !== 0) {
		warnings.push(`formData has ${formData.length} rows instead of 3 (values, labels, names)`);
	}
	const rows = [0, 1, 2].map((index): unknown[] => {
		const row: unknown = formData[index];
		if (row === undefined) return [];
		if (Array.isArray(row)) return row;
		warnings.push(`formData row ${index + 1} is not a list`);
		return [];
	});
	const lengths = rows.map((row) => row.length);
	if (new Set(lengths).size > 1) warnings.push(`formData rows have different lengths (${lengths.join(', ')})`);

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
		// A column with neither a name nor a value carries nothing to map.
		if (field.name !== '' || field.value !== '') fields.push(field);
	}
	if (nonText.seen) warnings.push('formData has cells that are not text or numbers; they were read as empty');
	return { fields, columns };
}

const BUILDER_KEYS = ['fieldName', 'fieldIdentifire', 'fieldLabel', 'fieldValue'] as const;

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
	} else if (!Array.isArray(raw)) {
		// An already decoded list is read as it is; anything else is unusable.
		warnings.push('formbuilderData is neither JSON text nor a list');
		return [];
	}
	if (!Array.isArray(parsed)) {
		warnings.push('formbuilderData does not hold a list of fields');
		return [];
	}

	const nonText = { seen: false };
	const missing = new Map<string, number>();
	let notObjects = 0;
	let empty = 0;
	const fields: FormField[] = [];
	for (const entry of parsed as unknown[]) {
		if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) {
			notObjects++;
			continue;
		}
		const object = entry as Record<string, unknown>;
		for (const key of BUILDER_KEYS) {
			if (object[key] === undefined || object[key] === null) missing.set(key, (missing.get(key) ?? 0) + 1);
		}
		const field: FormField = {
			name: cellText(object.fieldName, nonText).trim(),
			identifier: cellText(object.fieldIdentifire, nonText).trim(),
			label: cellText(object.fieldLabel, nonText).trim(),
			value: cellText(object.fieldValue, nonText),
			position: 0,
		};
		if (!field.name && !field.identifier && !field.label && !field.value) {
			empty++;
			continue;
		}
		fields.push(field);
	}
	if (notObjects > 0) warnings.push(`formbuilderData has ${entries(notObjects)} that are not objects; skipped`);
	for (const [key, count] of missing) warnings.push(`formbuilderData has ${entries(count)} without ${key}`);
	if (empty > 0) warnings.push(`formbuilderData has ${entries(empty)} with nothing in them; skipped`);
	if (nonText.seen) warnings.push('formbuilderData has values that are not text or numbers; they were read as empty');
	return fields;
}

function cellText(cell: unknown, nonText: { seen: boolean }): string {
	if (cell === undefined || cell === null) return '';
	if (typeof cell === 'string') return cell;
	if (typeof cell === 'number' || typeof cell === 'boolean') return String(cell);
	nonText.seen = true;
	return '';
}

function entries(count: number): string {
	return count === 1 ? '1 entry' : `${count} entries`;
}

function shorten(text: string): string {
	return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}
