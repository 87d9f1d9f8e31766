/**
 * When this device last used each entry (copied one of its fields, opened one of its web
 * addresses), for the list's "Last used" sort. Per device and per account, in localStorage as
 * `{ [entryId]: epochMs }` under `lockit.lastUsed.<account>`.
 *
 * Not a secret, so not encrypted: entry ids are random UUIDs that the server already knows,
 * and the times say only when this browser copied something from an entry, never what. It is
 * kept out of the vault (and so off the server) because it is per device, as in the best
 * password managers' "last used" columns. Anything unreadable under the key counts as empty.
 */
export type LastUsedTimes = Readonly<Record<string, number>>;

const STORAGE_PREFIX = 'lockit.lastUsed.';
/** Enough for any real vault; past it, the oldest uses are dropped so the item stays small. */
export const LAST_USED_LIMIT = 20_000;

const storageKeyOf = (account: string) => `${STORAGE_PREFIX}${account.toLowerCase()}`;

export function readLastUsed(account: string): LastUsedTimes {
  try {
    const parsed: unknown = JSON.parse(window.localStorage.getItem(storageKeyOf(account)) ?? '{}');
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return {};
    const times: Record<string, number> = {};
    for (const [id, time] of Object.entries(parsed)) if (typeof time === 'number' && Number.isFinite(time)) times[id] = time;
    return times;
  } catch {
    return {};
  }
}

/** Records a use now; returns the new times (a new object, so React sees the change). */
export function noteUsed(account: string, entryId: string, current: LastUsedTimes, now = Date.now()): LastUsedTimes {
  let next: Record<string, number> = { ...current, [entryId]: now };
  const ids = Object.keys(next);
  if (ids.length > LAST_USED_LIMIT) {
    const newest = ids.sort((a, b) => (next[b] ?? 0) - (next[a] ?? 0)).slice(0, LAST_USED_LIMIT);
    next = Object.fromEntries(newest.map((id) => [id, next[id] ?? 0]));
  }
  try {
    window.localStorage.setItem(storageKeyOf(account), JSON.stringify(next));
  } catch {
    // Storage full or disabled: the sort still follows this tab's uses.
  }
  return next;
}

/** Forgets an entry deleted for good. */
export function forgetUsed(account: string, entryId: string, current: LastUsedTimes): LastUsedTimes {
  if (!(entryId in current)) return current;
  const { [entryId]: _gone, ...rest } = current;
  try {
    window.localStorage.setItem(storageKeyOf(account), JSON.stringify(rest));
  } catch {
    // As above.
  }
  return rest;
}
