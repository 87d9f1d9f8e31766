import { useCallback, useMemo } from 'react';
import {
  countByFolder,
  filterEntries,
  folderTree,
  tagsOf,
  type EntryFilter,
  type EntrySort,
  type EntrySummary,
} from '../lib/entry-filter';
import type { LastUsedTimes } from '../lib/last-used';
import type { OpenEntry, OpenFolder, VaultEntry } from '@lockit/client-core';
import type { FilterCounts } from '../components/filter-sidebar';

/** An entry as filterEntries sees it, holding the entry it stands for. */
interface ListedSummary extends EntrySummary {
  entry: OpenEntry;
}

const summaryOf = (entry: OpenEntry): ListedSummary => ({
  id: entry.id,
  type: entry.type,
  name: entry.serviceName,
  username: entry.username,
  urls: entry.urls,
  tags: entry.tags,
  folderId: entry.folderId,
  favorite: entry.favorite,
  createdAt: entry.createdAt,
  updatedAt: entry.updatedAt,
  deletedAt: entry.deletedAt,
  sortKey: entry.sortKey,
  entry,
});

const ALL: EntryFilter = { kind: 'all' };
const TRASH: EntryFilter = { kind: 'trash' };

/**
 * What the vault screen lists for a filter and a sort, with the filter column's counts, folder
 * tree and tags. Each is remade only when what it depends on changes: a filter switch re-filters
 * the already sorted entries (one pass), never sorts or counts them again.
 */
export function useVaultListing(
  entries: readonly VaultEntry[],
  folders: readonly OpenFolder[],
  filter: EntryFilter,
  sort: EntrySort,
  lastUsed: LastUsedTimes,
) {
  // What the filters work on: one summary per open entry, remade only when the entries change
  // (and, for the Last used sort, when a use is noted).
  const summaries = useMemo(() => entries.flatMap((entry) => (entry.status === 'open' ? [summaryOf(entry)] : [])), [entries]);
  const sortable = useMemo(
    () => (sort === 'used' ? summaries.map((summary) => ({ ...summary, lastUsedAt: lastUsed[summary.id] })) : summaries),
    [summaries, sort, lastUsed],
  );
  // Sorted once per sort; a filter then sorts an already sorted array, which costs one pass.
  const ordered = useMemo(
    () => [...filterEntries(sortable, ALL, '', folders, sort), ...filterEntries(sortable, TRASH, '', folders, sort)],
    [sortable, folders, sort],
  );
  const damaged = useMemo(() => entries.filter((entry) => entry.status === 'damaged'), [entries]);
  const listed = useMemo<VaultEntry[]>(() => {
    const matching = (filterEntries(ordered, filter, '', folders, sort) as ListedSummary[]).map((summary) => summary.entry);
    // Damaged entries have nothing to filter by: they head All (or Trash), where they are noticed.
    if (filter.kind !== 'all' && filter.kind !== 'trash') return matching;
    const inTrash = filter.kind === 'trash';
    const heads = damaged.filter((entry) => (entry.deletedAt !== null) === inTrash);
    return heads.length === 0 ? matching : [...heads, ...matching];
  }, [ordered, filter, folders, sort, damaged]);

  const counts = useMemo<FilterCounts>(() => {
    const byType = { login: 0, note: 0, card: 0, identity: 0, sshKey: 0 };
    let all = 0;
    let favorites = 0;
    let trash = 0;
    for (const summary of summaries) {
      if (summary.deletedAt !== null) {
        trash += 1;
        continue;
      }
      all += 1;
      byType[summary.type] += 1;
      if (summary.favorite) favorites += 1;
    }
    for (const entry of damaged)
      if (entry.deletedAt === null) all += 1;
      else trash += 1;
    return { all, favorites, byType, byFolder: countByFolder(summaries, folders), trash };
  }, [summaries, damaged, folders]);
  const tree = useMemo(() => folderTree(folders), [folders]);
  const tags = useMemo(() => tagsOf(summaries), [summaries]);
  const folderNameOf = useCallback((id: string) => folders.find((folder) => folder.id === id)?.name, [folders]);

  return { listed, counts, tree, tags, folderNameOf };
}
