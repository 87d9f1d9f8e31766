import { api } from '@/lib/http';
import { writtenFolderMember } from '@lockit/client-core';
import { checkFolderName, sealFolderName, vaultStateHeaders, writeThrough, type VaultIntegrity } from '@lockit/client-core';
import type { OpenFolder } from '@lockit/client-core';

/** A folder path as compared: its parts trimmed, case kept (folders differing in case are two). */
const pathKey = (name: string) => {
  const checked = checkFolderName(name);
  return checked.ok ? checked.name : null;
};

/**
 * The folder id of every path the import names: an existing folder with the same path is
 * reused; a missing one is created (sealed name, nesting by "/" in the name as the vault
 * does). A path that is not a valid folder name (empty parts) puts its items in no folder.
 */
export async function ensureFolders(
  vaultKey: CryptoKey,
  paths: ReadonlySet<string>,
  existing: readonly OpenFolder[],
  integrity?: VaultIntegrity | null,
): Promise<{ ids: Map<string, string>; created: OpenFolder[] }> {
  const byPath = new Map<string, string>();
  for (const folder of existing) {
    const key = pathKey(folder.name);
    if (key !== null && !byPath.has(key)) byPath.set(key, folder.id);
  }
  const ids = new Map<string, string>();
  const created: OpenFolder[] = [];
  for (const path of paths) {
    const key = pathKey(path);
    if (key === null) continue;
    let id = byPath.get(key);
    if (id === undefined) {
      id = crypto.randomUUID();
      const folderId = id;
      const name = await sealFolderName(vaultKey, folderId, key);
      const addFolders = [{ member: writtenFolderMember(folderId, 1, name), name: key }];
      const saved = await writeThrough(
        integrity,
        () => ({ addFolders }),
        async (state) => (await api.call('add-folder', { body: { id: folderId, name }, headers: vaultStateHeaders(state) })).data,
      );
      created.push({ id, name: key, revision: saved.revision });
      byPath.set(key, id);
    }
    ids.set(path, id);
  }
  return { ids, created };
}
