import { useMemo, useState, type ReactNode } from 'react';
import { TextInput } from '@/components/ui/text-input';
import { createItemSearch } from '../lib/item-search';
import { normaliseQuery, type VaultItem } from '../lib/vault-item';
import { EntryList } from './entry-list';
import type { RowActions } from './entry-row';

interface SearchableEntryListProps {
  /** Every entry, sorted. */
  items: readonly VaultItem[];
  /** Beside the search box (the Add button). */
  besideSearch: ReactNode;
  /** Between the search box and the list (loading and empty-vault messages). */
  notice: ReactNode;
  revealed: ReadonlyMap<string, string>;
  copied: ReadonlySet<string>;
  actions: RowActions;
}

/**
 * The search box and the list of its matches. The query lives here, so a key re-renders
 * this and the list only, never the rest of the vault screen (its header, the dialogs); and
 * it filters in the same render as the box, so the frame that shows the key shows its
 * matches (a deferred filter would show them a frame or more later).
 */
export function SearchableEntryList({ items, besideSearch, notice, revealed, copied, actions }: SearchableEntryListProps) {
  const [query, setQuery] = useState('');
  const search = useMemo(() => createItemSearch(items), [items]);
  const shown = search(normaliseQuery(query));

  return (
    <>
      <div className="flex flex-wrap items-end gap-3">
        <div className="min-w-48 flex-1">
          <TextInput label="Search" type="search" value={query} onChange={(event) => setQuery(event.target.value)} />
        </div>
        {besideSearch}
      </div>
      {notice}
      {items.length > 0 && shown.length === 0 && (
        <p className="py-8 text-center text-slate-400">No passwords match your search.</p>
      )}
      {shown.length > 0 && <EntryList items={shown} revealed={revealed} copied={copied} actions={actions} />}
    </>
  );
}
