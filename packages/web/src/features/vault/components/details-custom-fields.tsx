import type { ReactNode } from 'react';
import type { EntrySecrets, OpenEntry } from '@lockit/client-core';
import { NotesField, StaticField, type FieldOf } from './details-field';

/** Any entry's custom fields (text, hidden until revealed, yes/no), then its notes. */
export function customFieldSections(
  entry: OpenEntry,
  secrets: EntrySecrets | null,
  field: FieldOf,
  copied: ReadonlySet<string>,
  copy: (key: string, text: string, what: string) => void,
): ReactNode[] {
  const sections: ReactNode[] = [];
  for (const custom of entry.fields) {
    const key = `field-${custom.id}`;
    const label = custom.label || 'Field';
    if (custom.kind === 'boolean') {
      sections.push(<StaticField key={key} label={label} value={custom.value === 'true' ? 'Yes' : 'No'} />);
    } else if (custom.kind === 'hidden') {
      const value = secrets?.hidden[custom.id];
      if (value !== undefined) sections.push(field(key, label, value, { hidden: true, what: `the field “${label}”` }));
    } else {
      sections.push(field(key, label, custom.value ?? '', { what: `the field “${label}”` }));
    }
  }
  if (secrets && secrets.notes !== '')
    sections.push(
      <NotesField
        key="notes"
        notes={secrets.notes}
        copied={copied.has('notes')}
        onCopy={() => copy('notes', secrets.notes, 'the notes')}
      />,
    );
  return sections;
}
