import { useId, useMemo, useState, type ReactNode } from 'react';
import { TextInput } from '@/components/ui/text-input';
import type { EntrySort } from '../lib/entry-filter';
import { useWarmSearch } from '../hooks/use-warm-search';
import type { VaultEntry } from '@lockit/client-core';
import { createWordSearch } from '@lockit/client-core';
import { EntryList } from './entry-list';
import type { RowActions, RowCopyField } from './entry-row';

export const SORT_LABELS: Record<EntrySort, string> = { name: 'Name', edited: 'Last edited', used: 'Last used' };

interface SearchableEntryListProps {
  /** The entries of the chosen filter, in the chosen order. */
  entries: readonly VaultEntry[];
  /** The list's heading: the chosen filter ("All entries", "Trash", a folder). */
  heading: string;
  sort: EntrySort;
  onSortChange: (sort: EntrySort) => void;
  /** Beside the search box (the Add button). */
  besideSearch: ReactNode;
  /** Before the heading (the phone's Filters button). */
  beforeHeading?: ReactNode;
  /** Between the search box and the list (loading and empty-vault messages). */
  notice: ReactNode;
  /** Shown when the filter itself holds nothing (and no search is typed). */
  emptyFilterText: string | null;
  revealed: ReadonlyMap<string, string>;
  copied: ReadonlyMap<string, RowCopyField>;
  /** The item view sits beside the list on wide screens: rows take two lines there. */
  besideItemView: boolean;
  /** An entry to bring into view when it is listed (EntryList). */
  reveal?: { id: string } | null;
  actions: RowActions;
}

/** One formatter: `toLocaleString()` builds a new one at every call, a tenth of a millisecond of each search key. */
const COUNT_FORMAT = new Intl.NumberFormat();

export const countText = (count: number) => `${COUNT_FORMAT.format(count)} ${count === 1 ? 'entry' : 'entries'}`;

/**
 * The list's header (heading, count of matching entries, sort), the search box and the list
 * of its matches. The query lives here, so a key re-renders this and the list only, never the
 * rest of the vault screen (the filter column, the item view, the dialogs); and it filters in
 * the same render as the box, so the frame that shows the key shows its matches.
 */
export function SearchableEntryList({
  entries,
  heading,
  sort,
  onSortChange,
  besideSearch,
  beforeHeading,
  notice,
  emptyFilterText,
  revealed,
  copied,
  besideItemView,
  reveal = null,
  actions,
}: SearchableEntryListProps) {
  const [query, setQuery] = useState('');
  const search = useMemo(() => createWordSearch(entries), [entries]);
  useWarmSearch(entries);
  const shown = search(query);
  const sortId = useId();
  const headingId = useId();

  return (
    <section aria-labelledby={headingId} className="flex min-w-0 flex-col gap-3">
      <div className="flex flex-wrap items-end gap-3">
        <div className="min-w-48 flex-1">
          <TextInput label="Search" type="search" value={query} onChange={(event) => setQuery(event.target.value)} />
        </div>
        {besideSearch}
      </div>
      <div className="flex flex-wrap items-center gap-x-3 gap-y-2">
        {beforeHeading}
        <h2 id={headingId} className="min-w-0 truncate text-lg font-semibold text-white">
          {heading}
        </h2>
        <p role="status" className="text-sm text-slate-400">
          {countText(shown.length)}
        </p>
        <div className="ml-auto flex items-center gap-2">
          <label htmlFor={sortId} className="text-sm text-slate-300">
            Sort by
          </label>
          <select
            id={sortId}
            value={sort}
            onChange={(event) => onSortChange(event.target.value as EntrySort)}
            className="rounded-lg border border-slate-700 bg-slate-800 px-2 py-1.5 text-sm text-white outline-none focus:border-cyan-400"
          >
            {(Object.keys(SORT_LABELS) as EntrySort[]).map((value) => (
              <option key={value} value={value}>
                {SORT_LABELS[value]}
              </option>
            ))}
          </select>
        </div>
      </div>
      {notice}
      {entries.length > 0 && shown.length === 0 && (
        <p className="py-8 text-center text-slate-400">No passwords match your search.</p>
      )}
      {entries.length === 0 && emptyFilterText !== null && <p className="py-8 text-center text-slate-400">{emptyFilterText}</p>}
      {shown.length > 0 && (
        <EntryList
          entries={shown}
          revealed={revealed}
          copied={copied}
          besideItemView={besideItemView}
          reveal={reveal}
          actions={actions}
        />
      )}
    </section>
  );
}
