import { matchesQuery, normaliseQuery, type OpenEntry } from '@lockit/client-core';
import type { ItemSummary } from '../shared/messages';
import { isFillable } from './fill-item';

const byName = new WeakMap<readonly OpenEntry[], OpenEntry[]>();

/**
 * One list of entries in name order, sorted on first use and kept as long as that list is (the
 * session answers the same array until it catches up): a list request then costs a pass over
 * the vault, not a sort of it.
 */
export function inNameOrder(entries: readonly OpenEntry[]): OpenEntry[] {
  let sorted = byName.get(entries);
  if (!sorted) {
    sorted = [...entries].sort((a, b) => a.sortKey.localeCompare(b.sortKey));
    byName.set(entries, sorted);
  }
  return sorted;
}

/**
 * The popup's list: the entries matching `query`, the tab's site's logins (`forTab`) first,
 * then by name, at most `limit` of them (the popup's first page; the whole list without one),
 * with no secret in any. Only the summaries answered are built.
 */
export function itemSummaries(
  entries: readonly OpenEntry[],
  { query, forTab, pageUrl, limit }: { query: string; forTab: ReadonlySet<OpenEntry>; pageUrl: string | null; limit?: number },
): ItemSummary[] {
  const folded = normaliseQuery(query);
  const matchesTab = (entry: OpenEntry) => entry.type === 'login' && forTab.has(entry);
  // A card names no site: it may be filled into any https page.
  const https = pageUrl !== null && URL.canParse(pageUrl) && new URL(pageUrl).protocol === 'https:';
  const found = inNameOrder(entries).filter((entry) => matchesQuery(entry, folded));
  const ordered = [...found.filter(matchesTab), ...found.filter((entry) => !matchesTab(entry))];
  return ordered.slice(0, limit ?? ordered.length).map((entry) => {
    const forThisTab = matchesTab(entry);
    return {
      id: entry.id,
      type: entry.type,
      name: entry.name,
      username: entry.username,
      url: entry.urls[0] ?? entry.url,
      hasTotp: entry.hasTotp,
      matchesTab: forThisTab,
      canFill: isFillable(entry) && (forThisTab || (entry.type === 'card' && https)),
    };
  });
}
