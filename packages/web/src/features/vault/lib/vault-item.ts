/**
 * One entry of the vault as the screen holds it after the up-front decryption: service name,
 * user name and web address in the clear (what the list shows and search reads), the
 * password and notes still sealed (decrypted only on reveal, copy or edit).
 */
export interface OpenItem {
  status: 'open';
  id: string;
  serviceName: string;
  username: string;
  url: string | null;
  createdAt: string;
  revision: number;
  /** Ciphertexts bound to this id: opened one at a time, on demand. */
  sealed: { password: string; notes: string | null };
  /** Lowercased service name: the sort key. */
  sortKey: string;
  /** Lowercased service name, user name and web address, for search as you type. */
  searchText: string;
}

/**
 * An entry that did not decrypt or did not match the wire contract ('undecryptable'), or
 * came at a lower revision than this tab already saw ('rolled-back'). Nothing of it is shown
 * (never wrong data, nor old data as if current); it can only be deleted.
 */
export interface DamagedItem {
  status: 'damaged';
  reason: DamageReason;
  id: string;
  createdAt: string;
  sortKey: '';
  searchText: '';
}

export type VaultItem = OpenItem | DamagedItem;

export type DamageReason = 'undecryptable' | 'rolled-back';

export const DAMAGED_MESSAGE = 'This entry could not be decrypted. It may have been changed on the server.';
export const ROLLED_BACK_MESSAGE =
  'This entry is older than the version this tab has already shown. The server may have rolled it back.';

export const DAMAGE_MESSAGES: Record<DamageReason, string> = {
  undecryptable: DAMAGED_MESSAGE,
  'rolled-back': ROLLED_BACK_MESSAGE,
};

export function damagedItem(id: string, createdAt = '', reason: DamageReason = 'undecryptable'): DamagedItem {
  return { status: 'damaged', reason, id, createdAt, sortKey: '', searchText: '' };
}

/**
 * By service name ignoring case, then by creation time, then by id: a total order, so the
 * list never reshuffles between renders. Plain code-unit comparison of prepared keys keeps a
 * sort of 10,000 entries to a few milliseconds (Intl collation would cost ten times more).
 * Damaged entries have an empty key and come first, where they are noticed.
 */
export function compareItems(a: VaultItem, b: VaultItem): number {
  if (a.sortKey !== b.sortKey) return a.sortKey < b.sortKey ? -1 : 1;
  if (a.createdAt !== b.createdAt) return a.createdAt < b.createdAt ? -1 : 1;
  if (a.id !== b.id) return a.id < b.id ? -1 : 1;
  return 0;
}

/** `query` already trimmed and lowercased; an empty query matches everything. */
export function matchesQuery(item: VaultItem, query: string): boolean {
  return query === '' || item.searchText.includes(query);
}

export function normaliseQuery(text: string): string {
  return text.trim().toLowerCase();
}
