import {
  listAttachments,
  uploadAttachment,
  type AttachmentPlatform,
  type AttachmentSource,
  type OpenedAttachment,
} from '@lockit/client-core';
import type { AttachmentUsage } from '@lockit/contract';
import { sealedAttachmentSize } from '@lockit/crypto';
import type { TransferAttachment } from '@lockit/transfer';
import { attachmentRoomProblem } from '../../attachments/attachment-room';
import { failureText } from '../../attachments/use-attachments';

/** The files of one imported item, and the entry they go to. */
export interface AttachTarget {
  entryId: string;
  /** The item's name, for the summary. */
  itemName: string;
  files: readonly TransferAttachment[];
  /** The id each file goes up under, where its item listed it before (decision 0084); a new one otherwise. */
  ids?: readonly (string | undefined)[];
  /** An existing item the import updated: a file it already has (same name and size) is not sent again. */
  existing: boolean;
}

export interface AttachOutcome {
  attached: number;
  /** Files not attached, each by name with its item and the reason (a limit, the server's answer). */
  failures: Array<{ itemName: string; fileName: string; message: string }>;
  /** Of the files their items listed before they were sent, those that did not go up, by entry id. */
  failedIds: Map<string, Set<string>>;
}

/** Bytes handed to the sealer per step: the same pieces a picked file is read in. */
const STEP = 1024 * 1024;

/** A file of the import file as the client core reads it. */
function bytesSource(file: TransferAttachment): AttachmentSource {
  return {
    name: file.name,
    type: '',
    size: file.bytes.length,
    async *stream() {
      for (let at = 0; at < file.bytes.length; at += STEP) yield file.bytes.subarray(at, at + STEP);
    },
  };
}

/**
 * Attaches the imported files to their items, one at a time, through the client core's
 * upload (sealed under a new file key each, exactly as the item view's upload does). The
 * server's limits, as its list answers them, are checked before each file and kept up to date
 * as files land; a file past them, or refused by the server, is named in the outcome and the
 * others still go. Nothing here throws: the items exist already, a file's failure is reported.
 */
export async function attachImportedFiles(
  platform: AttachmentPlatform,
  vaultKey: CryptoKey,
  targets: readonly AttachTarget[],
  onFile: () => void,
): Promise<AttachOutcome> {
  const outcome: AttachOutcome = { attached: 0, failures: [], failedIds: new Map() };
  let usage: AttachmentUsage | null = null;
  for (const target of targets) {
    if (target.files.length === 0) continue;
    let present: OpenedAttachment[] = [];
    if (usage === null || target.existing) {
      try {
        const list = await listAttachments(platform, vaultKey, target.entryId);
        usage = list.usage;
        present = list.files.filter((file): file is OpenedAttachment => file.kind === 'file');
      } catch {
        // The server answers again at create; its refusal, if any, is reported per file.
      }
    }
    for (const [index, file] of target.files.entries()) {
      const size = file.bytes.length;
      const fileId = target.ids?.[index];
      const fail = (message: string) => {
        outcome.failures.push({ itemName: target.itemName, fileName: file.name, message });
        if (fileId === undefined) return;
        const failed = outcome.failedIds.get(target.entryId) ?? new Set<string>();
        outcome.failedIds.set(target.entryId, failed.add(fileId));
      };
      try {
        if (present.some((had) => had.name === file.name && had.size === size)) continue;
        const problem = usage && attachmentRoomProblem(usage, file.name, size);
        if (problem) {
          fail(problem);
          continue;
        }
        await uploadAttachment(platform, vaultKey, target.entryId, bytesSource(file), { fileId });
        if (usage) usage = { ...usage, usedBytes: usage.usedBytes + sealedAttachmentSize(size) };
        outcome.attached += 1;
      } catch (error) {
        fail(`${file.name} was not attached: ${failureText(error)}`);
      } finally {
        onFile();
      }
    }
  }
  return outcome;
}
