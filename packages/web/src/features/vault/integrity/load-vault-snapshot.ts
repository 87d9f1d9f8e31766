import { listEntries, servedVaultStateOf } from '@/api/list-entries';
import { listFolders } from '../api/list-folders';
import { openEntry } from '@lockit/client-core';
import { openFolder } from '../lib/seal-folder';
import type { VaultSnapshot } from './vault-integrity';
import { entryElementsOf, folderElementsOf, type EntryElement } from '@lockit/client-core';

/**
 * The vault as the server serves it now, for a check after a mismatch or a refused write:
 * the list and the folders fetched again, every member's element computed, nothing decrypted
 * but the names this tab does not know yet (entries and folders made elsewhere), which only
 * the manifest needs. The screen's list is not changed by it.
 */
export async function loadVaultSnapshot(
  integrityKey: CryptoKey,
  vaultKey: CryptoKey,
  knownNames: ReadonlyMap<string, string>,
): Promise<VaultSnapshot> {
  const [raw, folders] = await Promise.all([listEntries(), listFolders()]);
  const [entries, folderElements] = await Promise.all([
    entryElementsOf(integrityKey, raw),
    folderElementsOf(integrityKey, folders),
  ]);
  const names = new Map<string, string>();
  await Promise.all([
    ...raw.map(async (wire, i) => {
      const id = entries[i]?.id;
      if (id === undefined) return;
      const known = knownNames.get(id);
      if (known !== undefined) return void names.set(id, known);
      const opened = await openEntry(vaultKey, wire);
      if (opened?.status === 'open') names.set(id, opened.serviceName);
    }),
    ...folders.map(async (wire) => {
      const known = knownNames.get(wire.id);
      if (known !== undefined) return void names.set(wire.id, known);
      const opened = await openFolder(vaultKey, wire);
      if (opened) names.set(wire.id, opened.name);
    }),
  ]);
  return {
    state: servedVaultStateOf(raw) ?? null,
    entries: entries.filter((element): element is EntryElement => element !== null),
    folders: folderElements,
    names,
  };
}
