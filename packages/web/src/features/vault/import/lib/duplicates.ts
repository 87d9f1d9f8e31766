import type { OpenEntry, VaultEntry } from '@lockit/client-core';

/**
 * The host of a web address as people compare sites: lower case, without "www.", with or
 * without a scheme in the file ("example.com/login" counts). '' when there is none.
 */
export function siteHost(url: string): string {
  const trimmed = url.trim();
  if (trimmed === '') return '';
  try {
    const parsed = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(trimmed) ? trimmed : `https://${trimmed}`);
    return parsed.hostname.toLowerCase().replace(/^www\./, '');
  } catch {
    return '';
  }
}

/**
 * What makes two logins "the same": a site host they share and the same user name (ignoring
 * case and surrounding spaces). A login without a web address is never a duplicate: a name
 * alone would merge different accounts ("Email" and "Email").
 */
export function duplicateKeys(urls: readonly string[], username: string): string[] {
  const user = username.trim().toLowerCase();
  const hosts = new Set(urls.map(siteHost).filter((host) => host !== ''));
  return [...hosts].map((host) => `${host}\n${user}`);
}

/** An index of the live logins of the vault by duplicate key; Trash is not searched. */
export function indexExisting(entries: readonly VaultEntry[]): Map<string, OpenEntry> {
  const index = new Map<string, OpenEntry>();
  for (const entry of entries) {
    if (entry.status !== 'open' || entry.deletedAt !== null || entry.type !== 'login') continue;
    for (const key of duplicateKeys(entry.urls, entry.username)) if (!index.has(key)) index.set(key, entry);
  }
  return index;
}

/** The existing login an imported login duplicates, or null. Items of one file are never matched to each other. */
export function duplicateOf(
  index: ReadonlyMap<string, OpenEntry>,
  item: { type: string; urls: readonly string[]; username: string },
): OpenEntry | null {
  if (item.type !== 'login') return null;
  for (const key of duplicateKeys(item.urls, item.username)) {
    const found = index.get(key);
    if (found) return found;
  }
  return null;
}
