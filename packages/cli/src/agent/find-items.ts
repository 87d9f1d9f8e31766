import { createWordSearch, foldForMatching, type OpenEntry } from '@lockit/client-core';
import { AgentError } from './agent-error';
import type { LoadedVault } from './load-vault';

export interface ItemFilters {
  type?: string | undefined;
  folder?: string | undefined;
  tag?: string | undefined;
  /** Include entries in Trash (left out by default). */
  trash?: boolean | undefined;
}

/** The live entries that pass the filters, sorted by name (the web app's sort key). */
export function filterItems(vault: LoadedVault, filters: ItemFilters): OpenEntry[] {
  const folderIds = filters.folder === undefined ? null : foldersNamed(vault, filters.folder);
  const tag = filters.tag === undefined ? null : foldForMatching(filters.tag);
  return vault.entries
    .filter((entry) => (filters.trash ? entry.deletedAt !== null : entry.deletedAt === null))
    .filter((entry) => filters.type === undefined || entry.type === filters.type)
    .filter((entry) => folderIds === null || (entry.folderId !== null && folderIds.has(entry.folderId)))
    .filter((entry) => tag === null || entry.tags.some((t) => foldForMatching(t) === tag))
    .sort((a, b) => (a.sortKey < b.sortKey ? -1 : a.sortKey > b.sortKey ? 1 : 0));
}

/** The entries whose search text holds every word of `query` (the web app's search), after the filters. */
export function searchItems(vault: LoadedVault, query: string, filters: ItemFilters): OpenEntry[] {
  const candidates = filterItems(vault, filters);
  return query.trim() === '' ? candidates : [...createWordSearch(candidates)(query)];
}

/**
 * One item by what the person typed: its id, else its exact name (case and accents aside), else
 * the one item a search finds. None is AgentError 'notFound'; several are 'ambiguous', with the
 * matches listed so the person can pick one by id.
 */
export function findItem(vault: LoadedVault, typed: string, filters: ItemFilters = {}): OpenEntry {
  const live = filterItems(vault, filters);
  const byId = live.find((entry) => entry.id === typed.toLowerCase());
  if (byId) return byId;
  const folded = foldForMatching(typed);
  const named = live.filter((entry) => foldForMatching(entry.serviceName) === folded);
  if (named.length === 1) return named[0]!;
  const found = named.length > 1 ? named : searchItems(vault, typed, filters);
  if (found.length === 1) return found[0]!;
  if (found.length === 0) {
    if (vault.damaged > 0) {
      throw new AgentError(
        'integrity',
        `No item matches "${typed}", and ${vault.damaged} item(s) could not be decrypted and are not shown: they may have been changed on the server.`,
      );
    }
    throw new AgentError('notFound', `No item matches "${typed}".`);
  }
  throw new AgentError(
    'ambiguous',
    `${found.length} items match "${typed}"; name one by its id:\n${found.map((entry) => `  ${entry.id}  ${describe(entry, vault)}`).join('\n')}`,
    found.map((entry) => summary(entry, vault)),
  );
}

/** The folders whose name is `name`, or under it ("Work" holds "Work/Servers"). */
function foldersNamed(vault: LoadedVault, name: string): Set<string> {
  const wanted = foldForMatching(name);
  const ids = new Set<string>();
  for (const [id, folderName] of vault.folders) {
    const folded = foldForMatching(folderName);
    if (folded === wanted || folded.startsWith(`${wanted}/`)) ids.add(id);
  }
  return ids;
}

function describe(entry: OpenEntry, vault: LoadedVault): string {
  const folder = entry.folderId === null ? undefined : vault.folders.get(entry.folderId);
  return [entry.serviceName, entry.username && `(${entry.username})`, folder && `in ${folder}`].filter(Boolean).join(' ');
}

/** What list and search print of an item: nothing secret. */
export function summary(entry: OpenEntry, vault: LoadedVault) {
  return {
    id: entry.id,
    name: entry.serviceName,
    type: entry.type,
    username: entry.username,
    urls: entry.urls,
    folder: entry.folderId === null ? null : (vault.folders.get(entry.folderId) ?? null),
    tags: entry.tags,
    favorite: entry.favorite,
    hasTotp: entry.hasTotp,
    revision: entry.revision,
    updatedAt: entry.updatedAt,
  };
}
