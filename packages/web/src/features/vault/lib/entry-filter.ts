import { foldForMatching, matchesWords, nameSortKey, queryWords } from '@lockit/client-core';

/** What the list knows of an entry, from its opened overview (never a secret). */
export interface EntrySummary {
  id: string;
  type: 'login' | 'note' | 'card' | 'identity' | 'sshKey';
  name: string;
  username: string;
  urls: string[];
  tags: string[];
  folderId: string | null;
  favorite: boolean;
  createdAt: string;
  updatedAt: string;
  deletedAt: string | null;
  lastUsedAt?: number;
  /** nameSortKey(name), when the caller already has it (an OpenEntry's sortKey). */
  sortKey?: string;
}

/** A folder with its opened name; nesting is by name: "Work/Banking" is inside "Work". */
export interface FolderSummary {
  id: string;
  name: string;
}

/**
 * Which entries the list shows. Every filter but `trash` leaves trashed entries out; `trash`
 * shows only them. `folder` with `folderId: null` is the entries in no folder (or in a folder
 * that no longer exists); `includeSubfolders` adds the folders nested under its name, and
 * any other folder of the very same name (two devices may each have made one).
 */
export type EntryFilter =
  | { kind: 'all' }
  | { kind: 'favorites' }
  | { kind: 'type'; type: EntrySummary['type'] }
  | { kind: 'folder'; folderId: string | null; includeSubfolders: boolean }
  | { kind: 'tag'; tag: string }
  | { kind: 'trash' };

/**
 * name: by name in the person's language, ignoring case and accents; edited: newest change
 * first; used: most recently used first, never-used ones last. Ties go by name, then by id,
 * so the order never changes between renders.
 */
export type EntrySort = 'name' | 'edited' | 'used';

/** The folder tree, built from folder names. */
export interface FolderNode {
  /** The last part of the path: "Banking" for "Work/Banking". */
  name: string;
  /** The whole path, parts trimmed and joined by "/". */
  path: string;
  /**
   * The folder with this path; null for a folder only implied by a deeper one ("A" when only
   * "A/B/C" exists), which holds no entries of its own.
   */
  id: string | null;
  /**
   * Every folder with this path or beneath it: the folders an `includeSubfolders` filter on
   * any folder of this path shows.
   */
  subtreeIds: string[];
  children: FolderNode[];
}

export interface TagCount {
  tag: string;
  count: number;
}

const collator = new Intl.Collator(undefined, { sensitivity: 'base', numeric: true });

/** "Work / Banking/" -> "Work/Banking": the parts a folder name nests by. */
export function folderPath(name: string): string {
  return pathParts(name).join('/');
}

function pathParts(name: string): string[] {
  return name
    .split('/')
    .map((part) => part.trim())
    .filter((part) => part !== '');
}

const isTrashed = (entry: EntrySummary) => entry.deletedAt !== null;

/**
 * The folded text an entry is searched in, kept per summary object: summaries are values (an
 * edit makes a new one), so only the folder's name can change under a cached text.
 */
const searchTexts = new WeakMap<EntrySummary, { folderName: string; text: string }>();

/** `folderName` is already folded: it is the same for many entries. */
function searchTextOf(entry: EntrySummary, folderName: string): string {
  const cached = searchTexts.get(entry);
  if (cached && cached.folderName === folderName) return cached.text;
  // Field by field, so one accented name does not send the addresses through NFKD as well.
  let text = `${foldForMatching(entry.name)}\n${foldForMatching(entry.username)}\n${folderName}`;
  for (const url of entry.urls) text += `\n${foldForMatching(url)}`;
  for (const tag of entry.tags) text += `\n${foldForMatching(tag)}`;
  searchTexts.set(entry, { folderName, text });
  return text;
}

function folderPredicate(
  filter: Extract<EntryFilter, { kind: 'folder' }>,
  folders: readonly FolderSummary[],
): (entry: EntrySummary) => boolean {
  const known = new Set(folders.map((folder) => folder.id));
  if (filter.folderId === null) return (entry) => entry.folderId === null || !known.has(entry.folderId);
  const folder = folders.find((candidate) => candidate.id === filter.folderId);
  if (!folder || !filter.includeSubfolders) return (entry) => entry.folderId === filter.folderId;
  const path = folderPath(folder.name);
  const ids = new Set(
    folders
      .filter((candidate) => {
        const candidatePath = folderPath(candidate.name);
        return candidatePath === path || candidatePath.startsWith(`${path}/`);
      })
      .map((candidate) => candidate.id),
  );
  return (entry) => entry.folderId !== null && ids.has(entry.folderId);
}

function filterPredicate(filter: EntryFilter, folders: readonly FolderSummary[]): (entry: EntrySummary) => boolean {
  switch (filter.kind) {
    case 'all':
      return (entry) => !isTrashed(entry);
    case 'favorites':
      return (entry) => !isTrashed(entry) && entry.favorite;
    case 'type':
      return (entry) => !isTrashed(entry) && entry.type === filter.type;
    case 'folder': {
      const inFolder = folderPredicate(filter, folders);
      return (entry) => !isTrashed(entry) && inFolder(entry);
    }
    case 'tag':
      return (entry) => !isTrashed(entry) && entry.tags.includes(filter.tag);
    case 'trash':
      return isTrashed;
  }
}

/** Sort keys of summaries given without one, kept per summary object (summaries are values). */
const sortKeys = new WeakMap<EntrySummary, string>();
function sortKeyOf(entry: EntrySummary): string {
  if (entry.sortKey !== undefined) return entry.sortKey;
  let key = sortKeys.get(entry);
  if (key === undefined) {
    key = nameSortKey(entry.name);
    sortKeys.set(entry, key);
  }
  return key;
}

/** By name (nameSortKey: no case, no accents, numbers by value), then by id: a total order. */
function byName(a: EntrySummary, b: EntrySummary): number {
  const keyA = sortKeyOf(a);
  const keyB = sortKeyOf(b);
  if (keyA !== keyB) return keyA < keyB ? -1 : 1;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

function timeOf(iso: string): number {
  const time = Date.parse(iso);
  return Number.isNaN(time) ? -Infinity : time;
}

function sorted(entries: EntrySummary[], sort: EntrySort): EntrySummary[] {
  if (sort === 'name') return entries.sort(byName);
  // Decorate once: parsing dates inside the comparison would parse each one ~log n times.
  const keyed = entries.map((entry) => ({
    entry,
    key: sort === 'edited' ? timeOf(entry.updatedAt) : (entry.lastUsedAt ?? -Infinity),
  }));
  keyed.sort((a, b) => {
    if (a.key !== b.key) return a.key > b.key ? -1 : 1;
    return byName(a.entry, b.entry);
  });
  return keyed.map(({ entry }) => entry);
}

/**
 * The entries the list shows for a filter, a search query and a sort, as a new array (the
 * input is not reordered). The query's words (folded by foldForSearch) must all appear in
 * the entry's name, user name, addresses, tags or folder name.
 */
export function filterEntries(
  entries: readonly EntrySummary[],
  filter: EntryFilter,
  query: string,
  folders: readonly FolderSummary[],
  sort: EntrySort,
): EntrySummary[] {
  const inFilter = filterPredicate(filter, folders);
  const words = queryWords(query);
  let shown = entries.filter(inFilter);
  if (words.length > 0) {
    const folderNames = new Map(folders.map((folder) => [folder.id, foldForMatching(folderPath(folder.name))]));
    shown = shown.filter((entry) => {
      const folderName = entry.folderId === null ? '' : (folderNames.get(entry.folderId) ?? '');
      return matchesWords(searchTextOf(entry, folderName), words);
    });
  }
  return sorted(shown, sort);
}

/** The distinct tags of the entries not in the trash, by name, each with how many entries carry it. */
export function tagsOf(entries: readonly EntrySummary[]): TagCount[] {
  const counts = new Map<string, number>();
  for (const entry of entries) {
    if (isTrashed(entry)) continue;
    // An entry lists a tag once however often its document repeats it.
    for (const tag of new Set(entry.tags)) counts.set(tag, (counts.get(tag) ?? 0) + 1);
  }
  return Array.from(counts, ([tag, count]) => ({ tag, count })).sort(
    (a, b) => collator.compare(a.tag, b.tag) || (a.tag < b.tag ? -1 : a.tag > b.tag ? 1 : 0),
  );
}

/**
 * How many entries not in the trash each folder holds directly, by folder id; entries in no
 * folder (or in one that no longer exists) are counted under null. A subtree's count is the
 * sum over its node's subtreeIds.
 */
export function countByFolder(entries: readonly EntrySummary[], folders: readonly FolderSummary[]): Map<string | null, number> {
  const known = new Set(folders.map((folder) => folder.id));
  const counts = new Map<string | null, number>();
  for (const entry of entries) {
    if (isTrashed(entry)) continue;
    const key = entry.folderId !== null && known.has(entry.folderId) ? entry.folderId : null;
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return counts;
}

interface MutableNode extends FolderNode {
  children: MutableNode[];
}

/**
 * The folders as a tree by name: "Work/Banking" under "Work". A folder whose parents do not
 * exist still shows under them ("A/B/C" alone gives A > B > C, A and B with a null id). Two
 * folders with the same path (made on two devices at once) are two siblings; what nests
 * under that path goes under the first of them. A folder with a blank name is a root node
 * named "" (the screen names it). Siblings are sorted by name, ignoring case and accents,
 * then by id.
 */
export function folderTree(folders: readonly FolderSummary[]): FolderNode[] {
  const ordered = folders
    .map((folder) => ({ folder, parts: pathParts(folder.name) }))
    .sort((a, b) => a.parts.length - b.parts.length || (a.folder.id < b.folder.id ? -1 : a.folder.id > b.folder.id ? 1 : 0));
  const roots: MutableNode[] = [];
  /** The node that holds the children of each path. */
  const byPath = new Map<string, MutableNode>();

  const nodeAt = (parts: string[]): MutableNode => {
    const path = parts.join('/');
    const existing = byPath.get(path);
    if (existing) return existing;
    const node: MutableNode = { name: parts[parts.length - 1] ?? '', path, id: null, subtreeIds: [], children: [] };
    const siblings = parts.length > 1 ? nodeAt(parts.slice(0, -1)).children : roots;
    siblings.push(node);
    byPath.set(path, node);
    return node;
  };

  // Shallow folders first, so a real folder takes its own place before a deeper one implies it.
  for (const { folder, parts } of ordered) {
    const path = parts.join('/');
    const existing = byPath.get(path);
    if (existing && existing.id === null) {
      existing.id = folder.id;
    } else if (existing) {
      const siblings = parts.length > 1 ? nodeAt(parts.slice(0, -1)).children : roots;
      siblings.push({ name: existing.name, path, id: folder.id, subtreeIds: [], children: [] });
    } else {
      nodeAt(parts).id = folder.id;
    }
  }

  /** Sorts each level and fills subtreeIds; answers every folder id at or below `nodes`. */
  const finish = (nodes: MutableNode[]): string[] => {
    nodes.sort((a, b) => collator.compare(a.name, b.name) || compareIds(a.id, b.id));
    const idsAt = new Map<string, string[]>();
    const idsBelow = new Map<string, string[]>();
    for (const node of nodes) {
      // Only the first node of a path has children; its duplicates share what is below it.
      if (node.children.length > 0) idsBelow.set(node.path, finish(node.children));
      if (node.id !== null) idsAt.set(node.path, [...(idsAt.get(node.path) ?? []), node.id]);
    }
    const subtreeOf = (path: string) => [...(idsAt.get(path) ?? []), ...(idsBelow.get(path) ?? [])];
    for (const node of nodes) node.subtreeIds = subtreeOf(node.path);
    return [...new Set(nodes.map((node) => node.path))].flatMap(subtreeOf);
  };
  finish(roots);
  return roots;
}

function compareIds(a: string | null, b: string | null): number {
  if (a === b) return 0;
  if (a === null) return -1;
  if (b === null) return 1;
  return a < b ? -1 : 1;
}
