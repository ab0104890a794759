import { isRecord } from '../../shared/valueShapes';
import type { FormField, RawInquiry } from './inquiry.types';

/**
 * Reads the submitted fields out of a record's two sources, formData (three
 * parallel rows: values, labels, names) and formbuilderData (a JSON string of
 * { fieldName, fieldIdentifire, fieldLabel, fieldValue }); formData wins, and
 * formbuilderData adds what it lacks (pairing: see ARCHITECTURE.md,
 * "Submitted fields"). Never throws: each problem becomes a warning, which may
 * quote a field's name but never a submitted value.
 */
export function readSubmittedFields(record: RawInquiry): {
	fields: FormField[];
	warnings: string[];
} {
	const warnings: string[] = [];
	const { fields: fromFormData, columns } = readFormData(record.formData, warnings);
	const fromBuilder = readFormbuilderData(record.formbuilderData, warnings);
	if (record.formData === undefined && record.formbuilderData === undefined) {
		warnings.push('the record has neither formData nor formbuilderData');
	}

	const columnsByIdentity = queuesBy(fromFormData, fieldIdentity);
	const unnamedColumnsByLabel = queuesBy(
		fromFormData.filter((field) => field.name === ''),
		(field) => field.label,
	);
	const paired = new Set<FormField>();
	const fields = [...fromFormData];
	// Appended fields are numbered after every formData column.
	let position = columns;
	for (const entry of fromBuilder) {
		let twin = nextUnpaired(columnsByIdentity.get(fieldIdentity(entry)), paired);
		if (twin === undefined && entry.name === '' && entry.identifier !== '') {
			twin = nextUnpaired(unnamedColumnsByLabel.get(entry.label), paired);
		}
		if (twin === undefined) {
			fields.push({ ...entry, position: ++position });
			continue;
		}
		if (twin.name === '' && twin.identifier === '') twin.identifier = entry.identifier;
		if (twin.value !== entry.value) {
			warnings.push(
				`formData and formbuilderData disagree on the value of "${shorten(twin.name || twin.identifier || twin.label)}"; the formData value was used`,
			);
		}
	}
	return { fields, warnings };
}

/** What pairs a formData column with a formbuilderData entry (rule 1). */
function fieldIdentity(field: FormField): string {
	return field.name || field.identifier || field.label;
}

function queuesBy(
	fields: FormField[],
	keyOf: (field: FormField) => string,
): Map<string, FormField[]> {
	const queues = new Map<string, FormField[]>();
	for (const field of fields) {
		const queue = queues.get(keyOf(field));
		if (queue) queue.push(field);
		else queues.set(keyOf(field), [field]);
	}
	return queues;
}

/** The first column of a queue not yet paired (a column sits in one queue per rule), marked as paired. */
function nextUnpaired(
	queue: FormField[] | undefined,
	paired: Set<FormField>,
): FormField | undefined {
	while (queue !== undefined && queue.length > 0) {
		const field = queue.shift() as FormField;
		if (!paired.has(field)) {
			paired.add(field);
			return field;
		}
	}
	return undefined;
}

function readFormData(
	formData: unknown,
	warnings: string[],
): { fields: FormField[]; columns: number } {
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
	if (new Set(lengths).size > 1)
		warnings.push(`formData rows have different lengths (${lengths.join(', ')})`);

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
	if (nonText.seen)
		warnings.push('formData has cells that are not text or numbers; they were read as empty');
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
		if (!isRecord(entry)) {
			notObjects++;
			continue;
		}
		for (const key of BUILDER_KEYS) {
			if (entry[key] === undefined || entry[key] === null)
				missing.set(key, (missing.get(key) ?? 0) + 1);
		}
		const field: FormField = {
			name: cellText(entry.fieldName, nonText).trim(),
			identifier: cellText(entry.fieldIdentifire, nonText).trim(),
			label: cellText(entry.fieldLabel, nonText).trim(),
			value: cellText(entry.fieldValue, nonText),
			position: 0,
		};
		if (!field.name && !field.identifier && !field.label && !field.value) {
			empty++;
			continue;
		}
		fields.push(field);
	}
	if (notObjects > 0)
		warnings.push(`formbuilderData has ${entries(notObjects)} that are not objects; skipped`);
	for (const [key, count] of missing)
		warnings.push(`formbuilderData has ${entries(count)} without ${key}`);
	if (empty > 0)
		warnings.push(`formbuilderData has ${entries(empty)} with nothing in them; skipped`);
	if (nonText.seen)
		warnings.push(
			'formbuilderData has values that are not text or numbers; they were read as empty',
		);
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
