import type { EntryWire } from '@lockit/contract';
import type { StoredEntry } from '../db/repositories/entries-repository';
import type { VaultStateRepository } from '../db/repositories/vault-state-repository';
import { HttpError, SIGN_IN_REQUIRED } from '../http/http-error';
import { buildVaultList, type VaultListSource } from './vault-list-builder';
import type { BuiltList } from './vault-list-cache';

/** Builds tried before one is sent even though a write landed while it was read. */
export const LIST_SNAPSHOT_TRIES = 3;

export interface ListSnapshotSource extends VaultListSource {
  vaultState: Pick<VaultStateRepository, 'find'>;
  userId: string;
}

/**
 * The list answer together with the vault state stored with the vault it shows (decision
 * 0053). The pages are read one statement at a time, not in one transaction (a large vault
 * would hold SQLite's only connection the whole time), so the state and the vault revision are
 * read before the pages and the revision again after them. The same revision both times means
 * no write of the vault committed in between (every write bumps it in its own transaction,
 * together with the state), so the body is the vault at that revision and the state is the one
 * stored with it. Otherwise the list is read again, up to LIST_SNAPSHOT_TRIES times; the last
 * one is sent as read (the browser checks what it is served, and reads again on a mismatch).
 */
export async function buildListSnapshot(
  message: string,
  source: ListSnapshotSource,
  toWire: (row: StoredEntry) => EntryWire,
): Promise<BuiltList> {
  for (let attempt = 1; ; attempt += 1) {
    const before = await source.vaultState.find(source.userId);
    if (!before) throw new HttpError(401, SIGN_IN_REQUIRED);
    const built = await buildVaultList(message, source, toWire);
    const after = await source.vaultState.find(source.userId);
    if (attempt >= LIST_SNAPSHOT_TRIES || after?.vaultRevision === before.vaultRevision) {
      return { ...built, vaultState: before.state };
    }
  }
}
