import { openEntry } from '../vault/open-entries';
import type { VaultEntry } from '../vault/vault-entry';
import type { PendingWrite } from './pending-writes';

/**
 * The entry as it will be once `write` is sent, to show while it waits: the queued content
 * opened (at the revision the write will make), or `base` moved to or from Trash. `base` is the
 * entry as shown before the write (null for an add). Null when there is nothing to show (a move
 * of an entry not in the list, content that does not open).
 *
 * Security invariant: the view is opened without the revision memory, so a revision the server
 * has not given yet is never remembered as seen: what the server answers stays checked as before.
 */
export async function pendingEntryView(
  vaultKey: CryptoKey,
  write: PendingWrite,
  base: VaultEntry | undefined,
): Promise<VaultEntry | null> {
  const at = new Date(write.queuedAt).toISOString();
  if (write.kind === 'add' || write.kind === 'update') {
    const revision = write.kind === 'add' ? 1 : write.revision + 1;
    const deletedAt = base?.status === 'open' ? base.deletedAt : null;
    const createdAt = base?.createdAt ?? at;
    return openEntry(vaultKey, { ...write.sealed, revision, createdAt, updatedAt: at, deletedAt });
  }
  if (base?.status !== 'open') return null;
  const deletedAt = write.kind === 'trash' ? new Date(write.trashedAt).toISOString() : null;
  return { ...base, revision: write.revision + 1, deletedAt, updatedAt: at };
}

/** `entries` with `writes` shown over them, in order (a reopened vault shows what still waits). */
export async function withPendingWrites(
  vaultKey: CryptoKey,
  entries: readonly VaultEntry[],
  writes: readonly PendingWrite[],
): Promise<VaultEntry[]> {
  if (writes.length === 0) return [...entries];
  const byId = new Map(entries.map((entry) => [entry.id, entry]));
  for (const write of writes) {
    const view = await pendingEntryView(vaultKey, write, byId.get(write.id));
    if (view) byId.set(write.id, view);
  }
  return [...byId.values()];
}
