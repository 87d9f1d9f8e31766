import { useId } from 'react';
import type { CsvMapping, CsvMappingField, CsvPreview } from '../lib/import-formats';

const TARGETS: Array<{ field: CsvMappingField; label: string }> = [
  { field: 'name', label: 'Name' },
  { field: 'username', label: 'User name' },
  { field: 'password', label: 'Password' },
  { field: 'url', label: 'Web address' },
  { field: 'notes', label: 'Notes' },
  { field: 'totp', label: 'One-time code secret' },
  { field: 'folder', label: 'Folder' },
  { field: 'tags', label: 'Tags' },
  { field: 'favorite', label: 'Favourite' },
  { field: 'type', label: 'Type' },
];

/** The first non-empty example of a column, shortened; secrets of the file are shown to their owner only. */
function exampleOf(preview: CsvPreview, column: string): string {
  const index = preview.header.indexOf(column);
  const value = preview.examples.map((row) => row[index] ?? '').find((cell) => cell.trim() !== '') ?? '';
  return value.length > 40 ? `${value.slice(0, 39)}…` : value;
}

function columnOf(mapping: CsvMapping, field: CsvMappingField): string {
  const value = mapping[field];
  return Array.isArray(value) ? (value[0] ?? '') : (value ?? '');
}

/**
 * Which column holds which field, for a CSV of no known format: each field a select of the
 * file's columns with an example value beside it. Columns left unmapped become custom fields.
 */
export function CsvMappingForm({
  preview,
  mapping,
  onChange,
}: {
  preview: CsvPreview;
  mapping: CsvMapping;
  onChange: (mapping: CsvMapping) => void;
}) {
  const id = useId();
  const set = (field: CsvMappingField, column: string) => {
    const next: CsvMapping = { ...mapping };
    if (column === '') delete next[field];
    else if (field === 'url') next.url = [column];
    else next[field] = column;
    onChange(next);
  };
  const mapped = new Set(TARGETS.map((target) => columnOf(mapping, target.field)).filter((column) => column !== ''));
  const unmapped = preview.header.filter((column) => !mapped.has(column));
  return (
    <fieldset className="flex flex-col gap-3">
      <legend className="mb-2 font-semibold text-slate-100">Choose the columns ({preview.records} rows)</legend>
      {TARGETS.map((target) => {
        const column = columnOf(mapping, target.field);
        return (
          <div key={target.field} className="grid gap-1 sm:grid-cols-[12rem_1fr_1fr] sm:items-center">
            <label htmlFor={`${id}-${target.field}`} className="text-sm font-medium text-slate-300">
              {target.label}
            </label>
            <select
              id={`${id}-${target.field}`}
              value={column}
              onChange={(event) => set(target.field, event.target.value)}
              className="rounded-lg border border-slate-700 bg-slate-800 px-3 py-2 text-white"
            >
              <option value="">(none)</option>
              {preview.header.map((name) => (
                <option key={name} value={name}>
                  {name}
                </option>
              ))}
            </select>
            <span className="truncate text-sm text-slate-400">
              {column === '' ? '' : `e.g. ${exampleOf(preview, column) || '(empty)'}`}
            </span>
          </div>
        );
      })}
      {unmapped.length > 0 && <p className="text-sm text-slate-300">Kept as custom fields: {unmapped.join(', ')}</p>}
    </fieldset>
  );
}
