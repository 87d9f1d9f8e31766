import type { BackupContents, BackupItem, BackupVersion } from '@lockit/transfer';
import { listEntries } from '@/api/list-entries';
import { getEntryHistory } from '../api/get-entry-history';
import { listFolders } from '../api/list-folders';
import { openEntriesInWorkers } from '../lib/open-entries-in-workers';
import { draftOf, openSecrets, openVersionDraft } from '../lib/seal-entry';
import { openFolders } from '../lib/seal-folder';
import type { EntryDraft, OpenEntry } from '../lib/vault-entry';
import { yieldToMain } from '../lib/yield-to-main';

/**
 * Items whose secrets (and history, when they have one) are opened at once: a slice of a few
 * milliseconds of main-thread work; the browser queues the history requests beyond its six.
 */
export const EXPORT_CHUNK_SIZE = 32;

export interface CollectProgress {
  done: number;
  total: number;
}

export interface CollectedVault {
  contents: BackupContents;
  /** Items that did not decrypt (damaged): not in the file, and the page says how many. */
  damagedItems: number;
  /** Earlier versions that did not decrypt: left out of their item's history. */
  damagedVersions: number;
}

type ItemContent = Omit<BackupVersion, 'savedAt' | 'replacedAt'>;

/** One item's content as the backup holds it: folders by path, custom fields without their ids. */
function contentOf(draft: EntryDraft, folderNames: ReadonlyMap<string, string>): ItemContent {
  return {
    type: draft.type,
    name: draft.serviceName,
    username: draft.username,
    password: draft.password,
    urls: [...draft.urls],
    notes: draft.notes,
    totp: draft.totp,
    fields: draft.fields.map(({ label, kind, value }) => ({ label, kind, value })),
    card: draft.card && { ...draft.card },
    identity: draft.identity && { ...draft.identity },
    tags: [...draft.tags],
    folder: draft.folderId === null ? null : (folderNames.get(draft.folderId) ?? null),
    favorite: draft.favorite,
  };
}

/**
 * Everything the export writes, decrypted in this tab: the list and the folders fetched once,
 * then, EXPORT_CHUNK_SIZE items at a time with a yield between chunks, each item's secrets
 * opened and, for an item that was ever changed, its history fetched (only here: the vault
 * never loads histories) and opened version by version. Items in Trash only when `includeTrash`.
 *
 * Security invariant: the result holds every secret in the clear; it lives in memory only
 * until the file is built, and nothing of it is sent anywhere.
 */
export async function collectVault(
  vaultKey: CryptoKey,
  {
    includeTrash,
    onProgress,
    signal,
  }: { includeTrash: boolean; onProgress?: (progress: CollectProgress) => void; signal?: AbortSignal },
): Promise<CollectedVault> {
  const [raw, rawFolders] = await Promise.all([listEntries(), listFolders()]);
  const folders = await openFolders(vaultKey, rawFolders);
  const folderNames = new Map(folders.map((folder) => [folder.id, folder.name]));
  const entries = await openEntriesInWorkers(vaultKey, raw, { signal });
  const wanted = entries.filter((entry) => includeTrash || entry.deletedAt === null);
  const open = wanted.filter((entry): entry is OpenEntry => entry.status === 'open');
  let damagedItems = wanted.length - open.length;
  let damagedVersions = 0;

  const items: BackupItem[] = [];
  onProgress?.({ done: 0, total: open.length });
  for (let start = 0; start < open.length; start += EXPORT_CHUNK_SIZE) {
    const chunk = open.slice(start, start + EXPORT_CHUNK_SIZE);
    const collected = await Promise.all(
      chunk.map(async (entry) => {
        let draft: EntryDraft;
        try {
          draft = draftOf(entry, await openSecrets(vaultKey, entry));
        } catch {
          return null;
        }
        const history: BackupVersion[] = [];
        // Every write (edit, move, delete, restore) bumps the revision and keeps the replaced
        // version: an entry still at revision 1 has no history, and costs no request.
        const versions = entry.revision > 1 ? await getEntryHistory(entry.id) : [];
        for (const version of versions) {
          try {
            const content = contentOf(await openVersionDraft(vaultKey, entry.id, version), folderNames);
            history.push({ ...content, savedAt: version.savedAt, replacedAt: version.replacedAt });
          } catch {
            damagedVersions++;
          }
        }
        const item: BackupItem = {
          ...contentOf(draft, folderNames),
          createdAt: entry.createdAt,
          updatedAt: entry.updatedAt,
          trashedAt: entry.deletedAt,
          history,
        };
        return item;
      }),
    );
    for (const item of collected) {
      if (item === null) damagedItems++;
      else items.push(item);
    }
    onProgress?.({ done: Math.min(start + chunk.length, open.length), total: open.length });
    await yieldToMain();
    signal?.throwIfAborted();
  }

  return {
    contents: {
      app: 'lockit',
      version: 1,
      exportedAt: new Date().toISOString(),
      includesTrash: includeTrash,
      folders: folders.map((folder) => folder.name).sort(),
      items,
    },
    damagedItems,
    damagedVersions,
  };
}
