import type { EntryVersionWire, FileRef } from '@lockit/contract';
import type { BackupContents, BackupItem, BackupVersion } from '@lockit/transfer';
import { listEntries } from '@/api/list-entries';
import { api } from '@/lib/http';
import { fetchEntryHistories } from '@lockit/client-core';
import { openEntriesWithSecrets } from '../lib/open-entries-in-workers';
import { draftOf, openVersionDraft, sshKeyPlaintext } from '@lockit/client-core';
import { openFolders } from '@lockit/client-core';
import type { EntryDraft, EntrySecrets, OpenEntry } from '@lockit/client-core';
import { yieldToMain } from '@lockit/client-core';

/** Items whose histories are opened at once: a slice of a few milliseconds of main-thread work. */
const HISTORY_SLICE = 16;

export interface CollectProgress {
  done: number;
  total: number;
}

export interface CollectedVault {
  contents: BackupContents;
  /** The entry id of each item of `contents.items`, in the same order (for its attached files). */
  entryIds: string[];
  /** The files each item lists, in the same order (undefined: it never listed them, decision 0084). */
  fileLists?: (readonly FileRef[] | undefined)[];
  /** Items that did not decrypt (damaged): not in the file, and the page says how many. */
  damagedItems: number;
  /** Earlier versions that did not decrypt: left out of their item's history. */
  damagedVersions: number;
}

/** Marks the export bench reads (bench/src/benches/export.ts), between lockit:export:verified and :collected. */
const collectMark = (step: 'listed' | 'opened') => performance.mark(`lockit:export:${step}`);

type ItemContent = Omit<BackupVersion, 'savedAt' | 'replacedAt'>;

/** One item's content as the backup holds it: folders by path, custom fields without their ids. */
function contentOf(draft: EntryDraft, folderNames: ReadonlyMap<string, string>): ItemContent {
  return {
    type: draft.type,
    name: draft.serviceName,
    username: draft.username,
    password: draft.password,
    urls: [...draft.urls],
    ...(draft.urlRules && Object.keys(draft.urlRules).length > 0 && { urlRules: { ...draft.urlRules } }),
    notes: draft.notes,
    totp: draft.totp,
    fields: draft.fields.map(({ label, kind, value }) => ({ label, kind, value })),
    card: draft.card && { ...draft.card },
    identity: draft.identity && { ...draft.identity },
    ...(draft.type === 'sshKey' && { sshKey: sshKeyContent(draft.sshKey) }),
    tags: [...draft.tags],
    folder: draft.folderId === null ? null : (folderNames.get(draft.folderId) ?? null),
    favorite: draft.favorite,
  };
}

/** What the export fetches before it decrypts: every entry and folder, still sealed. */
export interface SealedVault {
  raw: unknown[];
  rawFolders: unknown[];
}

/** The list and the folders, still sealed: may start before the master password is checked. */
export async function fetchSealedVault(): Promise<SealedVault> {
  const [raw, rawFolders] = await Promise.all([listEntries(), api.call('list-folders', {}).then((answer) => answer.data)]);
  return { raw, rawFolders };
}

/** Ids of listed entries that were ever changed (revision above 1), read before decryption. */
function changedIds(raw: readonly unknown[], includeTrash: boolean): string[] {
  const ids: string[] = [];
  for (const entry of raw) {
    if (typeof entry !== 'object' || entry === null) continue;
    const { id, _id, revision, deletedAt } = entry as Record<string, unknown>;
    const key = typeof id === 'string' ? id : _id;
    if (typeof key !== 'string' || typeof revision !== 'number' || revision <= 1) continue;
    if (includeTrash || deletedAt === null || deletedAt === undefined) ids.push(key);
  }
  return ids;
}

/**
 * Everything the export writes, decrypted in this tab: the list and the folders (`sealed`, or
 * fetched now); every entry opened with its secrets in the crypto workers
 * (open-entries-in-workers.ts) while the histories of the items ever changed are fetched in
 * one call per 500 items (only here: the vault never loads histories); then each history
 * opened version by version, a few items at a time between yields. Items in Trash only when
 * `includeTrash`. `onProgress` counts items opened.
 *
 * Security invariant: the result holds every secret in the clear; it lives in memory only
 * until the file is built, and nothing of it is sent anywhere. A version that does not open
 * under its item's id is counted, never written; a history the server withholds fails the
 * export (get-entry-histories.ts).
 */
export async function collectVault(
  vaultKey: CryptoKey,
  {
    includeTrash,
    onProgress,
    signal,
    sealed,
  }: {
    includeTrash: boolean;
    onProgress?: (progress: CollectProgress) => void;
    signal?: AbortSignal;
    sealed?: Promise<SealedVault>;
  },
): Promise<CollectedVault> {
  const { raw, rawFolders } = await (sealed ?? fetchSealedVault());
  const folders = await openFolders(vaultKey, rawFolders);
  const folderNames = new Map(folders.map((folder) => [folder.id, folder.name]));
  collectMark('listed');
  onProgress?.({ done: 0, total: raw.length });
  // The histories travel while the workers decrypt.
  const asked = changedIds(raw, includeTrash);
  const fetched = asked.length === 0 ? Promise.resolve(new Map<string, EntryVersionWire[]>()) : fetchEntryHistories(api, asked);
  fetched.catch(() => {});
  const opened = await openEntriesWithSecrets(vaultKey, raw, {
    signal,
    onProgress: (done, total) => onProgress?.({ done, total }),
  });
  collectMark('opened');
  const wanted = opened.filter(({ entry }) => includeTrash || entry.deletedAt === null);
  const open = wanted.filter((item): item is { entry: OpenEntry; secrets: EntrySecrets } => {
    return item.entry.status === 'open' && item.secrets !== null;
  });

  const sealedHistories = await fetched;
  const histories = new Map<string, BackupVersion[]>();
  let damagedVersions = 0;
  const changed = open.filter(({ entry }) => sealedHistories.has(entry.id));
  for (let start = 0; start < changed.length; start += HISTORY_SLICE) {
    await Promise.all(
      changed.slice(start, start + HISTORY_SLICE).map(async ({ entry }) => {
        const history: BackupVersion[] = [];
        for (const version of sealedHistories.get(entry.id) ?? []) {
          try {
            const content = contentOf(await openVersionDraft(vaultKey, entry.id, version), folderNames);
            history.push({ ...content, savedAt: version.savedAt, replacedAt: version.replacedAt });
          } catch {
            damagedVersions++;
          }
        }
        histories.set(entry.id, history);
      }),
    );
    await yieldToMain();
    signal?.throwIfAborted();
  }

  const items: BackupItem[] = open.map(({ entry, secrets }) => ({
    ...contentOf(draftOf(entry, secrets), folderNames),
    createdAt: entry.createdAt,
    updatedAt: entry.updatedAt,
    trashedAt: entry.deletedAt,
    history: histories.get(entry.id) ?? [],
  }));
  const damagedItems = wanted.length - open.length;

  return {
    contents: {
      app: 'lockit',
      version: 1,
      exportedAt: new Date().toISOString(),
      includesTrash: includeTrash,
      folders: folders.map((folder) => folder.name).sort(),
      items,
    },
    entryIds: open.map(({ entry }) => entry.id),
    fileLists: open.map(({ entry }) => entry.files),
    damagedItems,
    damagedVersions,
  };
}

/** An SSH key as exports carry it: the private key with its public key line and fingerprint. */
function sshKeyContent(sshKey: EntryDraft['sshKey']): NonNullable<ItemContent['sshKey']> | null {
  if (!sshKey || sshKey.privateKey.trim() === '') return null;
  try {
    const { overview, secret } = sshKeyPlaintext(sshKey);
    return { privateKey: secret.privateKey, publicKey: overview.publicKey, fingerprint: overview.fingerprint };
  } catch {
    // A key the vault holds but cannot read (saved by a later Lockit?): exported as it is.
    return { privateKey: sshKey.privateKey, publicKey: '', fingerprint: '' };
  }
}
