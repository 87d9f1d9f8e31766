import { attachmentPaths, ATTACHMENT_PART_MAX_BYTES, type AttachmentUsage } from '@lockit/contract';
import { CLIENT_HEADER, CLIENT_HEADER_VALUE } from '@lockit/contract/paths';
import {
  newAttachmentKey,
  newEntryId,
  openAttachmentStream,
  sealAttachmentMetadata,
  sealAttachmentStream,
  sealedAttachmentSize,
  type AttachmentIds,
} from '@lockit/crypto';
import { ApiError, NetworkError } from '../http/api-errors';
import type { AttachmentPlatform, AttachmentSource } from './attachment-platform';
import type { BinaryRequest, BinaryResponse } from './binary-transport';
import { openListedAttachment, type ListedAttachment, type OpenedAttachment } from './opened-attachment';

export interface AttachmentList {
  files: ListedAttachment[];
  usage: AttachmentUsage;
}

/** The files of entry `entryId`, each opened (or shown damaged), and the account's usage and limits. */
export async function listAttachments(
  platform: AttachmentPlatform,
  vaultKey: CryptoKey,
  entryId: string,
): Promise<AttachmentList> {
  const answer = await platform.api.call('list-attachments', { params: { entryId } });
  const files = await Promise.all(answer.data.map((wire) => openListedAttachment(vaultKey, entryId, wire)));
  return { files, usage: answer.usage };
}

/** Progress of an upload or a download, in bytes of the file as the person sees it. */
export type ProgressListener = (done: number, total: number) => void;

export interface UploadOptions {
  onProgress?: ProgressListener | undefined;
  /**
   * The key epoch of `vaultKey` (the unlocked vault's): sent with the create, so the server
   * refuses the file once the account's key has been rotated away from it.
   */
  keyEpoch?: number | undefined;
  /** The file's id, when the item listed it before it was sent (an import, decision 0084); a new one otherwise. */
  fileId?: string | undefined;
}

/**
 * Seals `source` under a new file key and uploads it: create (the server refuses a file past
 * its limits here, with 413 and its message, before any byte is sent), then parts of at most
 * ATTACHMENT_PART_MAX_BYTES appended at their offset, then finish. Streams: at most one part
 * and two chunks of the file are in memory, whatever its size. Only the wrapped key, the
 * sealed metadata and sealed chunks leave the device. A failed upload is deleted (best effort).
 */
export async function uploadAttachment(
  platform: AttachmentPlatform,
  vaultKey: CryptoKey,
  entryId: string,
  source: AttachmentSource,
  { onProgress, keyEpoch, fileId }: UploadOptions = {},
): Promise<OpenedAttachment> {
  const ids: AttachmentIds = { itemId: entryId.toLowerCase(), fileId: (fileId ?? newEntryId()).toLowerCase() };
  const { key, wrappedKey } = await newAttachmentKey(vaultKey, ids);
  const meta = { name: source.name, size: source.size, type: source.type };
  const metadata = await sealAttachmentMetadata(key, ids, meta);
  const size = sealedAttachmentSize(source.size);
  const params = { entryId: ids.itemId, id: ids.fileId };
  await platform.api.call('create-attachment', {
    params: { entryId: ids.itemId },
    body: { id: ids.fileId, wrappedKey, metadata, size, ...(keyEpoch === undefined ? {} : { keyEpoch }) },
  });
  try {
    const part = new Uint8Array(Math.min(ATTACHMENT_PART_MAX_BYTES, size));
    let filled = 0;
    let offset = 0;
    const flush = async () => {
      await putPart(platform, ids, offset, part.subarray(0, filled));
      offset += filled;
      filled = 0;
      onProgress?.(Math.min(source.size, offset), source.size);
    };
    for await (const chunk of sealAttachmentStream(key, ids, source.stream(), source.size)) {
      if (filled + chunk.length > part.length) await flush();
      part.set(chunk, filled);
      filled += chunk.length;
    }
    if (filled > 0) await flush();
    const finished = await platform.api.call('finish-attachment', { params });
    const opened = await openListedAttachment(vaultKey, ids.itemId, finished.data);
    if (opened.kind !== 'file') throw new Error(opened.problem);
    return opened;
  } catch (error) {
    await platform.api.call('delete-attachment', { params }).catch(() => undefined);
    throw error;
  }
}

async function putPart(platform: AttachmentPlatform, ids: AttachmentIds, offset: number, bytes: Uint8Array): Promise<void> {
  const url = `${platform.baseUrl}${attachmentPaths.content(ids.itemId, ids.fileId)}?offset=${offset}`;
  await sendBinary(platform, { method: 'PUT', url, headers: { 'content-type': 'application/octet-stream' }, body: bytes });
}

/**
 * The plaintext of `file`, chunk by chunk, as it arrives: each chunk is checked for this file,
 * its place and whether it must be the last, and the content must end exactly at the size
 * sealed in the metadata. A server that changes, swaps, reorders, drops or adds anything, or
 * serves another entry's or file's content, makes this throw AttachmentDecryptionError.
 *
 * Security invariant: pieces yielded before a throw are not the file. Keep them until the
 * generator finishes and throw them all away on an error (the web app builds the Blob only then).
 */
export async function* downloadAttachment(
  platform: AttachmentPlatform,
  file: OpenedAttachment,
  onProgress?: ProgressListener,
): AsyncGenerator<Uint8Array> {
  const url = `${platform.baseUrl}${attachmentPaths.content(file.ids.itemId, file.ids.fileId)}`;
  const response = await sendBinary(platform, { method: 'GET', url, headers: { accept: 'application/octet-stream' } });
  const body = response.body ?? emptyBody();
  let done = 0;
  for await (const piece of openAttachmentStream(file.key, file.ids, body, file.size)) {
    done += piece.length;
    onProgress?.(done, file.size);
    yield piece;
  }
}

/** A new name, sealed under the file's own key with its size and type unchanged. */
export async function renameAttachment(
  platform: AttachmentPlatform,
  file: OpenedAttachment,
  name: string,
): Promise<OpenedAttachment> {
  const metadata = await sealAttachmentMetadata(file.key, file.ids, { name, size: file.size, type: file.type });
  const answer = await platform.api.call('rename-attachment', {
    params: { entryId: file.ids.itemId, id: file.ids.fileId },
    body: { metadata },
  });
  return { ...file, name, updatedAt: answer.data.updatedAt };
}

export async function deleteAttachment(platform: AttachmentPlatform, file: { ids: AttachmentIds }): Promise<void> {
  await platform.api.call('delete-attachment', { params: { entryId: file.ids.itemId, id: file.ids.fileId } });
}

/**
 * A raw call with the client header, refreshed once on a 401 like the JSON calls; a status
 * outside 2xx is an ApiError with the server's message. Shared files (decision 0081) use it too.
 */
export async function sendBinary(platform: AttachmentPlatform, request: BinaryRequest): Promise<BinaryResponse> {
  const send = async () => {
    let response: BinaryResponse;
    try {
      response = await platform.binary({ ...request, headers: { ...request.headers, [CLIENT_HEADER]: CLIENT_HEADER_VALUE } });
    } catch {
      throw new NetworkError();
    }
    if (response.status >= 200 && response.status < 300) return response;
    let body: unknown = null;
    try {
      body = JSON.parse(await response.text()) as unknown;
    } catch {
      body = null;
    }
    throw new ApiError(response.status, messageOf(body), body);
  };
  try {
    return await send();
  } catch (error) {
    if (!(error instanceof ApiError) || error.status !== 401) throw error;
    await platform.api.refresh().catch(() => {
      throw error;
    });
    return send();
  }
}

function messageOf(body: unknown): string | undefined {
  const message = (body as { message?: unknown } | null)?.message;
  return typeof message === 'string' ? message : undefined;
}

async function* emptyBody(): AsyncGenerator<Uint8Array> {}
