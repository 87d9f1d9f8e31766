import { type AttachmentWire } from '@lockit/contract';
import {
  AttachmentDecryptionError,
  openAttachmentMetadata,
  sealedAttachmentSize,
  unwrapAttachmentKey,
  type AttachmentIds,
} from '@lockit/crypto';

/** A file of an entry, opened: what a list shows, and the key its download and rename need. */
export interface OpenedAttachment {
  kind: 'file';
  ids: AttachmentIds;
  name: string;
  size: number;
  type: string;
  createdAt: number;
  updatedAt: number;
  /** The file key, non-extractable; never leaves this device. */
  key: CryptoKey;
}

/** A file the server served that does not open as this entry's: shown as damaged, never opened. */
export interface DamagedAttachment {
  kind: 'damaged';
  id: string;
  /** Why, in words a person can read (from AttachmentDecryptionError). */
  problem: string;
}

export type ListedAttachment = OpenedAttachment | DamagedAttachment;

/**
 * Opens one file of the list of entry `entryId` (the entry the caller asked for, never the one
 * the answer names): its key unwraps only for this entry and file id, its metadata only under
 * that key, and the sealed size the server reports must be exactly the size the metadata
 * names, sealed. Anything else is a DamagedAttachment.
 */
export async function openListedAttachment(
  vaultKey: CryptoKey,
  entryId: string,
  wire: AttachmentWire,
): Promise<ListedAttachment> {
  const ids = { itemId: entryId.toLowerCase(), fileId: wire.id.toLowerCase() };
  try {
    if (wire.entryId.toLowerCase() !== ids.itemId) throw anotherEntry();
    const key = await unwrapAttachmentKey(vaultKey, wire.wrappedKey, ids);
    const meta = await openAttachmentMetadata(key, ids, wire.metadata);
    if (sealedAttachmentSize(meta.size) !== wire.size) {
      throw new AttachmentDecryptionError(
        'metadata',
        'The server reports another size for this file than the one sealed with it: it was changed. The file was not opened.',
      );
    }
    return { kind: 'file', ids, ...meta, createdAt: wire.createdAt, updatedAt: wire.updatedAt, key };
  } catch (error) {
    if (error instanceof AttachmentDecryptionError) return { kind: 'damaged', id: wire.id, problem: error.message };
    throw error;
  }
}

function anotherEntry(): AttachmentDecryptionError {
  return new AttachmentDecryptionError('key', "The server listed another entry's file here. The file was not opened.");
}
