import type { OpenEntry } from '@lockit/client-core';

/** What git asks for (its credential protocol's attributes). */
export interface CredentialQuery {
  protocol?: string | undefined;
  host?: string | undefined;
  path?: string | undefined;
  username?: string | undefined;
  /** Sent by git with store and erase only. */
  password?: string | undefined;
}

/**
 * The logins that fit git's question: a web address with the same scheme (https matches https
 * only; http is never answered with a login saved for https), the same host and port, and, when
 * git sends a path (credential.useHttpPath), a path the saved address is a prefix of, at a "/"
 * boundary. A user name git already has must match. The most specific (longest path) come first.
 */
export function matchCredentials(entries: readonly OpenEntry[], query: CredentialQuery): OpenEntry[] {
  if (!query.host || !query.protocol) return [];
  const scored: { entry: OpenEntry; score: number }[] = [];
  for (const entry of entries) {
    if (entry.deletedAt !== null || entry.type !== 'login') continue;
    if (query.username !== undefined && entry.username !== query.username) continue;
    let best = -1;
    for (const address of entry.urls.length > 0 ? entry.urls : entry.url ? [entry.url] : []) {
      const score = addressScore(address, query);
      if (score > best) best = score;
    }
    if (best >= 0) scored.push({ entry, score: best });
  }
  return scored.sort((a, b) => b.score - a.score).map(({ entry }) => entry);
}

/** -1 when the address does not fit; else the length of its path (longer is more specific). */
function addressScore(address: string, query: CredentialQuery): number {
  let url: URL;
  try {
    url = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(address) ? address : `https://${address}`);
  } catch {
    return -1;
  }
  if (url.protocol !== `${query.protocol}:`) return -1;
  if (url.host.toLowerCase() !== query.host!.toLowerCase()) return -1;
  const saved = url.pathname.replace(/\/+$/, '').replace(/^\/+/, '');
  if (saved === '') return 0;
  if (query.path === undefined) return 0;
  const asked = query.path.replace(/\/+$/, '').replace(/^\/+/, '');
  const fits = asked === saved || asked.startsWith(`${saved}/`) || asked === `${saved}.git` || `${asked}.git` === saved;
  return fits ? saved.length : -1;
}

/** What `store` would do (and does, when applied) with git's credential. */
export type StorePlan =
  { action: 'none'; reason: string } | { action: 'add'; name: string; url: string } | { action: 'update'; entry: OpenEntry };

/**
 * git's `store` (after a credential worked): nothing when a matching login already holds that
 * password (git also calls store after Lockit answered `get` itself); the password of the one
 * matching login with that user name when it differs; a new login for the address otherwise.
 * Several matching logins with other passwords are left alone: which one git meant is unknown.
 */
export function planStore(
  entries: readonly OpenEntry[],
  query: CredentialQuery & { username: string },
  passwords: ReadonlyMap<string, string>,
): StorePlan {
  const matches = matchCredentials(entries, query);
  if (matches.some((entry) => passwords.get(entry.id) !== undefined && passwords.get(entry.id) === query.password)) {
    return { action: 'none', reason: 'already saved' };
  }
  if (matches.length > 1) {
    return { action: 'none', reason: `${matches.length} logins match ${query.host}; none was changed` };
  }
  if (matches.length === 1) return { action: 'update', entry: matches[0]! };
  const path = query.path?.replace(/^\/+/, '').replace(/\.git$/, '');
  const url = `${query.protocol}://${query.host}${path ? `/${path}` : ''}`;
  return { action: 'add', name: `${query.host}${path ? `/${path}` : ''}`, url };
}
