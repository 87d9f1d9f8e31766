import { ACCOUNT_DOCUMENT_KINDS, entrySchema, parseVaultState, type EntryWire, type VaultStateParts } from '@lockit/contract';
import type { ApiClient } from '../../http/api-client';
import { fetchServedEntries } from '../../vault/integrity/vault-snapshot';
import { fetchEntryHistories } from '../../vault/writes/entry-history';
import type { ResealUnit } from './reseal';

/** Everything a rotation re-encrypts, as the server served it, and the vault revision it was read at. */
export interface RotationSnapshot {
  vaultRevision: number;
  /** The integrity state the server holds (null: none yet). */
  state: VaultStateParts | null;
  /** Entries (each with its history), folders, account documents and files' keys. */
  units: ResealUnit[];
  /** Entries the server sent that are not entries at all (no usable id or fields): damaged. */
  malformed: number;
}

/**
 * Reads the whole vault with the readers the vault's own check and history use: live entries
 * and Trash (the list as served), every earlier version (a history left out is
 * MissingHistoryError), folders, account documents, and every file's wrapped key. The vault revision is read FIRST: any
 * write after it moves the server's revision on, so the start (which must name the current
 * revision) refuses a rotation built on a copy older than the vault, and nothing written
 * meanwhile can be lost.
 */
export async function readVaultForRotation(api: ApiClient): Promise<RotationSnapshot> {
  const { state, vaultRevision } = (await api.call('get-vault-state', {})).data;
  const [served, folders, documents, files] = await Promise.all([
    fetchServedEntries(api),
    api.call('list-folders', {}),
    Promise.all(ACCOUNT_DOCUMENT_KINDS.map((kind) => api.call('get-account-document', { params: { kind } }))),
    api.call('list-account-attachments', {}),
  ]);
  const entries: EntryWire[] = [];
  for (const item of served.list) {
    const parsed = entrySchema.safeParse(item);
    if (parsed.success) entries.push(parsed.data);
  }
  const histories = await fetchEntryHistories(
    api,
    entries.map((entry) => entry.id),
  );
  const units: ResealUnit[] = [
    ...entries.map((entry): ResealUnit => ({ type: 'entry', entry, versions: histories.get(entry.id) ?? [] })),
    ...folders.data.map((folder): ResealUnit => ({ type: 'folder', folder })),
    // Each under the kind it was asked for: its binding to that kind is checked as it opens.
    ...documents.flatMap(({ data }, i): ResealUnit[] =>
      data === null ? [] : [{ type: 'document', kind: ACCOUNT_DOCUMENT_KINDS[i]!, ciphertext: data.ciphertext }],
    ),
    // Every file, uploads under way included: a key left wrapped under the old vault key
    // would make its file unreadable for good (the commit refuses a set that misses one).
    ...files.data.map(({ id, entryId, wrappedKey }): ResealUnit => ({ type: 'attachment', file: { id, entryId, wrappedKey } })),
  ];
  return {
    vaultRevision,
    state: state === null ? null : parseVaultState(state),
    units,
    malformed: served.list.length - entries.length,
  };
}
