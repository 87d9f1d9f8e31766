import type { FileRef } from '@lockit/contract';
import {
  downloadAttachment,
  itemFilesOf,
  openListedAttachment,
  type AttachmentPlatform,
  type OpenedAttachment,
} from '@lockit/client-core';
import type { BackupContents, BackupFile, BackupSealer } from '@lockit/transfer';
import { api } from '@/lib/http';
import { pageAttachmentPlatform } from '../attachments/attachment-platform';
import type { CollectedVault } from './collect-vault';
import type { BackupFilesPlan } from './export-file';

/** The account's finished files, opened under the vault key, by entry id. */
export interface VaultFiles {
  byEntry: Map<string, OpenedAttachment[]>;
  /** Files whose key or name did not open as their entry's: not in the backup, and the page says how many. */
  damaged: number;
}

/**
 * Every finished file of the account in one call, each opened as the item view opens it
 * (its key unwrapped only for its entry and file id, its name and size only under that key,
 * the size the server reports checked against the sealed one). A file that does not open is
 * counted, never written. Each entry's files in the order they were attached.
 */
export async function openVaultFiles(vaultKey: CryptoKey): Promise<VaultFiles> {
  const answer = await api.call('list-account-attachments', {});
  const byEntry = new Map<string, OpenedAttachment[]>();
  let damaged = 0;
  const finished = answer.data.filter((wire) => wire.finished);
  const opened = await Promise.all(finished.map((wire) => openListedAttachment(vaultKey, wire.entryId, wire)));
  for (const file of opened) {
    if (file.kind === 'damaged') {
      damaged++;
      continue;
    }
    const list = byEntry.get(file.ids.itemId) ?? [];
    list.push(file);
    byEntry.set(file.ids.itemId, list);
  }
  for (const list of byEntry.values()) list.sort((a, b) => a.createdAt - b.createdAt || a.ids.fileId.localeCompare(b.ids.fileId));
  return { byEntry, damaged };
}

/** What a version 2 backup lists of a file: no id and no key, only what restoring needs. */
function listed(file: OpenedAttachment): BackupFile {
  return { name: file.name, size: file.size, type: file.type, createdAt: new Date(file.createdAt).toISOString() };
}

/**
 * The contents with each item's files listed (version 2), and the opened files in the same
 * places; the contents unchanged (version 1) and null when no exported item has a file.
 * `entryIds[i]` is the entry of `contents.items[i]`, `fileLists[i]` the files it lists: an item
 * that lists its files carries those (under the names it lists), never a served file it does
 * not list, and a listed file the server did not serve is counted in `missing`.
 */
export function withFiles(
  contents: BackupContents,
  entryIds: readonly string[],
  files: VaultFiles,
  fileLists: readonly (readonly FileRef[] | undefined)[] = [],
): { contents: BackupContents; attached: OpenedAttachment[][] | null; missing: number } {
  let missing = 0;
  const attached = entryIds.map((id, i) => {
    const served = files.byEntry.get(id.toLowerCase()) ?? [];
    const refs = fileLists[i];
    if (refs === undefined) return served;
    const item = itemFilesOf(refs, served);
    missing += item.files.filter((file) => file.kind !== 'file').length;
    return item.files.filter((file): file is OpenedAttachment => file.kind === 'file');
  });
  if (attached.every((list) => list.length === 0)) return { contents, attached: null, missing };
  const items = contents.items.map((item, i) => (attached[i]!.length > 0 ? { ...item, files: attached[i]!.map(listed) } : item));
  return { contents: { ...contents, version: 2, items }, attached, missing };
}

/**
 * The contents to seal and, when an exported item has files, the plan for them (this page's
 * attachment calls); `vaultFiles` undefined for a plain export. The count of files that did
 * not open, for the page to say.
 */
export async function planBackupFiles(
  collected: Pick<CollectedVault, 'contents' | 'entryIds' | 'fileLists'>,
  vaultFiles: Promise<VaultFiles> | undefined,
  onFile: (done: number, total: number) => void,
): Promise<{ contents: BackupContents; files?: BackupFilesPlan; damagedFiles: number; missingFiles: number }> {
  if (vaultFiles === undefined) return { contents: collected.contents, damagedFiles: 0, missingFiles: 0 };
  const opened = await vaultFiles;
  const { contents, attached, missing } = withFiles(collected.contents, collected.entryIds, opened, collected.fileLists);
  const files = attached === null ? undefined : { attached, platform: pageAttachmentPlatform, onFile };
  return { contents, files, damagedFiles: opened.damaged, missingFiles: missing };
}

/** Sealed bytes handed to a Blob at once: the page's heap holds at most this much of the file. */
const FOLD_BYTES = 8 * 1024 * 1024;

/**
 * The version 2 backup as a Blob: each file downloaded in its turn, checked chunk by chunk as
 * it arrives (downloadAttachment), and sealed frame by frame under the backup's key as it
 * comes; the sealed pieces are folded into the Blob every few megabytes, so neither one file
 * nor the vault's files sit whole in this page's memory. Any file that fails its check fails
 * the whole backup: nothing is saved that is not whole.
 */
export async function sealBackupWithFiles(
  sealer: BackupSealer,
  contents: BackupContents,
  attached: OpenedAttachment[][],
  platform: AttachmentPlatform,
  onFile?: (done: number, total: number) => void,
): Promise<Blob> {
  const total = attached.reduce((sum, list) => sum + list.length, 0);
  let done = 0;
  let blob = new Blob([]);
  let pending: Uint8Array<ArrayBuffer>[] = [];
  let pendingBytes = 0;
  onFile?.(0, total);
  const read = async function* ({ item, position }: { item: number; position: number }) {
    yield* downloadAttachment(platform, attached[item]![position]!);
    onFile?.(++done, total);
  };
  for await (const piece of sealer.withFiles(contents, read)) {
    pending.push(piece as Uint8Array<ArrayBuffer>);
    pendingBytes += piece.length;
    if (pendingBytes >= FOLD_BYTES) {
      blob = new Blob([blob, ...pending]);
      pending = [];
      pendingBytes = 0;
    }
  }
  return new Blob([blob, ...pending], { type: 'application/octet-stream' });
}
